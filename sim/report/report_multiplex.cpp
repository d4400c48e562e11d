// File: sim/report/report_multiplex.cpp
// report.html for `workload.kind: multiplex`: per service and policy, SLO attainment, p99 latency
// against the SLO, goodput and batch fill; and, for every policy, each service's SM and HBM
// bandwidth utilisation over time in fixed-width bins from timeline.csv (fields in docs/multiplex.md).
#include <algorithm>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"
#include "sim/report/svg_xy_plot.h"

namespace parallax {

namespace {

// Grouped bars: one cluster per policy, one bar per service.
BarChart per_service(const nlohmann::ordered_json& per, const std::vector<std::string>& policies,
                     const std::vector<std::string>& services, const char* key, double scale, BarChart chart) {
  chart.categories = policies;
  for (const std::string& s : services) {
    BarGroup g{.name = s, .values = {}};
    for (const std::string& p : policies) {
      const nlohmann::ordered_json& svc = per[p].value("services", nlohmann::ordered_json::object());
      g.values.push_back(svc.contains(s) ? scale * svc[s].value(key, 0.0) : 0.0);
    }
    chart.groups.push_back(std::move(g));
  }
  return chart;
}

// The latest bin end (ms) and the largest value of `column` (%) over every policy: the extent
// every policy's plot of that column covers, so that they share their axes.
std::pair<double, double> timeline_extent(const CsvTable& timeline, const char* column) {
  std::pair<double, double> extent{0, 100};
  for (size_t i = 0; i < timeline.rows.size(); ++i) {
    extent.first = std::max(extent.first, 1e3 * timeline.number(i, "end_s"));
    extent.second = std::max(extent.second, 100 * timeline.number(i, column));
  }
  return extent;
}

// One policy's per-service utilisation (`column` of timeline.csv, in percent) over time in
// milliseconds, a step per fixed-width bin, on the axes of timeline_extent; dashed: the whole GPU.
XyPlot utilisation_over_time(const std::string& policy, const CsvTable& timeline, const std::vector<std::string>& services,
                             const char* column, const std::string& what) {
  XyPlot p{.title = policy + ": " + what + " per service", .x_label = "time (ms)", .y_label = what + " (%)",
           .y_from_zero = true, .width = 960, .height = 300};
  const auto [end_ms, top] = timeline_extent(timeline, column);
  p.x_include = {0, end_ms};
  p.y_include = {0, top};
  p.levels.push_back({100, "whole GPU"});
  for (const std::string& s : services) {
    XySeries series{.name = s, .style = SeriesStyle::step};
    for (size_t i = 0; i < timeline.rows.size(); ++i) {
      if (timeline.cell(i, "policy") != policy || timeline.cell(i, "service") != s) continue;
      series.x.push_back(1e3 * timeline.number(i, "start_s"));
      series.y.push_back(100 * timeline.number(i, column));
    }
    p.series.push_back(std::move(series));
  }
  return p;
}

}  // namespace

HtmlReport multiplex_report_page(const nlohmann::ordered_json& summary, const CsvTable& timeline) {
  HtmlReport r = generic_report_page(summary, "multiplex");
  const std::vector<std::string> policies = report_policy_names(summary);
  if (policies.empty()) return r;
  const nlohmann::ordered_json& per = summary["policies"];
  std::vector<std::string> services;
  const nlohmann::ordered_json offered = summary.value("services", nlohmann::ordered_json::object());
  for (const auto& [name, _] : offered.items()) services.push_back(name);

  BarChart att = per_service(per, policies, services, "slo_attainment", 100,
                             {.title = "SLO attainment", .x_label = "policy", .y_label = "requests within SLO (%)"});
  att.reference_y = 100.0;
  att.reference_label = "100%";
  r.figures.push_back({"SLO attainment per service and policy",
                       "Share of each service's requests that finished within its SLO.", render_bar_chart(att)});

  BarChart p99 = per_service(per, policies, services, "p99_latency_s", 1e3,
                             {.title = "p99 latency", .x_label = "policy", .y_label = "p99 latency (ms, log)",
                              .y_log = true});
  std::string slos;
  for (const std::string& s : services)
    slos += fmt::format("{}{} {:.3g} ms", slos.empty() ? "" : ", ", s, 1e3 * summary["services"][s].value("slo_s", 0.0));
  r.figures.push_back({"p99 latency per service and policy",
                       "99th-percentile latency of each service (log scale). The SLOs are: " + slos + ".",
                       render_bar_chart(p99)});

  BarChart good = per_service(per, policies, services, "goodput_rps", 1,
                              {.title = "Goodput", .x_label = "policy", .y_label = "requests within SLO per second"});
  r.figures.push_back({"Goodput per service and policy",
                       "Requests finished within the SLO per second. Throughput (every finished request) is in "
                       "summary.json; goodput is what the service's users got.",
                       render_bar_chart(good)});

  BarChart fill = per_service(per, policies, services, "mean_batch_fill", 100,
                              {.title = "Batch fill", .x_label = "policy", .y_label = "mean batch fill (%)"});
  fill.reference_y = 100.0;
  fill.reference_label = "full batch";
  r.figures.push_back({"Batch fill per service and policy",
                       "Mean batch size as a share of the service's max_batch: low fill means batches leave on the "
                       "timeout or the SLO deadline rather than full.",
                       render_bar_chart(fill)});

  if (!timeline.rows.empty()) {
    const double bin_ms = 1e3 * (timeline.number(0, "end_s") - timeline.number(0, "start_s"));
    for (const std::string& p : policies) {
      r.figures.push_back({"SM utilisation over time: " + p,
                           fmt::format("Under {}: each service's useful FLOPs as a share of the GPU's peak at the "
                                       "kernel model's efficiency, averaged over {:.3g} ms bins (timeline.csv); the "
                                       "services' time-weighted means add up to sm_utilisation. Every policy's plot has the same axes.",
                                       p, bin_ms),
                           render_xy_plot(utilisation_over_time(p, timeline, services, "sm_utilisation",
                                                                "SM utilisation"))});
      r.figures.push_back({"HBM bandwidth utilisation over time: " + p,
                           fmt::format("Under {}: each service's DRAM bytes as a share of the peak HBM bandwidth, "
                                       "averaged over the same bins; the means add up to hbm_utilisation.",
                                       p),
                           render_xy_plot(utilisation_over_time(p, timeline, services, "hbm_utilisation",
                                                                "HBM bandwidth utilisation"))});
    }
  }

  for (const std::string& p : policies) {
    const nlohmann::ordered_json& j = per[p];
    r.summary.emplace_back(fmt::format("{}: throughput / SLO attainment / SM / HBM", p),
                           fmt::format("{:.6g} req/s / {:.2f}% / {:.1f}% / {:.1f}%", j.value("throughput_rps", 0.0),
                                       100 * j.value("slo_attainment", 0.0), 100 * j.value("sm_utilisation", 0.0),
                                       100 * j.value("hbm_utilisation", 0.0)));
    if (j.contains("mig_layout")) {
      std::string layout;
      for (const auto& m : j["mig_layout"])
        layout += fmt::format("{}{} {} at slice {} ({} SMs)", layout.empty() ? "" : "; ",
                              m.value("service", std::string()), m.value("profile", std::string()),
                              m.value("start", 0), m.value("sms", 0));
      r.summary.emplace_back(p + ": MIG layout", layout);
    }
  }
  return r;
}

}  // namespace parallax
