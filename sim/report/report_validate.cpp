// File: sim/report/report_validate.cpp
// report.html for `parallax validate DIR`: every measured row against the model's prediction
// (log-log, y = x with a ±10% band) and the error per model family; from validation.csv
// (family,case,split,measured,predicted,rel_error,unit) and validation.json (source, calibration,
// split, gpu, families[]), as tools/fit_command.cpp writes them (docs/calibration.md).
#include <algorithm>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"
#include "sim/report/svg_xy_plot.h"

namespace parallax {

HtmlReport validation_report_page(const nlohmann::ordered_json& validation, const CsvTable& rows) {
  HtmlReport r;
  r.command = "parallax validate";
  r.title = fmt::format("validation: {}", validation.value("gpu", std::string("?")));
  r.summary = summary_rows(validation);
  const nlohmann::ordered_json families = validation.value("families", nlohmann::ordered_json::array());
  for (const auto& f : families) {
    const std::string name = f.value("family", std::string("?"));
    if (f.value("evaluated", 0) == 0) {
      r.summary.emplace_back(name, fmt::format("{} rows, none evaluated (no model fitted or wired)", f.value("rows", 0)));
      continue;
    }
    r.summary.emplace_back(name, fmt::format("{} evaluated of {}: median {:.2f}%, p95 {:.2f}%, max {:.2f}% ({})",
                                             f.value("evaluated", 0), f.value("rows", 0),
                                             100 * f.value("median_rel_error", 0.0), 100 * f.value("p95_rel_error", 0.0),
                                             100 * f.value("max_rel_error", 0.0), f.value("worst_case", std::string())));
  }

  XyPlot scatter{.title = "Predicted vs measured",
                 .x_label = "measured (row's unit, log)",
                 .y_label = "predicted (log)",
                 .x_log = true,
                 .y_log = true,
                 .diagonal = true,
                 .diagonal_band = 0.10,
                 .width = 640,
                 .height = 520};
  std::vector<std::string> names;
  XySeries train{.name = "training rows", .style = SeriesStyle::scatter, .colour = "#cccccc"};
  for (size_t i = 0; i < rows.rows.size(); ++i) {
    const double measured = rows.number(i, "measured"), predicted = rows.number(i, "predicted");
    if (!(measured > 0) || !(predicted > 0)) continue;  // no prediction for this family
    const std::string tip = fmt::format("{} {}: measured {:.4g}, predicted {:.4g} {} ({:+.1f}%)", rows.cell(i, "family"),
                                        rows.cell(i, "case"), measured, predicted, rows.cell(i, "unit"),
                                        100 * (predicted / measured - 1));
    if (rows.cell(i, "split") == "train") {
      train.x.push_back(measured);
      train.y.push_back(predicted);
      train.tips.push_back(tip);
      continue;
    }
    const std::string& family = rows.cell(i, "family");
    auto it = std::find(names.begin(), names.end(), family);
    if (it == names.end()) {
      names.push_back(family);
      scatter.series.push_back({.name = family, .style = SeriesStyle::scatter});
      it = names.end() - 1;
    }
    XySeries& s = scatter.series[static_cast<size_t>(it - names.begin())];
    s.x.push_back(measured);
    s.y.push_back(predicted);
    s.tips.push_back(tip);
  }
  if (!train.x.empty()) scatter.series.insert(scatter.series.begin(), std::move(train));
  if (!scatter.series.empty())
    r.figures.push_back({"Predicted vs measured",
                         "One dot per measured row with a prediction, coloured by model family; grey dots are the "
                         "rows the fit was trained on (the coloured ones are held out, or all rows when a calibration "
                         "file was given). The dashed line is y = x, the dotted lines ±10%. Hover a dot for its case.",
                         render_xy_plot(scatter)});

  BarChart err{.title = "Relative error by family (held-out rows)", .x_label = "family", .y_label = "|error| (%)"};
  BarGroup median{.name = "median", .values = {}}, p95{.name = "p95", .values = {}}, max{.name = "max", .values = {}};
  for (const auto& f : families) {
    if (f.value("evaluated", 0) == 0) continue;
    err.categories.push_back(f.value("family", std::string("?")));
    median.values.push_back(100 * f.value("median_rel_error", 0.0));
    p95.values.push_back(100 * f.value("p95_rel_error", 0.0));
    max.values.push_back(100 * f.value("max_rel_error", 0.0));
  }
  err.groups = {std::move(median), std::move(p95), std::move(max)};
  err.reference_y = 10.0;
  err.reference_label = "10%";
  if (!err.categories.empty())
    r.figures.push_back({"Error by family",
                         "Median, 95th-percentile and largest relative error |predicted - measured| / measured over "
                         "the evaluated rows of each family. The dashed line is 10%.",
                         render_bar_chart(err)});
  return r;
}

}  // namespace parallax
