// File: sim/experiment/cluster_packing_experiment.cpp
// workload.kind == cluster_packing: reads the Alibaba pod and node lists (a bad row: exit 2 with
// file:line), replays the pods once per listed scheme (exclusive, mig, elastic) and summarises
// every scheme under `policies.<name>` (docs/multiplex.md §Cluster packing). No trace.json: nothing
// here runs kernels.
#include <fmt/format.h>

#include "sim/experiment/experiment.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"
#include "sim/policies/multiplex/cluster_packing_replay.h"
#include "sim/report/report_pages.h"
#include "sim/report/run_timing.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/workload/alibaba_gpu_trace.h"

namespace parallax {

Result run_cluster_packing(const Scenario& sc, const ExperimentContext& ctx) {
  const WallClock clock;
  const ClusterPackingWorkloadSpec& w = sc.cluster_packing;
  // Trace rows -> what the packer asks about.
  std::vector<PodRequest> pods;
  for (const AlibabaPod& p : read_alibaba_pods(w.pods_path))
    pods.push_back({p.cpu_milli, p.memory_mib, p.num_gpu, p.gpu_milli, p.gpu_spec, p.has_times, p.creation_s, p.deletion_s});
  std::vector<ClusterNode> nodes;
  for (const AlibabaNode& n : read_alibaba_nodes(w.nodes_path)) nodes.push_back({n.cpu_milli, n.memory_mib, n.gpus, n.model});
  const GpuPartitioning& geometry = gpu_partitioning_for(w.mig_geometry);

  Result r;
  nlohmann::ordered_json& summary = r.summary;
  summary = policy_summary_header(sc, "cluster_packing");
  summary["pods_file"] = w.pods_path;
  summary["nodes_file"] = w.nodes_path;
  summary["mig_geometry"] = geometry.name;
  int gpus = 0;
  for (const ClusterNode& n : nodes) gpus += n.gpus;
  summary["nodes"] = nodes.size();
  summary["gpus_in_cluster"] = gpus;
  summary["pods"] = pods.size();
  summary["replay"] = w.replay;

  nlohmann::ordered_json& policies = summary["policies"];
  ConsoleTable table{{"scheme", "GPUs", "mean GPU", "frag %", "alloc %", "unplaced", "GPU pods", "frag'd"}, {}, {}};
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
    if (ctx.progress != nullptr)
      ctx.progress->report(static_cast<double>(policies.size()) / static_cast<double>(w.schemes.size()));
    table.rows.push_back({name, fmt::format("{}", m.gpus_needed), fmt::format("{:.1f}", m.mean_gpus_occupied),
                          fmt::format("{:.2f}", m.fragmentation * 100), fmt::format("{:.2f}", m.gpu_allocation * 100),
                          fmt::format("{}", m.unplaced_pods), fmt::format("{}", m.unplaced_gpu_pods),
                          fmt::format("{}", m.unplaced_fragmented)});
  }
  r.console.push_back(std::move(table));
  r.timing = timing_json(clock.elapsed_s());
  return r;
}

// Its own page, not the transfers one: the run's figures and one row per scheme.
HtmlReport cluster_packing_page(const Scenario&, const Result& r) {
  HtmlReport page = generic_report_page(r.summary, "cluster_packing");
  ReportTable schemes{"Schemes",
                      "Per packing scheme: GPUs the pods needed, GPUs occupied on average over the window, "
                      "fragmentation and allocation (shares), pods left unplaced (docs/multiplex.md, Cluster packing).",
                      {"scheme"},
                      {}};
  const nlohmann::ordered_json& policies = r.summary.at("policies");
  for (const auto& [name, p] : policies.items()) {
    std::vector<std::string> row{name};
    for (const auto& [key, value] : p.items()) {
      if (schemes.rows.empty()) schemes.header.push_back(key);
      row.push_back(format_report_value(value));
    }
    schemes.rows.push_back(std::move(row));
  }
  if (!schemes.rows.empty()) page.tables.push_back(std::move(schemes));
  return page;
}

}  // namespace parallax
