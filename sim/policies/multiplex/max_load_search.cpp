// File: sim/policies/multiplex/max_load_search.cpp
#include "sim/policies/multiplex/max_load_search.h"

#include <stdexcept>

namespace parallax {

MaxLoadResult max_load_at_slo(const std::function<bool(double)>& meets, const LoadBracket& bracket) {
  if (!(bracket.lo > 0 && bracket.lo < bracket.hi && bracket.tolerance > 0))
    throw std::invalid_argument("max_load_at_slo: needs 0 < lo < hi and tolerance > 0");
  MaxLoadResult r;
  const auto probe = [&](double load) {
    const bool ok = meets(load);
    r.probes.push_back({load, ok});
    return ok;
  };
  if (!probe(bracket.lo)) {
    r.below_bracket = true;
    return r;
  }
  if (probe(bracket.hi)) {
    r.above_bracket = true;
    r.max_load = bracket.hi;
    return r;
  }
  double lo = bracket.lo, hi = bracket.hi;
  while (hi - lo > bracket.tolerance) {
    const double mid = 0.5 * (lo + hi);
    (probe(mid) ? lo : hi) = mid;
  }
  r.max_load = lo;
  return r;
}

}  // namespace parallax
