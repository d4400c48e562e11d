// File: sim/report/svg_axis.h
// One plot axis: a data range mapped linearly or logarithmically onto a pixel range, with "nice"
// tick positions (1, 2, 5 × 10^k steps on a linear axis; decades, or 1-2-5 within a decade, on a
// log axis) and short tick labels. Drawing the axis is left to the plots (svg_xy_plot.h,
// svg_bar_chart.h).
//
//   AxisScale x = fit_axis_scale({0.3, 7.9}, false, false);   // [0, 8], ticks 0 2 4 6 8
//   x.pixel_lo = 60; x.pixel_hi = 600;
//   x.to_pixel(4.0);                                           // 330
#pragma once

#include <span>
#include <string>
#include <vector>

namespace parallax {

struct AxisScale {
  double lo = 0, hi = 1;          // data range; on a log axis both > 0
  bool log = false;
  double pixel_lo = 0, pixel_hi = 1;  // where lo and hi land (pixel_hi < pixel_lo for a y axis)

  double to_pixel(double v) const;
  // Tick positions inside [lo, hi], ascending: about `target` of them on a linear axis.
  std::vector<double> ticks(int target = 6) const;
};

// The range of `values` (non-finite values, and values <= 0 on a log axis, are skipped), widened
// to tick boundaries: whole 1-2-5 steps on a linear axis (data past a boundary by under 2% of a
// step is not widened for), whole decades on a log axis, or 1, 2, 5 × 10^k ends when the data
// spans two decades or less. `include_zero` pins a linear axis at 0. An empty or single-valued
// input gives a unit-wide range around it.
AxisScale fit_axis_scale(std::span<const double> values, bool log, bool include_zero);

// "0", "0.25", "1.5k", "2M", "3e-06": at most three significant digits, SI suffixes from 1e3 to 1e12.
std::string format_tick(double v);

}  // namespace parallax
