// File: sim/scenario/chakra_workload.cpp
#include "sim/scenario/chakra_workload.h"

#include <fmt/format.h>

#include <filesystem>

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
    w.recorded_on = read_string(*r, f.path_of("recorded_on"));
    HardwareSpec recorded;
    try {
      recorded = load_hardware_preset(w.recorded_on);
    } catch (const InputError& e) {
      fail_at(*r, f.path_of("recorded_on"), e.message());
    }
    if (recorded.gpus.empty() || recorded.gpus[0].peak_flops <= 0)
      fail_at(*r, f.path_of("recorded_on"), fmt::format("preset '{}' has no GPU with a peak FLOP/s", w.recorded_on));
    w.recorded_peak_flops = recorded.gpus[0].peak_flops;
  }
  if (const ConfigNode* c = f.optional("ctrl_deps"))
    w.follow_ctrl_deps = read_choice(*c, f.path_of("ctrl_deps"), {"ignore", "follow"}) == "follow";
}

}  // namespace parallax
