// File: sim/policies/multiplex/max_load_search.h
// A policy's capacity at an SLO (docs/multiplex.md, max_load_at_slo): the largest multiple m of
// the scenario's offered load at which the policy still meets the SLO target, found by bisection
// over a bracket [lo, hi] of multiples, assuming that meeting the SLO at m implies meeting it at
// every smaller multiple:
//   meets(lo) false            -> below_bracket, max_load = 0 (the capacity is under lo)
//   meets(hi) true             -> above_bracket, max_load = hi (the capacity is at least hi)
//   otherwise keep meets(lo), !meets(hi) and halve [lo, hi] until hi - lo <= tolerance;
//   max_load = lo, the largest multiple tested that meets the target (within `tolerance` below the
//   true capacity). Probes: 2 + ceil(log2((hi - lo) / tolerance)).
// Pure: `meets` runs the experiment at a multiple (sim/experiment/multiplex_experiment.cpp).
#pragma once

#include <functional>
#include <vector>

namespace parallax {

struct LoadBracket {
  double lo = 0.25;
  double hi = 4.0;
  double tolerance = 0.05;  // in multiples of the offered load
};

struct LoadProbe {
  double load = 0;
  bool meets = false;
};

struct MaxLoadResult {
  double max_load = 0;
  bool below_bracket = false;
  bool above_bracket = false;
  std::vector<LoadProbe> probes;  // in the order they ran
};

// Throws std::invalid_argument unless 0 < lo < hi and 0 < tolerance.
MaxLoadResult max_load_at_slo(const std::function<bool(double)>& meets, const LoadBracket& bracket);

}  // namespace parallax
