// File: sim/policies/serverless/serverless_metrics.h
// What a serverless run reports (docs/serverless.md defines every field): per function the
// P50/P98/P99 latency (nearest rank over finished requests), mean queueing delay and SLO
// compliance (P98 <= SLO and nothing dropped), and for the node the SLO attainment (share of the
// functions with at least one arrival that comply), the P99 over all requests, request
// conservation (arrived = finished + dropped + queued), swaps by path and GPUs used.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sim/policies/serverless/serverless_node.h"

namespace parallax {

struct FunctionLatency {
  std::string name, model;
  uint64_t arrived = 0, finished = 0, dropped = 0, cold_starts = 0;
  double p50_s = 0, p98_s = 0, p99_s = 0, mean_queue_s = 0, slo_s = 0;
  bool compliant = false;
};

struct ServerlessSummary {
  std::string policy;
  int functions = 0;          // functions with at least one arrival
  int functions_hosted = 0;   // native: functions with a GPU; others: = functions
  int functions_compliant = 0;
  double slo_attainment = 0;
  double p50_latency_s = 0, p99_latency_s = 0, mean_latency_s = 0, mean_queue_s = 0;
  uint64_t arrived = 0, finished = 0, dropped = 0, queued = 0;
  double p50_queue_s = 0, p99_queue_s = 0;   // dispatch - arrival, nearest rank
  double makespan_s = 0;                     // last finish (time zero = trace start)
  int gpus_used = 0;
  double gpu_seconds = 0;                    // gpus_used * makespan_s: the provisioning cost
  double gpu_busy_s = 0;
  uint64_t swaps_pcie = 0, swaps_nvlink = 0, evictions = 0, cold_starts = 0;
  double pcie_bytes = 0, nvlink_bytes = 0;
  double pcie_utilisation = 0, nvlink_utilisation = 0;  // filled by the runner (needs the links)
  std::vector<FunctionLatency> per_function;
};

// Nearest-rank percentile of unsorted values (q in (0, 1]); 0 for none.
double nearest_rank(std::vector<double> values, double q);
// out[i] = the nearest-rank percentile qs[i] of `values` (qs ascending), each found by a selection
// in what the previous one left above its rank; permutes `values` instead of copying them.
void nearest_ranks_in_place(std::span<double> values, std::span<const double> qs, std::span<double> out);

ServerlessSummary summarise_serverless(const ServerlessNode& node);
// Several nodes serving the same functions behind a router (serverless_cluster.h): a function's
// percentiles are over its requests on every node; GPUs, swaps and evictions add up.
ServerlessSummary summarise_serverless(std::span<const ServerlessNode* const> nodes);

}  // namespace parallax
