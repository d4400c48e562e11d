// File: models/swap_cost.h
// The latency of a function's first request when its model is not on the GPU: the weights are
// swapped in from host memory (PCIe) or from a peer GPU (NVLink), whole or pipelined, and the
// layers run. Pure functions over per-layer data (bytes, compute seconds) and a path description;
// the simulator's serverless executor (sim/policies/serverless) issues the same steps on the
// Platform, and its tests hold it to these numbers.
//
// Model (REFERENCE.md §5.2; Torpor §4.3, torpor:include/server/memory_manager.hpp):
//   The parameters are sent in first-use order, cut into groups of `group_bytes` (2 MiB). One
//   transfer thread sends group g, waits for it (sync), then spends `group_overhead_s` (event
//   record, synchronise, mark ready; on the host path also the pageable -> pinned staging copy)
//   before sending g+1:
//     a_g = sum_{j<=g} (latency_s + size_j / bandwidth_Bps + group_overhead_s)   group g ready
//   Layer i can start when the group holding its last byte is ready and layer i-1 is done:
//     c_i = max(c_{i-1}, a_{group(i)}) + compute_i;        latency = c_last
//   `pipelined` evaluates this recursion exactly; `pipelined_estimate` is the coarse form of
//   REFERENCE.md §5.2: max(compute, transfer) + first group + n_groups * overhead.
//   `whole` (the baseline): one copy of every byte (pinned, one group), then all layers:
//     latency = latency_s + bytes / bandwidth_Bps + group_overhead_s + compute.
//   `none`: the model is resident; latency = compute.
//
// Worked example (ResNet-152 on the v100x4-gn6e preset, PCIe path: 16 GB/s, 1 us, overhead
// 90 us): 241.4 MB in 116 groups; transfer chain = 241.4e6/16e9 + 116 * 91 us = 15.1 + 10.6 =
// 25.6 ms > compute 17 ms, so the last layer (fc, ~0 ms) waits for the last group: latency
// 25.6 ms (Torpor Table 4: 25 ms).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace parallax::models {

inline constexpr int64_t kSwapGroupBytes = int64_t{2} * 1024 * 1024;  // Torpor BUFFER_SIZE

// Per-group overheads. Host path: fitted so that the v100x4-gn6e preset (PCIe 16 GB/s line rate)
// gives Torpor Table 4's Swap-PCIe latencies (ResNet-152 25 ms wants 85 us, Bert-qa 144 ms wants
// 95 us; 90 us splits them); read as the sync plus the pageable -> pinned staging memcpy of a
// 2 MiB group at ~23 GB/s. Peer path: [assumption] sync only; Bert-qa's 45 ms over NVLink
// (Table 4) bounds it below ~28 us at 50 GB/s.
inline constexpr double kHostGroupOverhead_s = 90e-6;
inline constexpr double kPeerGroupOverhead_s = 20e-6;
// Host path while the PCIe-switch sibling also loads from the host (sim/policies/serverless
// swap_executor.h). Fitted (one parameter, least squares on relative error) to Torpor Table 3
// (REFERENCE.md §5.4) on v100x4-gn6e with the sibling swapping back to back, the switch uplink
// shared by the solver; ms, ours at 90 / 120 / 150 us vs Table 3:
//   ResNet-152 while DenseNet-169 swaps  31.2 / 31.6 / 34.3   vs  31
//   ResNet-152 while Bert-qa swaps       40.7 / 44.2 / 47.7   vs  43
//   Bert-qa while DenseNet-169 swaps    160.1 / 159.7 / 171.2 vs 166
//   Bert-qa while ResNet-152 swaps      197.4 / 210.0 / 225.7 vs 240
// (DenseNet-169 running: 25.4 for all, Table 3: 27 = its own 27 ms, +0 %.)
inline constexpr double kHostGroupOverheadContended_s = 120e-6;

// One layer (or layer group) in first-use order.
struct SwapLayer {
  int64_t param_bytes = 0;
  double compute_s = 0;
};

// The path the weights take.
struct SwapPath {
  double bandwidth_Bps = 0;      // bottleneck line rate of the route
  double latency_s = 0;          // route latency, paid by every copy
  double group_overhead_s = 0;   // per group, after its copy (sync, staging)
  int64_t group_bytes = kSwapGroupBytes;
};

// Sizes of the groups the parameters are cut into (the last one may be short). Throws
// std::invalid_argument if group_bytes <= 0.
std::vector<int64_t> swap_group_sizes(int64_t total_bytes, int64_t group_bytes);

// Index of the group holding the last byte of each layer (-1 for a leading layer with no bytes).
std::vector<int64_t> swap_layer_groups(std::span<const SwapLayer> layers, int64_t group_bytes);

double total_param_bytes(std::span<const SwapLayer> layers);
double total_compute_s(std::span<const SwapLayer> layers);

// Time at which each group is ready, from the start of the swap (a_g above).
std::vector<double> swap_group_ready_s(std::span<const SwapLayer> layers, const SwapPath& path);

double resident_latency_s(std::span<const SwapLayer> layers);
double whole_swap_latency_s(std::span<const SwapLayer> layers, const SwapPath& path);
double pipelined_swap_latency_s(std::span<const SwapLayer> layers, const SwapPath& path);
double pipelined_swap_estimate_s(std::span<const SwapLayer> layers, const SwapPath& path);

}  // namespace parallax::models
