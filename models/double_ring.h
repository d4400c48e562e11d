// File: models/double_ring.h
// Two rings over the same ranks run at once (different orders, or one cycle in both directions),
// each carrying a share of the data in proportion to its bottleneck bandwidth; the collective ends
// when the slower of the two ends. REFERENCE.md §2.5 (candidates a and b) [inference there].
//
//   x1 = β1/(β1+β2), x2 = 1 − x1       β = each ring's bottleneck hop bandwidth
//   time = max(ring(op, x1·S, first), ring(op, x2·S, second))
//
// Example: two counter-rotating rings on one 8-GPU cycle, each hop 50 GB/s and 1 µs, all-gather
// of 80 MB: x1 = x2 = 0.5, each ring: 7·1 µs + 7·(40 MB/8)/(50 GB/s) = 7 µs + 700 µs = 707 µs,
// versus 7 µs + 1400 µs = 1407 µs for a single ring (≈2× on the bandwidth term).
#pragma once

#include "models/collective_cost.h"
#include "models/ring.h"

namespace parallax::models {

struct DoubleRingParams {
  RingParams first;
  RingParams second;
};

struct DoubleRingCost {
  CollectiveCost total;       // the slower ring's cost
  double first_share = 0.0;   // x1, fraction of S on the first ring
  CollectiveCost first;
  CollectiveCost second;
};

// Throws std::invalid_argument if the two rings have different rank counts (or per ring_cost).
DoubleRingCost double_ring_cost(CollectiveOp op, double bytes, const DoubleRingParams& rings);

}  // namespace parallax::models
