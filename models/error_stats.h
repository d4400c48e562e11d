// File: models/error_stats.h
// How a model's predictions compare with measurements: relative error per point and its summary
// (count, median, P95, max, mean). Every accuracy figure in docs/models.md uses these definitions.
//
//   relative_error(p, m) = |p − m| / m
//   median: mean of the two middle values for an even count; P95: nearest rank,
//   the ceil(0.95·n)-th smallest value. Example: errors {0.1, 0.2, 0.3, 0.4} → median 0.25,
//   P95 = 4th smallest = 0.4, mean 0.25.
#pragma once

#include <cstdint>
#include <vector>

namespace parallax::models {

struct ErrorSummary {
  int64_t count = 0;
  double median = 0.0;
  double p95 = 0.0;
  double max = 0.0;
  double mean = 0.0;
};

// Throws std::invalid_argument if measured <= 0.
double relative_error(double predicted, double measured);

// All zeros for an empty input.
ErrorSummary summarize_errors(std::vector<double> errors);

}  // namespace parallax::models
