// File: sim/policies/multiplex/elastic_shares.h
// The elastic rule: the SM and bandwidth shares of every service on one GPU, recomputed whenever a
// batch starts or ends (docs/multiplex.md §elastic). Pure function, no platform.
//
//  1. An idle service (no batch in flight) keeps a floor: `idle_sms` SMs (one TPC) and
//     `idle_bandwidth_share` of HBM, because a platform partition cannot be empty.
//  2. SMs: the active services water-fill the rest, S_pool = S − floors, by weight w_i, each capped
//     at its batch's SM demand d_i (largest kernel need, in whole granules): repeat { fair_i =
//     w_i/Σw_U · remaining over the unsatisfied set U; every i with d_i <= fair_i gets d_i and
//     leaves U } until nobody leaves; the rest get fair_i. Shares are rounded down to granules
//     (at least one; if that overshoots the pool, granules come back from the largest share), and
//     the granules left over go one by one to the active service furthest below its demand
//     (lowest index on ties). A service alone therefore expands to its whole
//     demand (bubble filling), and shrinks to its weighted fair share when another's batch starts.
//  3. Bandwidth: the same water-filling of B_pool = 1 − floors with caps b_i (the batch's peak
//     HBM fraction on its SMs); what is left (bubbles) is then split among the active services in
//     proportion to w_i, so Σ shares = 1 whenever a batch is in flight.
//
//   S = 132, granule 2, floors 2 SMs / 0.01; A active d = 132 w = 3, B active d = 132 w = 1,
//   C idle: C gets 2 SMs; A gets 96, B 34 (130 by 3:1 = 97.5/32.5, rounded down to 96/32, two
//   spare SMs to B, furthest below demand).
#pragma once

#include <span>
#include <vector>

namespace parallax {

struct ElasticDemand {
  bool active = false;
  int sm_demand = 0;            // SMs the batch can use at once
  double bandwidth_demand = 0;  // fraction of HBM the batch can use at once, (0, 1]
  double weight = 1;            // quota weight (> 0)
};

struct ElasticLimits {
  int gpu_sms = 0;
  int sms_granule = 2;               // TPC
  int idle_sms = 2;
  double idle_bandwidth_share = 0.01;
};

struct ElasticShare {
  int sms = 0;
  double bandwidth_share = 0;
};

// Throws std::invalid_argument when the floors and one granule per active service do not fit.
std::vector<ElasticShare> elastic_shares(std::span<const ElasticDemand> demands, const ElasticLimits& limits);

// Weighted water-filling of `pool` with caps (the step shared by SMs and bandwidth).
std::vector<double> water_fill(std::span<const double> caps, std::span<const double> weights, double pool);

}  // namespace parallax
