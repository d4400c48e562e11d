// File: sim/policies/multiplex/peak_rate.cpp
#include "sim/policies/multiplex/peak_rate.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace parallax {

double windowed_peak_rate(std::span<const Time> arrivals, double duration_s, double window_s, double percentile) {
  if (!(window_s > 0) || !(percentile > 0) || percentile > 100 || !(duration_s > 0))
    throw std::invalid_argument("windowed_peak_rate: needs window_s > 0, duration_s > 0, 0 < percentile <= 100");
  const double width = std::min(window_s, duration_s);
  const auto windows = std::max<size_t>(1, static_cast<size_t>(std::floor(duration_s / width + 1e-9)));
  std::vector<double> counts(windows, 0.0);
  for (const Time& a : arrivals) {
    const double t = a.to_seconds();
    if (t < 0) continue;
    const auto w = static_cast<size_t>(t / width);
    if (w < windows) counts[w] += 1;
  }
  std::sort(counts.begin(), counts.end());
  const auto rank = static_cast<size_t>(std::ceil(percentile / 100.0 * static_cast<double>(windows)));
  return counts[std::clamp<size_t>(rank, 1, windows) - 1] / width;
}

}  // namespace parallax
