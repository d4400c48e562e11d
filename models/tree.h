// File: models/tree.h
// NCCL's double binary tree all-reduce (REFERENCE.md §2.1, §2.2): a chain inside each node and a
// binary tree across nodes, two trees each carrying half the data. Only all-reduce: NCCL runs
// all-gather and reduce-scatter on rings, so tree_cost returns nullopt for them.
//
//   latency = base + 2·((P/N − 1)·intra.latency_s + log2(N)·inter.latency_s)
//   β       = min(intra.bandwidth_Bps, inter.bandwidth_Bps if N > 1)
//   time    = latency + S / (0.5 · 0.92 · β)
// (tuning.cc: tree busBw ×0.92, tree algBw = busBw/2.) Not modelled: tuning.cc's size-dependent
// tree factor (0.4–1.0) and its per-channel caps.
//
// Example: 2 nodes × 8 GPUs (P = 16), intra 1 µs, inter 5 µs, β = 25 GB/s, base 8.4 µs, 100 MB:
//   latency = 8.4 + 2·(7·1 + 1·5) = 32.4 µs; bandwidth = 100e6/(0.46·25e9) = 8695.7 µs.
#pragma once

#include <cstdint>
#include <optional>

#include "models/collective_cost.h"

namespace parallax::models {

struct TreeParams {
  int64_t ranks = 0;          // P, a multiple of nodes
  int64_t nodes = 1;          // N
  Hop intra;                  // a hop of the intra-node chain
  Hop inter;                  // a hop between nodes (ignored when nodes == 1)
  double base_latency_s = 0.0;
  double bandwidth_factor = 0.92;  // tuning.cc's tree factor
};

// nullopt for all-gather and reduce-scatter. Throws std::invalid_argument for bad params.
std::optional<CollectiveCost> tree_cost(CollectiveOp op, double bytes, const TreeParams& tree);

}  // namespace parallax::models
