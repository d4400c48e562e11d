// File: sim/report/svg_bar_chart.h
// Grouped vertical bars as SVG: one cluster per category (a link, a policy), one bar per group
// within it (a metric, a swap path), a legend naming the groups when there are several. Category
// labels are rotated when they would collide; the chart widens with the number of bars so that
// each stays at least a few pixels wide. Each bar carries its value as a hover title and, unless
// value_labels is off, printed above it (three significant digits, as the ticks; turned upright
// when the bar is narrower than the text, left out below 9 px).
//
//   BarChart c{.title = "SLO attainment", .y_label = "compliant functions (%)"};
//   c.categories = {"torpor", "native"};
//   c.groups.push_back({.name = "attainment", .values = {100, 93.1}});
//   std::string svg = render_bar_chart(c);
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace parallax {

struct BarGroup {
  std::string name{};
  std::vector<double> values{};  // one per category; missing or non-finite values draw no bar
};

struct BarChart {
  std::string title{}, x_label{}, y_label{};
  bool y_log = false;
  double width = 640, height = 360;  // minimum width; grows with the bar count
  std::vector<std::string> categories{};
  std::vector<BarGroup> groups{};
  std::optional<double> reference_y{};  // a dashed horizontal line (a target, a bound)
  std::string reference_label{};
  bool value_labels = true;
  // Values the y axis must also cover: the extremes of sibling charts, so that they share one range.
  std::vector<double> y_include{};
};

std::string render_bar_chart(const BarChart& chart);

}  // namespace parallax
