// File: sim/report/report_sweep.cpp
// report.html for a sweep folder (`parallax sweep --out DIR`, `parallax merge`): what was swept
// (sweep.json), one metric plotted over the swept axes, and the points table (results.csv). Columns
// in docs/sweeps.md; how the metric and the plot's axes are chosen in docs/reports.md.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"
#include "sim/report/svg_xy_plot.h"

namespace parallax {

namespace {

bool is_seed_axis(const std::string& key) { return key == "seed"; }

// The last part of a dotted key, for legends: "workload.collectives.0.bytes" -> "bytes".
std::string short_key(const std::string& key) {
  const size_t dot = key.rfind('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

bool skipped_column(const std::string& c) {
  return c == "point" || c == "hash" || c == "seed" || c == "summary.seed" || c.ends_with("wall_s") ||
         c.ends_with("sim_to_wall_ratio") || c.ends_with("events_per_s");
}

// A plain decimal number ("384", "0.5", "1e-3"); "1MiB" and "" are not.
bool parse_plain(const std::string& text, double& out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

// Numeric summary columns (not axes, ids or wall-clock) whose values differ between points.
std::vector<std::string> varying_numeric_columns(const CsvTable& t, const std::vector<std::string>& axes) {
  std::vector<std::string> out;
  for (const std::string& c : t.header) {
    if (skipped_column(c) || std::find(axes.begin(), axes.end(), c) != axes.end()) continue;
    bool numeric = true, varies = false;
    double first = 0;
    for (size_t i = 0; i < t.rows.size() && numeric; ++i) {
      double v = 0;
      numeric = parse_plain(t.cell(i, c), v);
      if (i == 0) first = v;
      else if (v != first) varies = true;
    }
    if (numeric && varies) out.push_back(c);
  }
  return out;
}

// Axis `key` of row i as the sweep file wrote it: results.csv's `<key>_text` where it has one
// (a byte-count axis, whose `<key>` column is in bytes; docs/sweeps.md), else `<key>`.
const std::string& axis_text(const CsvTable& t, size_t i, const std::string& key) {
  const std::string text_column = key + "_text";
  const bool has_text = std::find(t.header.begin(), t.header.end(), text_column) != t.header.end();
  return t.cell(i, has_text ? text_column : key);
}

bool wide_range(const std::vector<double>& v) {
  if (v.empty()) return false;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return *lo > 0 && *hi / *lo >= 20;
}

}  // namespace

std::string sweep_metric(const CsvTable& results, const std::vector<std::string>& axis_keys) {
  const std::vector<std::string> candidates = varying_numeric_columns(results, axis_keys);
  if (std::find(candidates.begin(), candidates.end(), "makespan_s") != candidates.end()) return "makespan_s";
  return candidates.empty() ? std::string() : candidates.front();
}

namespace {

// One figure: `metric` over the first swept axis (seeds averaged), one line or bar colour per
// combination of the other axes.
std::optional<ReportFigure> sweep_metric_figure(const CsvTable& results, const std::vector<std::string>& axes,
                                                const std::string& metric, const SweepPlotChoice& choice) {
  std::vector<std::string> plot_axes;  // the seed axis is averaged over
  for (const std::string& a : axes)
    if (!is_seed_axis(a)) plot_axes.push_back(a);
  if (metric.empty() || plot_axes.empty()) return std::nullopt;
  const std::string& x_axis = plot_axes.front();
  // series = the other axes' values; mean of the metric per (series, x) over seeds.
  std::vector<std::string> series_names, x_values;
  std::map<std::pair<std::string, std::string>, std::pair<double, int>> sum;
  bool numeric_x = true;
  for (size_t i = 0; i < results.rows.size(); ++i) {
    std::string name;
    for (size_t a = 1; a < plot_axes.size(); ++a)
      name += fmt::format("{}{}={}", name.empty() ? "" : " ", short_key(plot_axes[a]), axis_text(results, i, plot_axes[a]));
    if (name.empty()) name = metric;
    const std::string& xv = results.cell(i, x_axis);
    double unused = 0;
    numeric_x = numeric_x && parse_plain(xv, unused);
    if (std::find(series_names.begin(), series_names.end(), name) == series_names.end()) series_names.push_back(name);
    if (std::find(x_values.begin(), x_values.end(), xv) == x_values.end()) x_values.push_back(xv);
    auto& [total, n] = sum[{name, xv}];
    total += results.number(i, metric);
    ++n;
  }
  const auto mean = [&](const std::string& s, const std::string& x) {
    const auto it = sum.find({s, x});
    return it == sum.end() ? NAN : it->second.first / it->second.second;
  };
  std::string svg;
  std::vector<double> all_y;
  for (const auto& [key, v] : sum) all_y.push_back(v.first / v.second);
  const size_t non_positive_y =
      static_cast<size_t>(std::count_if(all_y.begin(), all_y.end(), [](double v) { return !(v > 0); }));
  bool log_x = false, log_y = false;
  if (numeric_x) {
    XyPlot p{.title = metric + " over the sweep", .x_label = x_axis, .y_label = metric, .width = 760, .height = 400};
    std::vector<double> xs;
    for (const std::string& xv : x_values) xs.push_back(std::stod(xv));
    log_x = p.x_log = choice.log_x || wide_range(xs);
    log_y = p.y_log = choice.log_y || (wide_range(all_y) && std::ranges::min(all_y) > 0);
    p.y_from_zero = !p.y_log;
    for (const std::string& s : series_names) {
      XySeries line{.name = s, .style = SeriesStyle::line};
      std::vector<std::pair<double, double>> pts;
      for (const std::string& xv : x_values) pts.emplace_back(std::stod(xv), mean(s, xv));
      std::sort(pts.begin(), pts.end());
      for (const auto& [x, y] : pts) {
        line.x.push_back(x);
        line.y.push_back(y);
      }
      p.series.push_back(std::move(line));
    }
    svg = render_xy_plot(p);
  } else {
    BarChart c{.title = metric + " over the sweep", .x_label = x_axis, .y_label = metric};
    log_y = c.y_log = choice.log_y || wide_range(all_y);
    c.categories = x_values;
    for (const std::string& s : series_names) {
      BarGroup g{.name = s, .values = {}};
      for (const std::string& xv : x_values) g.values.push_back(mean(s, xv));
      c.groups.push_back(std::move(g));
    }
    svg = render_bar_chart(c);
  }
  const bool chosen = std::find(choice.metrics.begin(), choice.metrics.end(), metric) != choice.metrics.end();
  return ReportFigure{
      metric + " over the swept axes",
      fmt::format("The summary field {} at each value of {} (x), one {} per combination of the other axes (named by "
                  "the last part of their keys){}. Points that differ only in their seed are averaged. {} Axes: x {}, "
                  "y {}{}.{}",
                  metric, x_axis, numeric_x ? "line" : "bar colour",
                  std::find(axes.begin(), axes.end(), "seed") != axes.end() ? " (seed averaged)" : "",
                  chosen ? "The metric was chosen with --metric."
                         : "The metric is makespan_s when it varies, else the first summary column that varies "
                           "(parallax report DIR --metric NAME picks others).",
                  !numeric_x ? "categories" : log_x ? "log" : "linear", log_y ? "log" : "linear",
                  choice.log_x || choice.log_y ? " (as asked)" : "",
                  log_y && non_positive_y > 0
                      ? fmt::format(" {} value(s) <= 0 cannot be drawn on the log axis and are left out.", non_positive_y)
                      : ""),
      svg};
}

}  // namespace

HtmlReport sweep_report_page(const nlohmann::ordered_json& sweep, const CsvTable& results,
                             const SweepPlotChoice& choice) {
  HtmlReport r;
  r.command = "parallax sweep";
  r.title = fmt::format("sweep of {}", sweep.value("base", std::string("?")));
  r.summary = summary_rows(sweep);
  std::vector<std::string> axes;
  for (const auto& k : sweep.value("axis_keys", nlohmann::ordered_json::array())) axes.push_back(k.get<std::string>());
  r.summary.emplace_back("axes", fmt::format("{}", fmt::join(axes, ", ")));
  r.summary.emplace_back("points finished", fmt::format("{}", results.rows.size()));
  if (results.rows.empty()) return r;

  std::vector<std::string> metrics = choice.metrics;
  if (metrics.empty()) metrics.push_back(sweep_metric(results, axes));
  for (const std::string& m : metrics)
    if (auto figure = sweep_metric_figure(results, axes, m, choice)) r.figures.push_back(std::move(*figure));

  ReportTable table{.title = "Points",
                    .caption = "",
                    .header = {"point"},
                    .rows = {}};
  std::vector<std::string> columns = axes;
  std::vector<std::string> extra = varying_numeric_columns(results, axes);
  for (const std::string& metric : metrics) {
    if (metric.empty()) continue;
    extra.erase(std::remove(extra.begin(), extra.end(), metric), extra.end());
    columns.push_back(metric);
  }
  for (size_t i = 0; i < extra.size() && i < 5; ++i) columns.push_back(extra[i]);
  table.header.insert(table.header.end(), columns.begin(), columns.end());
  constexpr size_t kMaxRows = 500;
  for (size_t i = 0; i < results.rows.size() && i < kMaxRows; ++i) {
    std::vector<std::string> row{results.cell(i, "point")};
    for (const std::string& c : columns) {
      double v = 0;
      const bool axis = std::find(axes.begin(), axes.end(), c) != axes.end();
      const std::string& text = axis ? axis_text(results, i, c) : results.cell(i, c);
      row.push_back(!axis && parse_plain(text, v)
                        ? format_report_value(nlohmann::ordered_json(v))
                        : text);
    }
    table.rows.push_back(std::move(row));
  }
  table.caption = fmt::format(
      "{} of {} points, in point order: the axes, the plotted metric(s) and up to five other summary columns that "
      "vary. results.csv has every column; points/<hash>/ has each point's own outputs and report.html.",
      table.rows.size(), results.rows.size());
  r.tables.push_back(std::move(table));
  return r;
}

}  // namespace parallax
