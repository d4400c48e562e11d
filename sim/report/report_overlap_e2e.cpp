// File: sim/report/report_overlap_e2e.cpp
// report.html for `workload.kind: overlap` in end-to-end mode: per model and TP degree, the layer
// step's speedup of the overlap selector over the Megatron-LM baseline, the step times, and which
// strategy the selector chose for the operators; from results.csv and ops.csv (docs/overlap.md).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"

namespace parallax {

namespace {

// Values of `column` in first-seen order.
std::vector<std::string> distinct(const CsvTable& t, const char* column) {
  std::vector<std::string> out;
  for (size_t i = 0; i < t.rows.size(); ++i)
    if (std::find(out.begin(), out.end(), t.cell(i, column)) == out.end()) out.push_back(t.cell(i, column));
  return out;
}

}  // namespace

HtmlReport overlap_e2e_report_page(const nlohmann::ordered_json& summary, const CsvTable& results,
                                   const CsvTable& ops) {
  HtmlReport r = generic_report_page(summary, "overlap (end to end)");
  if (results.rows.empty()) return r;
  const std::vector<std::string> models = distinct(results, "model");
  const std::vector<std::string> tps = distinct(results, "tp");

  BarChart speedup{.title = "Step speedup over the Megatron-LM baseline (DES)", .x_label = "model",
                   .y_label = "baseline step / selected step"};
  speedup.categories = models;
  for (const std::string& tp : tps) {
    BarGroup g{.name = "TP " + tp, .values = {}};
    for (const std::string& m : models) {
      double v = 0;
      for (size_t i = 0; i < results.rows.size(); ++i)
        if (results.cell(i, "model") == m && results.cell(i, "tp") == tp) v = results.number(i, "speedup_des");
      g.values.push_back(v);
    }
    speedup.groups.push_back(std::move(g));
  }
  speedup.reference_y = 1.0;
  speedup.reference_label = "no gain";
  r.figures.push_back({"Speedup per model and TP degree",
                       "Forward + backward step time of the Megatron-LM baseline (every all-gather and "
                       "reduce-scatter next to its GEMM, no overlap) divided by the step time with the overlap "
                       "selector's per-operator choice, both on the DES. Bars above the dashed line at 1 are gains.",
                       render_bar_chart(speedup)});

  BarChart steps{.title = "Step time (DES)", .x_label = "model, TP", .y_label = "step time (ms, log)", .y_log = true};
  BarGroup base{.name = "Megatron-LM baseline", .values = {}}, sel{.name = "overlap selector", .values = {}};
  for (size_t i = 0; i < results.rows.size(); ++i) {
    steps.categories.push_back(fmt::format("{} tp{}", results.cell(i, "model"), results.cell(i, "tp")));
    base.values.push_back(1e3 * results.number(i, "step_baseline_des_s"));
    sel.values.push_back(1e3 * results.number(i, "step_selected_des_s"));
  }
  steps.groups = {std::move(base), std::move(sel)};
  r.figures.push_back({"Step time per configuration",
                       "One micro-batch's forward + backward over all layers, baseline and selected, on the DES.",
                       render_bar_chart(steps)});

  if (!ops.rows.empty()) {
    std::vector<std::string> strategies;
    std::map<std::pair<std::string, std::string>, double> count;  // (tp, strategy) -> operators
    for (size_t i = 0; i < ops.rows.size(); ++i) {
      if (ops.cell(i, "collective_op") == "none") continue;
      const std::string& s = ops.cell(i, "selected");
      if (std::find(strategies.begin(), strategies.end(), s) == strategies.end()) strategies.push_back(s);
      count[{ops.cell(i, "tp"), s}] += 1;
    }
    BarChart chosen{.title = "Strategies chosen", .x_label = "TP degree", .y_label = "GEMM + collective pairs"};
    for (const std::string& tp : tps) chosen.categories.push_back("TP " + tp);
    for (const std::string& s : strategies) {
      BarGroup g{.name = s, .values = {}};
      for (const std::string& tp : tps) g.values.push_back(count[{tp, s}]);
      chosen.groups.push_back(std::move(g));
    }
    r.figures.push_back({"Strategy chosen per GEMM + collective pair",
                         "How often the selector picked each strategy for the operator pairs of a layer step, summed "
                         "over the models, per TP degree (ops.csv has every choice with its degree).",
                         render_bar_chart(chosen)});
  }
  return r;
}

}  // namespace parallax
