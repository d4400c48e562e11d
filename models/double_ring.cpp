// File: models/double_ring.cpp
// Bandwidth-proportional split over two rings; formula in double_ring.h.
#include "models/double_ring.h"

#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {

DoubleRingCost double_ring_cost(CollectiveOp op, double bytes, const DoubleRingParams& rings) {
  if (rings.first.ranks() != rings.second.ranks()) {
    throw std::invalid_argument(fmt::format("double_ring_cost: rings have {} and {} ranks",
                                            rings.first.ranks(), rings.second.ranks()));
  }
  DoubleRingCost out;
  const double b1 = rings.first.bottleneck_Bps();
  const double b2 = rings.second.bottleneck_Bps();
  out.first_share = b1 / (b1 + b2);
  out.first = ring_cost(op, out.first_share * bytes, rings.first);
  out.second = ring_cost(op, (1.0 - out.first_share) * bytes, rings.second);
  out.total = out.first.time_s >= out.second.time_s ? out.first : out.second;
  return out;
}

}  // namespace parallax::models
