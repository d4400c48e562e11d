// File: sim/report/svg_xy_plot.cpp
#include "sim/report/svg_xy_plot.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/report/svg_frame.h"

namespace parallax {

namespace {

bool usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0); }

std::string colour_of(const XySeries& s, size_t index) {
  return s.colour.empty() ? std::string(series_colour(index)) : s.colour;
}

}  // namespace

std::string render_xy_plot(const XyPlot& plot) {
  std::vector<double> xs, ys;
  for (const XySeries& s : plot.series)
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i)
      if (usable(s.x[i], plot.x_log) && usable(s.y[i], plot.y_log)) {
        xs.push_back(s.x[i]);
        ys.push_back(s.y[i]);
      }
  for (const VerticalMarker& m : plot.markers) xs.push_back(m.x);
  for (const HorizontalLevel& l : plot.levels) ys.push_back(l.y);
  xs.insert(xs.end(), plot.x_include.begin(), plot.x_include.end());
  ys.insert(ys.end(), plot.y_include.begin(), plot.y_include.end());
  if (plot.diagonal) {
    // Both axes share the union range so that y = x is the 45-degree line.
    std::vector<double> both = xs;
    both.insert(both.end(), ys.begin(), ys.end());
    xs = ys = both;
  }
  AxisScale x = fit_axis_scale(xs, plot.x_log, false);
  AxisScale y = fit_axis_scale(ys, plot.y_log, plot.y_from_zero);

  PlotFrame frame;
  frame.width = plot.width;
  frame.height = plot.height;
  frame.title = plot.title;
  frame.x_label = plot.x_label;
  frame.y_label = plot.y_label;
  for (size_t i = 0; i < plot.series.size(); ++i)
    frame.legend.push_back({plot.series[i].name, colour_of(plot.series[i], i),
                            plot.series[i].style == SeriesStyle::scatter});
  frame.place(x, y);

  SvgDocument svg(plot.width, plot.height);
  frame.draw(svg, x, y);
  if (plot.diagonal) {
    const double lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
    svg.line(x.to_pixel(lo), y.to_pixel(lo), x.to_pixel(hi), y.to_pixel(hi), "#999", 1, "5 4");
    const double b = plot.diagonal_band;
    if (b > 0 && b < 1) {  // each band line clipped to the square [lo, hi]^2
      svg.line(x.to_pixel(lo), y.to_pixel(lo * (1 + b)), x.to_pixel(hi / (1 + b)), y.to_pixel(hi), "#bbb", 1, "2 3");
      svg.line(x.to_pixel(lo / (1 - b)), y.to_pixel(lo), x.to_pixel(hi), y.to_pixel(hi * (1 - b)), "#bbb", 1, "2 3");
    }
  }
  for (size_t si = 0; si < plot.series.size(); ++si) {
    const XySeries& s = plot.series[si];
    const std::string colour = colour_of(s, si);
    std::vector<std::pair<double, double>> pts;
    for (size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i) {
      if (!usable(s.x[i], plot.x_log) || !usable(s.y[i], plot.y_log)) continue;
      const double px = x.to_pixel(s.x[i]), py = y.to_pixel(s.y[i]);
      if (s.style == SeriesStyle::scatter) {
        svg.circle(px, py, 3, colour, {}, i < s.tips.size() ? std::string_view(s.tips[i]) : std::string_view());
        continue;
      }
      if (s.style == SeriesStyle::step && !pts.empty()) pts.emplace_back(px, pts.back().second);
      pts.emplace_back(px, py);
    }
    if (s.style != SeriesStyle::scatter) svg.polyline(pts, colour, 2);
  }
  for (const HorizontalLevel& l : plot.levels) {
    const double py = y.to_pixel(l.y);
    svg.line(x.pixel_lo, py, x.pixel_hi, py, "#222", 1, "4 3");
    svg.text(x.pixel_hi - 4, py - 4, l.label, {.anchor = TextAnchor::end, .size_px = 11, .halo = true});
  }
  for (const VerticalMarker& m : plot.markers) {
    const double px = x.to_pixel(m.x);
    svg.line(px, y.pixel_lo, px, y.pixel_hi, "#222", 1, "4 3");
    svg.text(px + 4, y.pixel_hi + 12, m.label, {.size_px = 11, .halo = true});
  }
  return svg.finish();
}

}  // namespace parallax
