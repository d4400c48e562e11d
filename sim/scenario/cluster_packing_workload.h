// File: sim/scenario/cluster_packing_workload.h
// workload.kind == "cluster_packing": replay an Alibaba openb pod list (cluster-trace-gpu-v2023,
// fractional gpu_milli requests) onto a node list under several GPU-sharing schemes and compare the
// GPUs they need, their fragmentation and the pods they cannot place (docs/multiplex.md §Cluster
// packing; run by sim/experiment/cluster_packing_experiment.cpp).
//
//   workload:
//     kind: cluster_packing
//     pods: ../../traces/alibaba_openb/openb_pod_list_default_every8.csv   # relative to this file
//     nodes: ../../traces/alibaba_openb/openb_node_list_gpu_node_every8.csv
//     schemes: [exclusive, mig, elastic]
//     mig_geometry: A100-80GB    # optional: MIG profiles of this GPU model; default hardware.gpus[0]
//     replay: fill               # optional: timed (default: creation/deletion times) or fill
//                                # (file order, nobody leaves); cluster_packing_replay.h
//
// Loading checks that both files exist; `parallax run` reads them (sim/workload/alibaba_gpu_trace.h)
// before placing anything, so a bad row is an exit 2 with its file:line.
#pragma once

#include <string>
#include <vector>

#include "sim/scenario/config_tree.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

struct ClusterPackingWorkloadSpec {
  std::string pods_path;   // as resolved
  std::string nodes_path;
  std::vector<std::string> schemes;
  std::string mig_geometry;  // a GPU model of gpu-partitioning.yaml
  std::string replay = "timed";  // "timed" | "fill"
};

void read_cluster_packing_workload(const ConfigNode& workload, const std::string& path,
                                   const WorkloadContext& context, Scenario& scenario);

}  // namespace parallax
