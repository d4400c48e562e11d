// File: sim/policies/overlap/ring_hops.h
// Rings over a real machine: the models::Hop list of a GPU ring, built from the Platform's paths
// (on SimPlatform the Topology's routes: NVLink preferred, GPUs never forward). A hop's bandwidth is the bottleneck of its route, where
// every link direction is divided among the hops that cross it at the same time — hops of the same
// ring (two PCIe hops through one switch uplink) and of the other rings passed in with it (the two
// rings of a double ring). Its latency is the route's latency.
//
// Example (a6000x8-nvlink-pairs, GPUs 0..3 behind one PCIe switch, NVLink pairs 0-1 and 2-3):
//   ring 0→1→2→3→0: hops 56 GB/s (NVLink), 32 (PCIe), 56, 32;
//   with its reverse 0→3→2→1→0 at once: the reverse uses the other link directions, so every hop
//   keeps its bandwidth, and the two rings together double the PCIe-bound ring's rate.
#pragma once

#include <span>
#include <vector>

#include "models/ring.h"
#include "sim/platform/platform.h"

namespace parallax {

// Hops of rings that run at the same time; result[r].hops[i] goes from orders[r][i] to
// orders[r][i+1 mod P]. base_latency_s is left 0. Throws PlatformError for an unknown GPU or a
// GPU named twice in one order, std::invalid_argument for an order of fewer than 1 GPU.
std::vector<models::RingParams> concurrent_ring_hops(Platform& platform, std::span<const std::vector<int>> orders);

// One ring alone.
models::RingParams ring_hops(Platform& platform, const std::vector<int>& order);

// The same cycle run the other way round, starting at the same GPU: 0,1,2,3 -> 0,3,2,1.
std::vector<int> counter_rotating_order(const std::vector<int>& order);

}  // namespace parallax
