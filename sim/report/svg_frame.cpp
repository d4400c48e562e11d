// File: sim/report/svg_frame.cpp
#include "sim/report/svg_frame.h"

#include <algorithm>

namespace parallax {

namespace {
constexpr double kCharWidth_px = 6.5;  // a rough average for 11 px sans-serif
}

double legend_width(const std::vector<LegendEntry>& entries) {
  size_t longest = 0;
  for (const LegendEntry& e : entries) longest = std::max(longest, e.name.size());
  return entries.empty() ? 0 : 34 + kCharWidth_px * static_cast<double>(std::min<size_t>(longest, 28));
}

void PlotFrame::place(AxisScale& x, AxisScale& y) {
  right = std::max(right, 16 + legend_width(legend));
  x.pixel_lo = left;
  x.pixel_hi = width - right;
  y.pixel_lo = height - bottom;
  y.pixel_hi = top;
}

void PlotFrame::draw(SvgDocument& svg, const AxisScale& x, const AxisScale& y, bool x_ticks) const {
  const double x0 = x.pixel_lo, x1 = x.pixel_hi, y0 = y.pixel_lo, y1 = y.pixel_hi;
  svg.rect(0, 0, width, height, "#ffffff");
  TextStyle tick_right{.anchor = TextAnchor::end, .size_px = 11, .colour = "#444"};
  for (double t : y.ticks()) {
    const double py = y.to_pixel(t);
    svg.line(x0, py, x1, py, "#e4e4e4");
    svg.text(x0 - 6, py + 4, format_tick(t), tick_right);
  }
  if (x_ticks) {
    TextStyle tick_mid{.anchor = TextAnchor::middle, .size_px = 11, .colour = "#444"};
    for (double t : x.ticks()) {
      const double px = x.to_pixel(t);
      svg.line(px, y0, px, y1, "#f0f0f0");
      svg.line(px, y0, px, y0 + 4, "#444");
      svg.text(px, y0 + 17, format_tick(t), tick_mid);
    }
  }
  svg.line(x0, y0, x1, y0, "#444");
  svg.line(x0, y0, x0, y1, "#444");
  svg.text(width / 2, 20, title, {.anchor = TextAnchor::middle, .size_px = 14, .bold = true});
  svg.text((x0 + x1) / 2, height - 10, x_label, {.anchor = TextAnchor::middle, .size_px = 12});
  svg.text(16, (y0 + y1) / 2, y_label, {.anchor = TextAnchor::middle, .size_px = 12, .rotate_deg = -90});
  double ly = y1 + 6;
  const double lx = x1 + 14;
  for (const LegendEntry& e : legend) {
    if (e.marker)
      svg.circle(lx + 8, ly + 4, 4, e.colour);
    else
      svg.line(lx, ly + 4, lx + 18, ly + 4, e.colour, 3);
    std::string name = e.name.size() > 28 ? e.name.substr(0, 25) + "..." : e.name;
    svg.text(lx + 24, ly + 8, name, {.size_px = 11});
    ly += 18;
  }
}

}  // namespace parallax
