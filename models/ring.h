// File: models/ring.h
// Ring (or pipelined chain) collectives over an explicit list of hops, so that a ring
// through a hybrid box (some NVLink-bridge hops, some PCIe hops) is expressible: every rank moves
// one chunk per step in lock-step, so the slowest hop sets both the step latency and the rate.
//
//   P      = hops.size()                   (hop i goes from rank i to rank i+1 mod P)
//   steps  = ring_steps(op, P): 2(P−1) for all-reduce, 1 for send/recv, P−1 otherwise
//   α_step = max_i hops[i].latency_s,  β = min_i hops[i].bandwidth_Bps
//   time   = base_latency_s + steps·α_step + F·S/β,  F = bus_bandwidth_factor(op, P)
// all-reduce: 2(P−1)α + 2(P−1)/P·S/β; AG/RS/all-to-all: (P−1)α + (P−1)/P·S/β; broadcast and
// reduce (pipelined chain, NCCL's ring): (P−1)α + S/β; send/recv: α + S/β (REFERENCE.md §2.1).
//
// Example: 4 ranks, hops of 50 GB/s and 1 µs except one PCIe hop of 20 GB/s and 2 µs, no base,
// all-reduce of 64 MB: steps = 6, α = 2 µs, β = 20 GB/s,
//   time = 6·2 µs + 6·(16 MB)/(20 GB/s) = 12 µs + 4800 µs = 4.812 ms.
#pragma once

#include <cstdint>
#include <vector>

#include "models/collective_cost.h"

namespace parallax::models {

struct RingParams {
  std::vector<Hop> hops;        // one per rank, in ring order
  double base_latency_s = 0.0;  // paid once per collective (NCCL baseLat)

  int64_t ranks() const { return static_cast<int64_t>(hops.size()); }
  // min over hops of bandwidth_Bps (+inf for an empty ring).
  double bottleneck_Bps() const;
  // max over hops of latency_s (0 for an empty ring).
  double step_latency_s() const;
};

// Time of `op` on `bytes` (nccl-tests' S) over `ring`. A one-rank ring costs nothing.
// Throws std::invalid_argument for an empty ring, negative bytes or a hop with bandwidth <= 0.
CollectiveCost ring_cost(CollectiveOp op, double bytes, const RingParams& ring);

}  // namespace parallax::models
