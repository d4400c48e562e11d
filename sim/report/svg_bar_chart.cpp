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
constexpr double kValueChar_px = 5.6;  // 10 px sans-serif

// The value just beyond the bar's end: across it when it fits, else upright; none on a hairline.
void draw_value_label(SvgDocument& svg, double cx, double top, double bottom, double bar_px, double value) {
  const std::string text = format_tick(value);
  const double text_px = kValueChar_px * static_cast<double>(text.size());
  const bool downward = top > bottom;  // a negative bar grows down from the zero line
  TextStyle style{.anchor = TextAnchor::middle, .size_px = 10, .colour = "#333"};
  if (bar_px - 1 >= text_px) {
    svg.text(cx, downward ? top + 11 : top - 3, text, style);
  } else if (bar_px >= 9) {
    style.anchor = downward ? TextAnchor::end : TextAnchor::start;
    style.rotate_deg = -90;
    svg.text(cx + 3.5, downward ? top + 3 : top - 3, text, style);
  }
}
}  // namespace

std::string render_bar_chart(const BarChart& chart) {
  const size_t n_cat = chart.categories.size();
  const size_t n_grp = std::max<size_t>(chart.groups.size(), 1);
  std::vector<double> values;
  for (const BarGroup& g : chart.groups)
    for (double v : g.values) values.push_back(v);
  if (chart.reference_y) values.push_back(*chart.reference_y);
  values.insert(values.end(), chart.y_include.begin(), chart.y_include.end());
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
  if (chart.value_labels) frame.top += 10;  // room for the tallest bar's label under the title
  frame.width = std::max(chart.width, frame.left + 16 + legend_width(frame.legend) +
                                          static_cast<double>(n_cat) * slot_min);
  frame.height = chart.height + (rotate ? frame.bottom - 52 : 0) + (chart.value_labels ? 10 : 0);
  // The reference line's label sits right of the plot, clear of the bars and their value labels
  // (inside the plot, outlined, only where the legend is in the way).
  const double reference_px =
      chart.reference_label.empty() ? 0 : kLabelChar_px * static_cast<double>(chart.reference_label.size()) + 12;
  frame.right = std::max(frame.right, reference_px);
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
      const double left = x0 + bar * static_cast<double>(g);
      svg.rect(left, std::min(top, bottom), std::max(bar - 1, 1.0), std::max(std::fabs(bottom - top), 0.5),
               series_colour(g), tip);
      if (chart.value_labels) draw_value_label(svg, left + bar / 2, top, bottom, bar, vs[c]);
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
    const double legend_bottom = y.pixel_hi + 14 + 18 * static_cast<double>(frame.legend.size());
    if (frame.legend.empty() || py - 10 > legend_bottom)
      svg.text(x.pixel_hi + 6, py + 4, chart.reference_label, {.size_px = 11});
    else
      svg.text(x.pixel_hi - 4, py - 4, chart.reference_label, {.anchor = TextAnchor::end, .size_px = 11, .halo = true});
  }
  return svg.finish();
}

}  // namespace parallax
