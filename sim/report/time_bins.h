// File: sim/report/time_bins.h
// Fixed-width time bins for the series the reports plot over time (serverless timeline.csv,
// colocate timeline.csv): the width is the smallest 1-2-5 x 10^k seconds that covers the run in at
// most kMaxTimeBins bins, so a plot has a bounded number of points whatever the run's length and
// the bin edges are round numbers. Bin i covers [i * width, (i + 1) * width).
#pragma once

#include <cstddef>
#include <vector>

namespace parallax {

inline constexpr size_t kMaxTimeBins = 2000;

// Smallest width in {1, 2, 5} x 10^k seconds with ceil(horizon_s / width) <= max_bins; 1 s when
// the horizon is not positive.
double time_bin_width_s(double horizon_s, size_t max_bins = kMaxTimeBins);

// ceil(horizon_s / bin_s), at least 1.
size_t time_bin_count(double horizon_s, double bin_s);

// The bin holding time t (clamped to the bins).
size_t time_bin_of(double t_s, double bin_s, size_t bins);

// Adds value x (the part of [from_s, to_s) inside bin i) to bins[i] for every bin the interval
// crosses: dividing by bin_s afterwards gives the time-weighted mean of a step function.
void add_over_interval(std::vector<double>& bins, double bin_s, double from_s, double to_s, double value);

}  // namespace parallax
