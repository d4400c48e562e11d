// File: sim/report/svg_xy_plot.h
// An x-y plot as SVG: line, step and scatter series on linear or log axes, optional vertical
// markers (a labelled dashed line, e.g. d* or an SLO), horizontal levels (a capacity) and an
// optional y = x diagonal, with a legend naming each series. Sibling plots share a range by
// passing the same x_include / y_include. Same plot in, same bytes out. Bars are svg_bar_chart.h.
//
//   XyPlot p{.title = "Latency CDF", .x_label = "latency / SLO", .y_label = "fraction", .x_log = true};
//   p.series.push_back({.name = "torpor", .style = SeriesStyle::step, .x = xs, .y = ys});
//   p.markers.push_back({.x = 1.0, .label = "SLO"});
//   std::string svg = render_xy_plot(p);
#pragma once

#include <string>
#include <vector>

namespace parallax {

enum class SeriesStyle { line, step, scatter };

struct XySeries {
  std::string name{};
  SeriesStyle style = SeriesStyle::line;
  std::vector<double> x{}, y{};     // same length; points with a non-finite (or, on a log axis,
                                  // non-positive) coordinate are left out
  std::string colour{};           // empty: the palette colour of the series' index
  std::vector<std::string> tips{};  // scatter only: a hover text per point (may be empty)
};

struct VerticalMarker {
  double x = 0;
  std::string label{};
};

// A dashed horizontal line across the plot: a capacity or a limit ("GPU memory 640 GiB").
struct HorizontalLevel {
  double y = 0;
  std::string label{};
};

struct XyPlot {
  std::string title{}, x_label{}, y_label{};
  bool x_log = false, y_log = false;
  bool y_from_zero = false;  // linear y only: include 0 in the range
  bool diagonal = false;     // draw y = x across the plot
  double diagonal_band = 0;  // with diagonal: also y = (1 + band) x and y = (1 - band) x, dotted
  double width = 640, height = 360;
  std::vector<XySeries> series{};
  std::vector<VerticalMarker> markers{};
  std::vector<HorizontalLevel> levels{};  // inside the y range, labelled at the right end
  // Values each axis must also cover: the extremes of sibling plots, so that they share one range.
  std::vector<double> x_include{}, y_include{};
};

std::string render_xy_plot(const XyPlot& plot);

}  // namespace parallax
