// File: sim/report/report_overlap.cpp
// report.html for `workload.kind: overlap` (grid mode): which strategy wins where, InterDecom's
// time against its degree d with d* marked, and the double ring against the single ring; from
// results.csv (columns in docs/overlap.md) and one degree curve computed by the runner.
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_xy_plot.h"

namespace parallax {

namespace {

constexpr std::array<const char*, 4> kStrategies{"sequential", "intrafusion_ring", "intrafusion_double_ring",
                                                 "interdecom"};

std::string config_name(const CsvTable& t, size_t i) {
  return fmt::format("#{} {} tp{} h{} m{} {}", i, t.cell(i, "op"), t.cell(i, "tp"), t.cell(i, "hidden"),
                     t.cell(i, "m"), t.cell(i, "layer"));
}

XyPlot strategy_map(const CsvTable& t) {
  XyPlot p{.title = "Strategy map: DES-best strategy per configuration",
           .x_label = "configuration index (order: op, tp, hidden, tokens, layer)",
           .y_label = "speedup over sequential (DES)",
           .y_from_zero = true,
           .width = 960,
           .height = 380};
  for (const char* s : kStrategies) p.series.push_back({.name = s, .style = SeriesStyle::scatter});
  // Two kinds of miss: the selector chose another strategy than the DES's best (a strategy miss),
  // or the right strategy, InterDecom, at another degree than the DES-best one (a degree miss).
  XySeries strategy_miss{.name = "strategy miss", .style = SeriesStyle::scatter, .colour = "#000000"};
  XySeries degree_miss{.name = "degree miss (InterDecom d)", .style = SeriesStyle::scatter, .colour = "#999999"};
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const std::string& oracle = t.cell(i, "des_oracle");
    const double seq = t.number(i, "sequential_des_s");
    const double best = t.number(i, oracle + "_des_s");
    const double x = static_cast<double>(i), y = seq / best;
    for (size_t s = 0; s < kStrategies.size(); ++s)
      if (oracle == kStrategies[s]) {
        p.series[s].x.push_back(x);
        p.series[s].y.push_back(y);
        p.series[s].tips.push_back(fmt::format("{}: {} {:.3f}x", config_name(t, i), oracle, y));
      }
    const double regret = t.number(i, "regret");
    if (regret > 1e-9) {
      const bool same_strategy = t.cell(i, "selected") == oracle;
      XySeries& miss = same_strategy ? degree_miss : strategy_miss;
      miss.x.push_back(x);
      miss.y.push_back(seq / t.number(i, "selected_des_s"));
      miss.tips.push_back(fmt::format("{}: selected {}{} ({:.1f}% slower than {})", config_name(t, i),
                                      t.cell(i, "selected"), same_strategy ? " at another d" : "",
                                      100 * regret, oracle));
    }
  }
  p.series.push_back(std::move(strategy_miss));
  p.series.push_back(std::move(degree_miss));
  return p;
}

XyPlot degree_plot(const OverlapDegreeCurve& c) {
  XyPlot p{.title = "InterDecom time vs degree d: " + c.config,
           .x_label = "decomposition degree d",
           .y_label = "DES time (ms)"};
  XySeries s{.name = "InterDecom (DES)", .style = SeriesStyle::line, .x = c.degree, .y = {}};
  for (double v : c.des_s) s.y.push_back(1e3 * v);
  XySeries pts{.name = "feasible d", .style = SeriesStyle::scatter, .x = c.degree, .y = s.y, .colour = "#0072B2"};
  for (size_t i = 0; i < c.degree.size(); ++i)
    pts.tips.push_back(fmt::format("d = {}: {:.4g} ms", c.degree[i], pts.y[i]));
  p.series = {std::move(s), std::move(pts)};
  p.markers.push_back({static_cast<double>(c.d_star), fmt::format("d* = {}", c.d_star)});
  if (c.d_default != c.d_star)
    p.markers.push_back({static_cast<double>(c.d_default), fmt::format("default {}", c.d_default)});
  return p;
}

XyPlot ring_plot(const CsvTable& t) {
  XyPlot p{.title = "Double ring vs single ring (DES)",
           .x_label = "single ring time (ms, log)",
           .y_label = "double ring time (ms, log)",
           .x_log = true,
           .y_log = true,
           .diagonal = true,
           .width = 560,
           .height = 440};
  std::vector<std::string> ops;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const std::string& op = t.cell(i, "op");
    size_t k = 0;
    while (k < ops.size() && ops[k] != op) ++k;
    if (k == ops.size()) {
      ops.push_back(op);
      p.series.push_back({.name = op, .style = SeriesStyle::scatter});
    }
    const double single = 1e3 * t.number(i, "intrafusion_ring_des_s");
    const double dbl = 1e3 * t.number(i, "intrafusion_double_ring_des_s");
    p.series[k].x.push_back(single);
    p.series[k].y.push_back(dbl);
    p.series[k].tips.push_back(fmt::format("{}: {:.3f}x", config_name(t, i), single / dbl));
  }
  return p;
}

}  // namespace

HtmlReport overlap_report_page(const nlohmann::ordered_json& summary, const CsvTable& results,
                               const OverlapDegreeCurve& curve) {
  HtmlReport r = generic_report_page(summary, "overlap");
  if (results.rows.empty()) return r;
  r.figures.push_back({"Strategy map",
                       fmt::format("Each dot is one of the {} configurations, coloured by the strategy the DES finds "
                                   "fastest, at the height of its speedup over running GEMM and collective one "
                                   "after the other. Black dots mark configurations where the analytic selector "
                                   "picked another strategy that is slower on the DES (drawn at the selected "
                                   "strategy's speedup). Hover a dot for its shape.",
                                   results.rows.size()),
                       render_xy_plot(strategy_map(results))});
  if (!curve.degree.empty())
    r.figures.push_back({"Time vs decomposition degree",
                         "InterDecom splits the GEMM and the collective into d chunks and pipelines them. Small d "
                         "overlaps little; large d pays per-chunk launch and latency. The dashed line is d*, the "
                         "closed-form choice (docs/overlap.md); the curve's minimum is the DES-best degree.",
                         render_xy_plot(degree_plot(curve))});
  r.figures.push_back({"Double vs single ring",
                       "One dot per configuration: the IntraFusion time with the single ring (x) and with the double "
                       "ring (y). Dots below the dashed y = x line are configurations where the double ring is "
                       "faster.",
                       render_xy_plot(ring_plot(results))});
  return r;
}

}  // namespace parallax
