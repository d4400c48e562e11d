// File: sim/scenario/cluster_packing_workload.cpp
#include "sim/scenario/cluster_packing_workload.h"

#include <fmt/format.h>

#include <filesystem>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/io/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

namespace {

std::string resolve(const MapFields& f, std::string_view key, const WorkloadContext& context) {
  const ConfigNode& node = f.required(key);
  const std::string written = read_string(node, f.path_of(key));
  std::filesystem::path resolved(written);
  if (resolved.is_relative()) resolved = (context.base_dir / resolved).lexically_normal();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(resolved, ec))
    fail_at(node, f.path_of(key),
            fmt::format("'{}': cannot open '{}' (resolved to '{}')", f.path_of(key), written, resolved.string()));
  return resolved.string();
}

}  // namespace

void read_cluster_packing_workload(const ConfigNode& workload, const std::string& path,
                                   const WorkloadContext& context, Scenario& scenario) {
  const MapFields f(workload, path, {"kind", "pods", "nodes", "schemes", "mig_geometry", "replay"});
  ClusterPackingWorkloadSpec& w = scenario.cluster_packing;
  w.pods_path = resolve(f, "pods", context);
  w.nodes_path = resolve(f, "nodes", context);
  const ConfigNode& schemes = f.required("schemes");
  w.schemes = read_string_list(schemes, f.path_of("schemes"));
  if (w.schemes.empty()) fail_at(schemes, f.path_of("schemes"), fmt::format("'{}' must not be empty", f.path_of("schemes")));
  for (size_t i = 0; i < w.schemes.size(); ++i) {
    read_choice(schemes.items[i], join_path(f.path_of("schemes"), i), {"exclusive", "mig", "elastic"});
    for (size_t j = 0; j < i; ++j)
      if (w.schemes[j] == w.schemes[i])
        fail_at(schemes.items[i], join_path(f.path_of("schemes"), i), fmt::format("scheme '{}' is listed twice", w.schemes[i]));
  }
  if (const ConfigNode* r = f.optional("replay")) w.replay = read_choice(*r, f.path_of("replay"), {"timed", "fill"});
  if (const ConfigNode* g = f.optional("mig_geometry")) {
    w.mig_geometry = read_string(*g, f.path_of("mig_geometry"));
    try {
      (void)gpu_partitioning_for(w.mig_geometry);
    } catch (const InputError& e) {
      fail_at(*g, f.path_of("mig_geometry"), e.message());
    }
  } else {
    if (scenario.hardware.gpus.empty()) fail_at(workload, path, "no mig_geometry and no GPU in the hardware");
    w.mig_geometry = scenario.hardware.gpus[0].model;
    try {
      (void)gpu_partitioning_for(w.mig_geometry);
    } catch (const InputError& e) {
      fail_at(workload, path, fmt::format("{} (set workload.mig_geometry)", e.message()));
    }
  }
}

}  // namespace parallax
