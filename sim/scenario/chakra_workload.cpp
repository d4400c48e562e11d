// File: sim/scenario/chakra_workload.cpp
#include "sim/scenario/chakra_workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "sim/io/did_you_mean.h"
#include "sim/io/input_error.h"
#include "sim/scenario/config_fields.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

void read_chakra_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                          Scenario& scenario) {
  const MapFields f(workload, path, {"kind", "trace", "recorded_on", "ctrl_deps"});
  ChakraWorkloadSpec& w = scenario.chakra;
  const ConfigNode& trace = f.required("trace");
  const std::string written = read_string(trace, f.path_of("trace"));
  std::filesystem::path resolved(written);
  if (resolved.is_relative()) resolved = (context.base_dir / resolved).lexically_normal();
  std::error_code ec;
  if (!std::filesystem::is_directory(resolved, ec))
    fail_at(trace, f.path_of("trace"),
            fmt::format("'{}': '{}' is not a folder of NAME.<rank>.et files (resolved to '{}')", f.path_of("trace"),
                        written, resolved.string()));
  w.trace_dir = resolved.string();
  if (const ConfigNode* r = f.optional("recorded_on")) {
    // Only the name is checked here: the experiment loads the preset (loading it here would put a
    // second preset into the schema that docs/scenario-reference.md records).
    w.recorded_on = read_string(*r, f.path_of("recorded_on"));
    const auto names = hardware_preset_names();
    if (std::find(names.begin(), names.end(), w.recorded_on) == names.end())
      fail_at(*r, f.path_of("recorded_on"),
              fmt::format("unknown hardware preset '{}'{}; presets: {}", w.recorded_on,
                          did_you_mean_suffix(w.recorded_on, names), fmt::join(names, ", ")));
  }
  if (const ConfigNode* c = f.optional("ctrl_deps"))
    w.follow_ctrl_deps = read_choice(*c, f.path_of("ctrl_deps"), {"ignore", "follow"}) == "follow";
}

}  // namespace parallax
