// File: models/error_stats.cpp
// Relative error and its median / P95 / max / mean; definitions in error_stats.h.
#include "models/error_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace parallax::models {

double relative_error(double predicted, double measured) {
  if (measured <= 0) throw std::invalid_argument("relative_error: measured must be > 0");
  return std::abs(predicted - measured) / measured;
}

ErrorSummary summarize_errors(std::vector<double> errors) {
  ErrorSummary out;
  if (errors.empty()) return out;
  std::sort(errors.begin(), errors.end());
  const std::size_t n = errors.size();
  out.count = static_cast<int64_t>(n);
  out.median = n % 2 == 1 ? errors[n / 2] : 0.5 * (errors[n / 2 - 1] + errors[n / 2]);
  const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(n)));
  out.p95 = errors[std::max<std::size_t>(rank, 1) - 1];
  out.max = errors.back();
  out.mean = std::accumulate(errors.begin(), errors.end(), 0.0) / static_cast<double>(n);
  return out;
}

}  // namespace parallax::models
