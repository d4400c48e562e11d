// File: models/ring.cpp
// Bottleneck-hop ring model; formula in ring.h (REFERENCE.md §2.1, §2.2).
#include "models/ring.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace parallax::models {

double RingParams::bottleneck_Bps() const {
  double bw = std::numeric_limits<double>::infinity();
  for (const Hop& hop : hops) bw = std::min(bw, hop.bandwidth_Bps);
  return bw;
}

double RingParams::step_latency_s() const {
  double lat = 0.0;
  for (const Hop& hop : hops) lat = std::max(lat, hop.latency_s);
  return lat;
}

CollectiveCost ring_cost(CollectiveOp op, double bytes, const RingParams& ring) {
  if (ring.hops.empty()) throw std::invalid_argument("ring_cost: the ring has no hops");
  if (bytes < 0) throw std::invalid_argument("ring_cost: bytes < 0");
  for (const Hop& hop : ring.hops) {
    if (hop.bandwidth_Bps <= 0) throw std::invalid_argument("ring_cost: a hop has bandwidth <= 0");
  }
  CollectiveCost cost;
  const int64_t p = ring.ranks();
  if (p == 1) return cost;
  const double steps = static_cast<double>(ring_steps(op, p));
  cost.latency_s = ring.base_latency_s + steps * ring.step_latency_s();
  cost.bandwidth_s = bus_bandwidth_factor(op, p) * bytes / ring.bottleneck_Bps();
  cost.time_s = cost.latency_s + cost.bandwidth_s;
  return cost;
}

}  // namespace parallax::models
