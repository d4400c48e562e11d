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
  for (Time t = Time::seconds(rng.exponential(mean_gap_s)); t < duration;
       t += Time::seconds(rng.exponential(mean_gap_s))) {
    const double u = rng.uniform01() * total;
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
    const auto f = static_cast<uint32_t>(std::min<size_t>(it - cumulative.begin(), cumulative.size() - 1));
    out.arrivals.push_back(Arrival{.at = t, .function = f});
  }
  return out;
}

}  // namespace parallax
