// File: sim/report/svg_frame.h
// The frame shared by every plot: title, plot area, axis lines with ticks, grid lines, tick
// labels, axis labels and a legend to the right. A plot (svg_xy_plot.h, svg_bar_chart.h) fixes its
// scales, asks the frame to draw the furniture, then draws its data inside plot_area().
#pragma once

#include <string>
#include <vector>

#include "sim/report/svg_axis.h"
#include "sim/report/svg_document.h"

namespace parallax {

struct LegendEntry {
  std::string name;
  std::string colour;
  bool marker = false;  // a dot (scatter) rather than a line swatch
};

struct PlotFrame {
  double width = 640, height = 360;
  double left = 72, right = 16, top = 34, bottom = 52;  // margins, px; right grows with a legend
  std::string title, x_label, y_label;
  std::vector<LegendEntry> legend;

  // Sets scale pixel ranges from the margins (and the legend's width).
  void place(AxisScale& x, AxisScale& y);
  // Grid, axes, tick labels (y always; x unless `x_ticks` is false: a bar chart labels its own
  // categories), the title, the axis labels and the legend.
  void draw(SvgDocument& svg, const AxisScale& x, const AxisScale& y, bool x_ticks = true) const;
};

// Legend column width for `entries`, 0 when there are none.
double legend_width(const std::vector<LegendEntry>& entries);

}  // namespace parallax
