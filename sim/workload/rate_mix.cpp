// File: sim/workload/rate_mix.cpp
#include "sim/workload/rate_mix.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace parallax {

TraceArrivals poisson_rate_mix(const std::vector<double>& rates_per_min, Time duration, RandomStream& rng) {
  if (rates_per_min.empty()) throw std::invalid_argument("no rates");
  TraceArrivals out;
  std::vector<double> cumulative;  // cumulative[f] = rate_0 + ... + rate_f
  double total = 0;
  for (size_t f = 0; f < rates_per_min.size(); ++f) {
    const double r = rates_per_min[f];
    if (!(std::isfinite(r) && r > 0)) throw std::invalid_argument(fmt::format("rate {} must be > 0, got {}", f, r));
    total += r;
    cumulative.push_back(total);
    out.function_names.push_back(fmt::format("f{}", f));
  }
  const double mean_gap_s = 60 / total;
  // The next arrival, or Time::max() when the gap overshoots the duration by more than a second
  // (no rounding to picoseconds could bring it back inside). A tiny total rate draws gaps past
  // the clock's range, which Time::seconds() refuses: they are simply past the duration.
  auto next_after = [&](Time t) {
    const double gap_s = rng.exponential(mean_gap_s);
    if (!(gap_s < (duration - t).to_seconds() + 1)) return Time::max();
    return t + Time::seconds(gap_s);
  };
  for (Time t = next_after(Time::zero()); t < duration; t = next_after(t)) {
    const double u = rng.uniform01() * total;
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
    const auto f = static_cast<uint32_t>(std::min<size_t>(it - cumulative.begin(), cumulative.size() - 1));
    out.arrivals.push_back(Arrival{.at = t, .function = f});
  }
  return out;
}

}  // namespace parallax
