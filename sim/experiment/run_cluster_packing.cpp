// File: sim/experiment/run_cluster_packing.cpp
#include "sim/experiment/run_cluster_packing.h"

#include <cstdio>

#include "sim/policies/multiplex/cluster_packing_replay.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/workload/alibaba_gpu_trace.h"
#include "sim/report/run_timing.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"

namespace parallax {

int run_cluster_packing(const Scenario& sc, const RunOptions& options) {
  const WallClock clock;
  const ClusterPackingWorkloadSpec& w = sc.cluster_packing;
  const std::vector<AlibabaPod> pods = read_alibaba_pods(w.pods_path);
  const std::vector<AlibabaNode> nodes = read_alibaba_nodes(w.nodes_path);
  const GpuPartitioning& geometry = gpu_partitioning_for(w.mig_geometry);

  nlohmann::ordered_json summary = policy_summary_header(sc, "cluster_packing");
  summary["pods_file"] = w.pods_path;
  summary["nodes_file"] = w.nodes_path;
  summary["mig_geometry"] = geometry.name;
  int gpus = 0;
  for (const AlibabaNode& n : nodes) gpus += n.gpus;
  summary["nodes"] = nodes.size();
  summary["gpus_in_cluster"] = gpus;
  summary["pods"] = pods.size();
  summary["replay"] = w.replay;

  nlohmann::ordered_json& policies = summary["policies"];
  if (!options.quiet) {
    const RunProgress::Pause under_the_line(options.progress);
    std::printf("%-10s %6s %8s %9s %8s %10s %8s %8s\n", "scheme", "GPUs", "mean GPU", "frag %", "alloc %", "unplaced",
                "GPU pods", "frag'd");
  }
  for (const std::string& name : w.schemes) {
    const PackingMetrics m = replay_cluster_packing(pods, nodes, packing_scheme_from_name(name), &geometry,
                                                    w.replay == "fill" ? PackingReplay::fill : PackingReplay::timed);
    summary["replay"] = m.timed ? "timed" : "fill";  // a list without times is always replayed as fill
    nlohmann::ordered_json p;
    p["gpus_needed"] = m.gpus_needed;
    p["unplaced_pods"] = m.unplaced_pods;
    p["fragmentation"] = m.fragmentation;
    p["unplaced_gpu_pods"] = m.unplaced_gpu_pods;
    p["unplaced_fragmented"] = m.unplaced_fragmented;
    p["placed_pods"] = m.placed_pods;
    p["gpu_pods"] = m.gpu_pods;
    p["mean_gpus_occupied"] = m.mean_gpus_occupied;
    p["gpu_allocation"] = m.gpu_allocation;
    p["window_s"] = m.window_s;
    policies[name] = p;
    if (options.progress != nullptr)
      options.progress->report(static_cast<double>(policies.size()) / static_cast<double>(w.schemes.size()));
    if (!options.quiet) {
      const RunProgress::Pause under_the_line(options.progress);
      std::printf("%-10s %6d %8.1f %9.2f %8.2f %10lld %8lld %8lld\n", name.c_str(), m.gpus_needed,
                  m.mean_gpus_occupied, m.fragmentation * 100, m.gpu_allocation * 100,
                  static_cast<long long>(m.unplaced_pods), static_cast<long long>(m.unplaced_gpu_pods),
                  static_cast<long long>(m.unplaced_fragmented));
    }
  }
  if (options.progress != nullptr) options.progress->finish();
  write_policy_outputs(sc, options, summary, clock.elapsed_s(), nullptr);  // no kernels run: no trace.json
  return 0;
}

}  // namespace parallax
