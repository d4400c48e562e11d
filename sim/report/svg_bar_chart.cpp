// File: sim/report/svg_bar_chart.cpp
#include "sim/report/svg_bar_chart.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/svg_frame.h"

namespace parallax {

namespace {
constexpr double kMinBar_px = 6;
constexpr double kLabelChar_px = 6.2;  // 11 px sans-serif
}  // namespace

std::string render_bar_chart(const BarChart& chart) {
  const size_t n_cat = chart.categories.size();
  const size_t n_grp = std::max<size_t>(chart.groups.size(), 1);
  std::vector<double> values;
  for (const BarGroup& g : chart.groups)
    for (double v : g.values) values.push_back(v);
  if (chart.reference_y) values.push_back(*chart.reference_y);
  AxisScale y = fit_axis_scale(values, chart.y_log, !chart.y_log);
  AxisScale x;  // category slots: [0, n_cat]
  x.lo = 0;
  x.hi = static_cast<double>(std::max<size_t>(n_cat, 1));

  size_t longest = 0;
  for (const std::string& c : chart.categories) longest = std::max(longest, c.size());
  PlotFrame frame;
  frame.title = chart.title;
  frame.x_label = chart.x_label;
  frame.y_label = chart.y_label;
  if (chart.groups.size() > 1)
    for (size_t i = 0; i < chart.groups.size(); ++i)
      frame.legend.push_back({chart.groups[i].name, std::string(series_colour(i)), false});
  const double slot_min = static_cast<double>(n_grp) * kMinBar_px + 4;
  const double label_px = kLabelChar_px * static_cast<double>(std::min<size_t>(longest, 40));
  const bool rotate = static_cast<double>(n_cat) * std::max(slot_min, label_px + 8) >
                      chart.width - frame.left - 16 - legend_width(frame.legend);
  frame.bottom = rotate ? 40 + label_px * 0.72 : 52;
  frame.width = std::max(chart.width, frame.left + 16 + legend_width(frame.legend) +
                                          static_cast<double>(n_cat) * slot_min);
  frame.height = chart.height + (rotate ? frame.bottom - 52 : 0);
  frame.place(x, y);

  SvgDocument svg(frame.width, frame.height);
  frame.draw(svg, x, y, false);
  const double slot = (x.pixel_hi - x.pixel_lo) / x.hi;
  const double bar = std::min(slot * 0.8 / static_cast<double>(n_grp), 48.0);
  const double inset = (slot - bar * static_cast<double>(n_grp)) / 2;
  const double base = chart.y_log ? y.lo : std::max(y.lo, 0.0);
  for (size_t c = 0; c < n_cat; ++c) {
    const double x0 = x.to_pixel(static_cast<double>(c)) + inset;
    for (size_t g = 0; g < chart.groups.size(); ++g) {
      const std::vector<double>& vs = chart.groups[g].values;
      if (c >= vs.size() || !std::isfinite(vs[c]) || (chart.y_log && vs[c] <= 0)) continue;
      const double top = y.to_pixel(vs[c]), bottom = y.to_pixel(base);
      const std::string tip = fmt::format("{} {}: {:.6g}", chart.categories[c],
                                          chart.groups.size() > 1 ? chart.groups[g].name : std::string(), vs[c]);
      svg.rect(x0 + bar * static_cast<double>(g), std::min(top, bottom), std::max(bar - 1, 1.0),
               std::max(std::fabs(bottom - top), 0.5), series_colour(g), tip);
    }
    const double cx = x.to_pixel(static_cast<double>(c) + 0.5);
    const std::string label = chart.categories[c].size() > 40 ? chart.categories[c].substr(0, 38) + ".."
                                                               : chart.categories[c];
    if (rotate)
      svg.text(cx + 3, y.pixel_lo + 10, label, {.anchor = TextAnchor::end, .size_px = 11, .rotate_deg = -45});
    else
      svg.text(cx, y.pixel_lo + 17, label, {.anchor = TextAnchor::middle, .size_px = 11});
  }
  if (chart.reference_y) {
    const double py = y.to_pixel(*chart.reference_y);
    svg.line(x.pixel_lo, py, x.pixel_hi, py, "#222", 1, "4 3");
    svg.text(x.pixel_hi - 4, py - 4, chart.reference_label, {.anchor = TextAnchor::end, .size_px = 11});
  }
  return svg.finish();
}

}  // namespace parallax
