// File: sim/report/report_colocate.cpp
// report.html for `workload.kind: colocate`: the latency-sensitive (LS) service's latency against
// its SLO and its CDF, its SLO attainment, the best-effort (BE) job's throughput, SM/HBM
// utilisation, and each tenant's SM and bandwidth shares over time, per policy; from summary.json's
// policies.<name>, ls_latency.csv and timeline.csv (fields in docs/colocate.md).
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"
#include "sim/report/svg_xy_plot.h"

namespace parallax {

namespace {

XyPlot latency_cdf(const std::vector<std::string>& policies, const CsvTable& cdf, double slo_ms) {
  XyPlot p{.title = "LS latency CDF", .x_label = "LS request latency (ms, log)", .y_label = "fraction of requests",
           .x_log = true, .y_from_zero = true, .width = 960, .height = 360};
  for (const std::string& policy : policies) {
    XySeries s{.name = policy, .style = SeriesStyle::step};
    for (size_t i = 0; i < cdf.rows.size(); ++i) {
      if (cdf.cell(i, "policy") != policy) continue;
      s.x.push_back(1e3 * cdf.number(i, "latency_s"));
      s.y.push_back(cdf.number(i, "fraction"));
    }
    p.series.push_back(std::move(s));
  }
  if (slo_ms > 0) p.markers.push_back({slo_ms, fmt::format("SLO {:.3g} ms", slo_ms)});
  return p;
}

constexpr std::pair<const char*, const char*> kShareColumns[] = {{"ls_sm_share", "LS SMs"},
                                                                 {"be_sm_share", "BE SMs"},
                                                                 {"ls_bandwidth_share", "LS HBM bandwidth"},
                                                                 {"be_bandwidth_share", "BE HBM bandwidth"}};

// One policy's four shares from timeline.csv, in percent, over time in milliseconds. Every
// policy's plot covers `extent` (the latest bin end and the largest share of any policy), so the
// plots share their axes and read against each other; the dashed line is the whole GPU.
XyPlot shares_over_time(const std::string& policy, const CsvTable& timeline, const std::pair<double, double>& extent) {
  XyPlot p{.title = policy + ": SM and bandwidth shares", .x_label = "time (ms)", .y_label = "share of the GPU (%)",
           .y_from_zero = true, .width = 960, .height = 300};
  p.x_include = {0, extent.first};
  p.y_include = {0, extent.second};
  p.levels.push_back({100, "whole GPU"});
  for (const auto& [column, name] : kShareColumns) {
    XySeries s{.name = name, .style = SeriesStyle::step};
    for (size_t i = 0; i < timeline.rows.size(); ++i) {
      if (timeline.cell(i, "policy") != policy) continue;
      s.x.push_back(1e3 * timeline.number(i, "start_s"));
      s.y.push_back(100 * timeline.number(i, column));
    }
    p.series.push_back(std::move(s));
  }
  return p;
}

}  // namespace

HtmlReport colocate_report_page(const nlohmann::ordered_json& summary, const CsvTable& timeline,
                                const CsvTable& ls_latency) {
  HtmlReport r = generic_report_page(summary, "colocate");
  const std::vector<std::string> policies = report_policy_names(summary);
  if (policies.empty()) return r;
  const nlohmann::ordered_json& per = summary["policies"];
  auto metric = [&](const std::string& p, const char* key) { return per[p].value(key, 0.0); };
  const double slo_ms = 1e3 * summary.value("ls_slo_s", 0.0);

  BarChart latency{.title = "LS latency per policy", .x_label = "policy", .y_label = "latency (ms)"};
  latency.categories = policies;
  for (const auto& [key, label] : std::vector<std::pair<const char*, const char*>>{
           {"ls_solo_latency_s", "solo (alone on the GPU)"}, {"ls_p50_latency_s", "p50"},
           {"ls_mean_latency_s", "mean"}, {"ls_p99_latency_s", "p99"}}) {
    BarGroup g{.name = label, .values = {}};
    for (const std::string& p : policies) g.values.push_back(1e3 * metric(p, key));
    latency.groups.push_back(std::move(g));
  }
  if (slo_ms > 0) {
    latency.reference_y = slo_ms;
    latency.reference_label = fmt::format("SLO {:.3g} ms", slo_ms);
  }
  r.figures.push_back({"LS latency against its SLO",
                       "Latency of the latency-sensitive service's requests under each policy: the solo latency "
                       "(its kernels alone on the whole GPU), median, mean and 99th percentile. The dashed line is "
                       "the SLO; a p99 bar above it means more than 1% of requests missed.",
                       render_bar_chart(latency)});

  if (!ls_latency.rows.empty())
    r.figures.push_back({"LS latency CDF per policy",
                         "For each policy, the fraction of LS requests that finished within x ms of arriving "
                         "(queueing included). The dashed line is the SLO: where a curve crosses it is that policy's "
                         "SLO attainment. From ls_latency.csv.",
                         render_xy_plot(latency_cdf(policies, ls_latency, slo_ms))});

  BarChart att{.title = "LS SLO attainment", .x_label = "policy", .y_label = "requests within SLO (%)"};
  att.categories = policies;
  BarGroup a{.name = "SLO attainment", .values = {}};
  for (const std::string& p : policies) a.values.push_back(100 * metric(p, "ls_slo_attainment"));
  att.groups.push_back(std::move(a));
  att.reference_y = 100.0;
  att.reference_label = "100%";
  const double target = summary.value("slo_target", 0.0);
  if (target > 0) {  // the target is the line that matters; 100% is the axis' top anyway
    att.reference_y = 100 * target;
    att.reference_label = fmt::format("target {:.3g}%", 100 * target);
  }
  r.figures.push_back({"LS SLO attainment per policy",
                       "Share of the LS requests that finished within the SLO (ls_slo_attainment); the dashed line is the "
                       "scenario's slo_target, which a policy must reach to count as meeting the SLO.",
                       render_bar_chart(att)});

  BarChart be{.title = "BE throughput",
              .x_label = "policy",
              .y_label = summary.value("be_throughput_unit", std::string("BE throughput"))};
  be.categories = policies;
  BarGroup b{.name = "BE throughput", .values = {}};
  for (const std::string& p : policies) b.values.push_back(metric(p, "be_throughput"));
  be.groups.push_back(std::move(b));
  r.figures.push_back({"BE throughput per policy",
                       "Work the best-effort job got done per second of simulated time, in the unit of the summary's "
                       "be_throughput_unit. The trade-off to read with the two LS plots: a policy that protects the "
                       "SLO by starving the BE job scores low here.",
                       render_bar_chart(be)});

  BarChart util{.title = "GPU utilisation", .x_label = "policy", .y_label = "run average (%)"};
  util.categories = policies;
  BarGroup sm{.name = "SM", .values = {}}, hbm{.name = "HBM bandwidth", .values = {}};
  for (const std::string& p : policies) {
    sm.values.push_back(100 * metric(p, "sm_utilisation"));
    hbm.values.push_back(100 * metric(p, "hbm_utilisation"));
  }
  util.groups = {std::move(sm), std::move(hbm)};
  util.reference_y = 100.0;
  util.reference_label = "capacity";
  r.figures.push_back({"SM and HBM bandwidth utilisation per policy",
                       "Run averages of the share of SMs busy and of the HBM bandwidth in use, LS and BE together.",
                       render_bar_chart(util)});

  if (!timeline.rows.empty()) {
    const double bin_ms = 1e3 * (timeline.number(0, "end_s") - timeline.number(0, "start_s"));
    std::pair<double, double> extent{0, 100};  // (ms, %) over every policy
    for (size_t i = 0; i < timeline.rows.size(); ++i) {
      extent.first = std::max(extent.first, 1e3 * timeline.number(i, "end_s"));
      for (const auto& [column, name] : kShareColumns) extent.second = std::max(extent.second, 100 * timeline.number(i, column));
    }
    for (const std::string& p : policies)
      r.figures.push_back({"SM and bandwidth shares over time: " + p,
                           fmt::format("Under {}: the SMs the LS and BE kernels could occupy, as a share of the GPU's "
                                       "SMs, and the HBM bandwidth their useful DRAM bytes took, as a share of the "
                                       "peak, averaged over {:.3g} ms bins (timeline.csv). Every policy's plot has the "
                                       "same axes; the dashed line is the whole GPU.",
                                       p, bin_ms),
                           render_xy_plot(shares_over_time(p, timeline, extent))});
  }

  for (const std::string& p : policies)
    r.summary.emplace_back(fmt::format("{}: LS p99 / SLO attainment / BE", p),
                           fmt::format("{:.4g} ms / {:.2f}% / {:.4g}", 1e3 * metric(p, "ls_p99_latency_s"),
                                       100 * metric(p, "ls_slo_attainment"), metric(p, "be_throughput")));
  return r;
}

}  // namespace parallax
