// File: sim/experiment/serverless_timeline.h
// timeline.csv of a serverless run (docs/serverless.md "timeline.csv"): per policy, in fixed-width
// bins from time zero, the model loads started in the bin by path (PCIe from the host, NVLink from
// a peer GPU) with their bytes, and the model memory in use on the GPUs (every GPU of every node
// summed, time-weighted mean over the bin). The bins (sim/report/time_bins.h) cover the longest
// policy's run, the same for every policy so they line up. Built from the nodes' load and pool
// samples (ServerlessPolicy::record_timeline).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/policies/serverless/serverless_node.h"

namespace parallax {

// One policy's samples, copied out of its nodes before they go (collect_timeline fills loads and
// pools; the caller names the policy and sets end_s from the summary).
struct ServerlessTimelineSamples {
  std::string policy;
  std::vector<LoadSample> loads;               // every node's, in time order
  std::vector<std::vector<PoolSample>> pools;  // one entry per GPU of every node
  double end_s = 0;                            // the run's last finish (makespan)
};

ServerlessTimelineSamples collect_timeline(std::span<const ServerlessNode* const> nodes);

struct TimelineBin {
  double start_s = 0;
  uint64_t swaps_pcie = 0, swaps_nvlink = 0;
  double bytes_pcie = 0, bytes_nvlink = 0;
  double memory_bytes = 0;  // time-weighted mean over the bin, summed over GPUs
};

// The bins of one policy from 0 to `horizon_s` (at least one bin).
std::vector<TimelineBin> bin_timeline(const ServerlessTimelineSamples& samples, double horizon_s, double bin_s);

// timeline.csv for every policy, binned over the longest run.
std::string timeline_csv(std::span<const ServerlessTimelineSamples> policies);

}  // namespace parallax
