// File: sim/policies/multiplex/cluster_packing_replay.h
// Replays a pod list (an Alibaba openb trace, as PodRequests) onto a node list under one packing
// scheme (cluster_packer.h) and measures what the scheme costs.
//
// Two modes. `timed`: pods arrive at creation_time and leave at deletion_time (departures first
// at equal times); ties keep file order. `fill` (the packing experiment of Weng et al., ATC'23):
// pods arrive one after another in file order and never leave, so the cluster fills up and the
// scheme's fragmentation shows as pods refused. Pod lists without times (multigpu50) are always
// replayed as `fill`. A pod that cannot be placed on arrival is counted unplaced and dropped (no
// queue, no retries: the question is what each scheme can hold).
//
// Metrics over the window [first arrival, last arrival] of a timed replay (the drain after the last
// arrival is left out), or of the state after the last arrival in fill mode:
//   gpus_needed        peak number of GPUs holding at least one pod
//   mean_gpus_occupied time average of the same
//   fragmentation      ∫(1000·occupied GPUs − Σ requested gpu_milli) / ∫ 1000·occupied GPUs: the
//                      share of the held GPUs' capacity that no pod asked for (MIG rounding, a
//                      whole GPU for a fraction, slivers too small for the next pod)
//   gpu_allocation     ∫ Σ requested gpu_milli / (1000 · GPUs in the cluster · window)
//   unplaced_pods, unplaced_gpu_pods, and unplaced_fragmented: GPU pods refused while the GPUs
//                      of an allowed model still had enough unrequested capacity in total.
#pragma once

#include <cstdint>
#include <span>

#include "sim/policies/multiplex/cluster_packer.h"

namespace parallax {

struct PackingMetrics {
  int64_t pods = 0;
  int64_t gpu_pods = 0;
  int64_t placed_pods = 0;
  int64_t unplaced_pods = 0;
  int64_t unplaced_gpu_pods = 0;
  int64_t unplaced_fragmented = 0;
  int gpus_in_cluster = 0;
  int gpus_needed = 0;
  double mean_gpus_occupied = 0;
  double fragmentation = 0;
  double gpu_allocation = 0;
  double window_s = 0;           // 0 in fill mode
  bool timed = false;            // the mode the replay ran in
};

enum class PackingReplay { timed, fill };

PackingMetrics replay_cluster_packing(std::span<const PodRequest> pods, std::span<const ClusterNode> nodes,
                                      PackingScheme scheme, const GpuPartitioning* mig_geometry,
                                      PackingReplay mode = PackingReplay::timed);

}  // namespace parallax
