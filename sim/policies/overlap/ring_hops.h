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
//
// A ring may name, per hop, which of the pair's paths it takes (Platform::paths: on a bridged
// pair 0 = NVLink, 1 = PCIe through the switch), so one ring can run on NVLink while another runs
// on PCIe between the same GPUs.
#pragma once

#include <span>
#include <vector>

#include "models/ring.h"
#include "sim/platform/platform.h"

namespace parallax {

// A ring and the path each hop takes: paths[i] indexes Platform::paths(order[i], order[i+1 mod P]);
// empty = path 0 (Platform::path) on every hop.
struct RingRoute {
  std::vector<int> order;
  std::vector<int> paths;
  int path_of_hop(size_t i) const { return paths.empty() ? 0 : paths[i]; }
};

// The links one hop crosses (copy engines left out: they are not part of the ring model), each
// once, as dense resource indices with their capacities, and the hop's latency and link type.
struct HopLinks {
  std::vector<std::pair<uint32_t, double>> links;
  double latency_s = 0;
  models::LinkType type = models::LinkType::nvlink;
};
HopLinks hop_links_of(const Path& path, std::vector<uint32_t>& resource_ids);

// Each hop's bandwidth: min over its links of capacity / (hops of all `rings` crossing that link);
// `crossings` is scratch, indexed by dense resource, all zero on entry and on return.
std::vector<models::RingParams> ring_params_over(std::span<const std::vector<const HopLinks*>> rings,
                                                 std::vector<int>& crossings);

// Hops of rings that run at the same time, each hop on the path its RingRoute names. Throws
// PlatformError for an unknown GPU, a GPU named twice in one order or a path index out of range.
std::vector<models::RingParams> concurrent_ring_hops(Platform& platform, std::span<const RingRoute> rings);

// Hops of rings that run at the same time; result[r].hops[i] goes from orders[r][i] to
// orders[r][i+1 mod P]. base_latency_s is left 0. Throws PlatformError for an unknown GPU or a
// GPU named twice in one order, std::invalid_argument for an order of fewer than 1 GPU.
std::vector<models::RingParams> concurrent_ring_hops(Platform& platform, std::span<const std::vector<int>> orders);

// One ring alone.
models::RingParams ring_hops(Platform& platform, const std::vector<int>& order);

// The same cycle run the other way round, starting at the same GPU: 0,1,2,3 -> 0,3,2,1.
std::vector<int> counter_rotating_order(const std::vector<int>& order);

}  // namespace parallax
