// File: sim/scenario/scenario_loader.cpp
#include "sim/scenario/scenario_loader.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "sim/scenario/calibration_apply.h"
#include "sim/scenario/config_edit.h"
#include "sim/scenario/config_fields.h"
#include "sim/scenario/embedded_file.h"
#include "sim/scenario/hardware_presets.h"
#include "sim/scenario/hardware_reader.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

namespace {

// `hardware: NAME` is shorthand for `hardware: {preset: NAME}`; spelling it out first lets
// "--set hardware.gpus=16" reach into a preset.
void expand_hardware_shorthand(ConfigNode& root) {
  ConfigEntry* hw = find_entry(root, "hardware");
  if (hw == nullptr || hw->value.kind != ConfigNode::Kind::scalar) return;
  ConfigNode name = hw->value;
  ConfigNode map;
  map.kind = ConfigNode::Kind::map;
  map.where = name.where;
  map.entries.push_back(ConfigEntry{"preset", name.where, std::move(name)});
  hw->value = std::move(map);
}

HardwareSpec read_scenario_hardware(const ConfigNode& node, const std::string& path) {
  expect_map(node, path);
  const ConfigEntry* preset = find_entry(node, "preset");
  if (preset == nullptr) return read_hardware(node, path);
  const std::string preset_key = join_path(path, "preset");
  const std::string name = read_string(preset->value, preset_key);
  ConfigNode merged = hardware_preset_tree(name, preset->value.where, preset_key);
  ConfigNode overlay = node;
  std::erase_if(overlay.entries, [](const ConfigEntry& e) { return e.key == "preset"; });
  deep_merge(merged, overlay);
  return read_hardware(merged, path);
}

OutputSpec read_output(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"activities_csv", "trace", "trace_limit"});
  OutputSpec out;
  if (const ConfigNode* n = f.optional("activities_csv")) out.activities_csv = read_bool(*n, f.path_of("activities_csv"));
  if (const ConfigNode* n = f.optional("trace")) out.trace = read_bool(*n, f.path_of("trace"));
  if (const ConfigNode* n = f.optional("trace_limit"))
    out.trace_limit = read_integer_in(*n, f.path_of("trace_limit"), 0, 100'000'000);
  return out;
}

std::filesystem::path base_dir_of(const std::string& source_name) {
  if (source_name.empty() || source_name.front() == '<') return std::filesystem::path(".");
  const std::filesystem::path parent = std::filesystem::path(source_name).parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

}  // namespace

Scenario load_scenario_text(std::string_view yaml, const std::string& source_name,
                            const std::vector<std::string>& overrides) {
  ConfigNode root = parse_config_tree(yaml, source_name);
  if (root.kind == ConfigNode::Kind::null)
    throw InputError(SourceLocation{source_name, 0, 0}, "", "the scenario is empty");
  expect_map(root, "");
  for (const std::string& assignment : overrides) {
    expand_hardware_shorthand(root);
    apply_override(root, assignment);
  }
  expand_hardware_shorthand(root);

  const MapFields f(root, "", {"name", "description", "seed", "hardware", "calibration", "workload", "output"});
  Scenario s;
  s.source = source_name;
  const ConfigNode& name = f.required("name");
  s.name = read_string(name, "name");
  if (s.name.empty()) fail_at(name, "name", "'name' must not be empty");
  if (const ConfigNode* n = f.optional("description")) s.description = read_string(*n, "description");
  if (const ConfigNode* n = f.optional("seed")) s.seed = read_unsigned(*n, "seed");
  s.hardware = read_scenario_hardware(f.required("hardware"), "hardware");
  if (const ConfigNode* n = f.optional("calibration"))
    apply_scenario_calibration(*n, base_dir_of(source_name).string(), s.hardware);
  read_workload(f.required("workload"), "workload", WorkloadContext{base_dir_of(source_name)}, s);
  if (const ConfigNode* n = f.optional("output")) s.output = read_output(*n, "output");
  return s;
}

Scenario load_scenario_file(const std::string& path, const std::vector<std::string>& overrides) {
  return load_scenario_text(read_input_text(path), path, overrides);
}

std::string_view embedded_quickstart() {
  const auto text = find_embedded_scenario_file("scenarios/quickstart.yaml");
  return text ? *text : std::string_view();
}

}  // namespace parallax
