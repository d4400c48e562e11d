// File: sim/report/svg_axis.cpp
#include "sim/report/svg_axis.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace parallax {

namespace {

// The 1, 2, 5 × 10^k step giving about `target` intervals over `span`.
double nice_step(double span, int target) {
  const double raw = span / std::max(1, target);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / magnitude;
  const double m = r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10;
  return m * magnitude;
}

// Rounds away floating-point noise so tick values print and compare cleanly.
double clean(double v, double step) {
  const double q = std::round(v / step) * step;
  return std::fabs(q) < step * 1e-9 ? 0.0 : q;
}

}  // namespace

double AxisScale::to_pixel(double v) const {
  double f = 0;
  if (log) {
    const double a = std::log10(lo), b = std::log10(hi);
    f = b > a ? (std::log10(std::max(v, lo * 1e-3)) - a) / (b - a) : 0.5;
  } else {
    f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
  }
  return pixel_lo + f * (pixel_hi - pixel_lo);
}

std::vector<double> AxisScale::ticks(int target) const {
  std::vector<double> out;
  if (log) {
    const int a = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    const int b = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    const bool few_decades = b - a <= 2;
    for (int e = a; e <= b; ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        if (m != 1.0 && !few_decades) continue;
        const double v = m * std::pow(10.0, e);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
      }
    return out;
  }
  const double step = nice_step(hi - lo, target);
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step) out.push_back(clean(v, step));
  return out;
}

AxisScale fit_axis_scale(std::span<const double> values, bool log, bool include_zero) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  AxisScale s;
  s.log = log;
  if (log) {
    if (!(lo <= hi)) lo = hi = 1;
    s.lo = std::pow(10.0, std::floor(std::log10(lo) + 1e-9));
    s.hi = std::pow(10.0, std::ceil(std::log10(hi) - 1e-9));
    if (s.hi <= s.lo) s.hi = s.lo * 10;
    if (s.hi / s.lo <= 100.0 * (1 + 1e-9)) {
      // Two decades or less: end on the 1-2-5 values around the data, not on whole decades, so that
      // a CDF from 0.21 to 1.7 gets [0.2, 2] rather than [0.1, 10].
      for (double m : {5.0, 2.0}) {
        if (s.lo * m <= lo * (1 + 1e-9)) {
          s.lo *= m;
          break;
        }
      }
      for (double m : {5.0, 2.0}) {
        if (s.hi / m >= hi * (1 - 1e-9) && s.hi / m > s.lo) {
          s.hi /= m;
          break;
        }
      }
    }
    return s;
  }
  if (!(lo <= hi)) lo = hi = 0;
  if (include_zero) {
    lo = std::min(lo, 0.0);
    hi = std::max(hi, 0.0);
  }
  if (hi - lo <= 0) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.5;
    lo = include_zero && lo >= 0 ? 0 : lo - pad;
    hi = hi + pad;
  }
  const double step = nice_step(hi - lo, 6);
  // Widened to whole steps, except that data past a step by less than 2% of it (a makespan of
  // 2.00004 s) does not cost a whole extra step: the axis is fitted to the data.
  constexpr double kSlack = 0.02;
  s.lo = clean(std::floor(lo / step + kSlack) * step, step);
  s.hi = clean(std::ceil(hi / step - kSlack) * step, step);
  if (s.hi <= s.lo) s.hi = s.lo + step;
  return s;
}

std::string format_tick(double v) {
  if (v == 0 || !std::isfinite(v)) return "0";
  const double a = std::fabs(v);
  static constexpr struct { double scale; const char* suffix; } kSi[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
  for (const auto& si : kSi)
    if (a >= si.scale) return fmt::format("{:.3g}{}", v / si.scale, si.suffix);
  if (a >= 1e-3) return fmt::format("{:.3g}", v);
  return fmt::format("{:.2g}", v);
}

}  // namespace parallax
