// File: sim/report/time_bins.cpp
#include "sim/report/time_bins.h"

#include <algorithm>
#include <cmath>

namespace parallax {

double time_bin_width_s(double horizon_s, size_t max_bins) {
  if (!(horizon_s > 0) || max_bins == 0) return 1.0;
  const auto limit = static_cast<double>(max_bins);
  // Start a decade below the least width so rounding in log10 cannot skip the answer.
  for (double decade = std::pow(10.0, std::floor(std::log10(horizon_s / limit)) - 1);; decade *= 10)
    for (double step : {1.0, 2.0, 5.0})
      if (std::ceil(horizon_s / (step * decade)) <= limit) return step * decade;
}

size_t time_bin_count(double horizon_s, double bin_s) {
  return std::max<size_t>(1, static_cast<size_t>(std::ceil(horizon_s / bin_s)));
}

size_t time_bin_of(double t_s, double bin_s, size_t bins) {
  return std::min(bins - 1, static_cast<size_t>(std::max(0.0, t_s / bin_s)));
}

void add_over_interval(std::vector<double>& bins, double bin_s, double from_s, double to_s, double value) {
  if (bins.empty() || !(to_s > from_s) || value == 0) return;
  for (size_t b = time_bin_of(from_s, bin_s, bins.size()); b < bins.size(); ++b) {
    const double start = static_cast<double>(b) * bin_s;
    if (start >= to_s) break;
    const double overlap = std::min(to_s, start + bin_s) - std::max(from_s, start);
    if (overlap > 0) bins[b] += value * overlap;
  }
}

}  // namespace parallax
