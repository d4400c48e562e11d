// File: sim/scenario/hardware_presets.cpp
#include "sim/scenario/hardware_presets.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/io/did_you_mean.h"
#include "sim/scenario/embedded_config_tree.h"
#include "sim/scenario/embedded_file.h"
#include "sim/scenario/hardware_reader.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

namespace {
constexpr std::string_view kPresetDir = "scenarios/hardware/";
constexpr std::string_view kYaml = ".yaml";
}  // namespace

std::string hardware_preset_path(std::string_view name) { return fmt::format("{}{}{}", kPresetDir, name, kYaml); }

std::vector<std::string> hardware_preset_names() {
  std::vector<std::string> names;
  for (const EmbeddedFile& f : embedded_scenario_files()) {
    const std::string_view p = f.path;
    if (p.size() > kPresetDir.size() + kYaml.size() && p.substr(0, kPresetDir.size()) == kPresetDir &&
        p.substr(p.size() - kYaml.size()) == kYaml)
      names.emplace_back(p.substr(kPresetDir.size(), p.size() - kPresetDir.size() - kYaml.size()));
  }
  std::sort(names.begin(), names.end());
  return names;
}

ConfigNode hardware_preset_tree(std::string_view name, const SourceLocation& where, const std::string& key) {
  const std::string path = hardware_preset_path(name);
  std::optional<ConfigNode> tree = name.find('/') == std::string_view::npos ? embedded_config_tree(path) : std::nullopt;
  if (!tree) {
    const std::vector<std::string> names = hardware_preset_names();
    throw InputError(where, key,
                     fmt::format("unknown hardware preset '{}'{}; presets: {}", name, did_you_mean_suffix(name, names),
                                 fmt::join(names, ", ")));
  }
  return std::move(*tree);
}

HardwareSpec load_hardware_preset(std::string_view name) {
  const ConfigNode tree = hardware_preset_tree(name, SourceLocation{}, "");
  return read_hardware(tree, "");
}

}  // namespace parallax
