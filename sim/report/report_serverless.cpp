// File: sim/report/report_serverless.cpp
// report.html for `workload.kind: serverless`: per-function latency against the SLO per policy,
// SLO attainment, swaps and cold starts, GPUs used, and over time the model loads by path and the
// GPU memory in use; from summary.json's policies.<name>, function_latency.csv and timeline.csv
// (fields in docs/serverless.md).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"
#include "sim/report/svg_xy_plot.h"

namespace parallax {

namespace {

// Per policy, in summary order, the per-function P98 / SLO of functions that finished a request.
XyPlot latency_cdf(const std::vector<std::string>& policies, const CsvTable& csv) {
  XyPlot p{.title = "Per-function P98 latency / SLO",
           .x_label = "P98 latency / SLO (log)",
           .y_label = "fraction of functions",
           .x_log = true,
           .y_from_zero = true};
  for (const std::string& policy : policies) {
    std::vector<double> ratios;
    size_t functions = 0;
    for (size_t i = 0; i < csv.rows.size(); ++i) {
      if (csv.cell(i, "policy") != policy) continue;
      ++functions;
      const double p98 = csv.number(i, "p98_s"), slo = csv.number(i, "slo_s");
      if (csv.number(i, "finished") > 0 && p98 > 0 && slo > 0) ratios.push_back(p98 / slo);
    }
    std::sort(ratios.begin(), ratios.end());
    XySeries s{.name = policy, .style = SeriesStyle::step, .x = {}, .y = {}, .colour = {}, .tips = {}};
    for (size_t i = 0; i < ratios.size(); ++i) {
      s.x.push_back(ratios[i]);
      s.y.push_back(static_cast<double>(i + 1) / static_cast<double>(std::max<size_t>(functions, 1)));
    }
    p.series.push_back(std::move(s));
  }
  p.markers.push_back({1.0, "SLO"});
  return p;
}

// One line per policy over timeline.csv's bins (x: bin start in seconds), y = value(row).
template <typename Value>
XyPlot timeline_plot(const std::vector<std::string>& policies, const CsvTable& timeline, XyPlot p, Value value) {
  p.x_label = "time (s)";
  p.y_from_zero = true;
  p.width = 960;
  p.height = 340;
  for (const std::string& policy : policies) {
    XySeries s{.name = policy, .style = SeriesStyle::step, .x = {}, .y = {}, .colour = {}, .tips = {}};
    for (size_t i = 0; i < timeline.rows.size(); ++i) {
      if (timeline.cell(i, "policy") != policy) continue;
      s.x.push_back(timeline.number(i, "start_s"));
      s.y.push_back(value(i));
    }
    p.series.push_back(std::move(s));
  }
  return p;
}

void add_timeline_figures(HtmlReport& r, const std::vector<std::string>& policies, const CsvTable& timeline,
                          const ServerlessLimits& limits) {
  const double bin_s = timeline.number(0, "end_s") - timeline.number(0, "start_s");
  const std::string bins = fmt::format("{:.3g} s bins; timeline.csv has the numbers", bin_s);
  // The PCIe and NVLink plots share one y range, so that their heights compare.
  double top_GBps = 0;
  for (size_t i = 0; i < timeline.rows.size(); ++i)
    for (const char* column : {"swap_bytes_pcie", "swap_bytes_nvlink"})
      top_GBps = std::max(top_GBps, timeline.number(i, column) / bin_s / 1e9);
  for (const auto& [path, column] : std::vector<std::pair<const char*, const char*>>{{"PCIe", "swap_bytes_pcie"},
                                                                                     {"NVLink", "swap_bytes_nvlink"}}) {
    XyPlot plot = timeline_plot(policies, timeline,
                                {.title = fmt::format("Model loads over {}", path),
                                 .y_label = fmt::format("GB/s loaded over {}", path)},
                                [&, column = column](size_t i) { return timeline.number(i, column) / bin_s / 1e9; });
    plot.y_include = {0, top_GBps};
    r.figures.push_back({fmt::format("Swaps over time: {}", path),
                         fmt::format("Model bytes loaded into GPU memory over {} per second of simulated time, per "
                                     "policy, counted in the bin where the load started ({}, with the swap counts).",
                                     path == std::string("PCIe") ? "PCIe from host memory (swaps and cold starts)"
                                                                 : "NVLink from a peer GPU",
                                     bins),
                         render_xy_plot(plot)});
  }
  XyPlot memory = timeline_plot(policies, timeline,
                                {.title = "GPU memory in use", .y_label = "model memory, all GPUs (GiB)"},
                                [&](size_t i) { return timeline.number(i, "gpu_memory_used_bytes") / 1073741824.0; });
  if (limits.model_memory_bytes > 0)
    memory.levels.push_back({limits.model_memory_bytes / 1073741824.0,
                             fmt::format("swap pools {:.4g} GiB", limits.model_memory_bytes / 1073741824.0)});
  r.figures.push_back({"GPU memory occupancy over time",
                       "Model memory in use summed over every GPU of every node, time-weighted mean over each bin (" +
                           bins + ")." +
                           (limits.model_memory_bytes > 0
                                ? " The dashed line is the swap pools' capacity (reserve_GiB x GPUs); native places "
                                  "every model at the start and may sit above it."
                                : ""),
                       render_xy_plot(memory)});
}

}  // namespace

HtmlReport serverless_report_page(const nlohmann::ordered_json& summary, const CsvTable& function_latency,
                                  const CsvTable& timeline, const ServerlessLimits& limits) {
  HtmlReport r = generic_report_page(summary, "serverless");
  const std::vector<std::string> policies = report_policy_names(summary);
  if (policies.empty()) return r;
  const nlohmann::ordered_json& per_policy = summary["policies"];
  auto metric = [&](const std::string& policy, const char* key) { return per_policy[policy].value(key, 0.0); };

  if (!function_latency.rows.empty())
    r.figures.push_back({"Per-function latency CDF",
                         "For each policy, the fraction of functions whose P98 latency is at most x times their "
                         "SLO. Functions left of the dashed line at 1 meet their SLO on latency; a curve that ends "
                         "below 1.0 has functions that finished no request.",
                         render_xy_plot(latency_cdf(policies, function_latency))});

  BarChart slo{.title = "SLO attainment", .x_label = "policy", .y_label = "compliant functions (%)"};
  slo.categories = policies;
  BarGroup att{.name = "SLO attainment", .values = {}};
  for (const std::string& p : policies) att.values.push_back(100.0 * metric(p, "slo_attainment"));
  slo.groups.push_back(std::move(att));
  slo.reference_y = 100.0;
  slo.reference_label = "100%";
  r.figures.push_back({"SLO attainment per policy",
                       "Share of functions with nothing dropped, every request finished and P98 latency within the "
                       "SLO (functions_compliant / functions).",
                       render_bar_chart(slo)});

  BarChart moves{.title = "Model swaps and cold starts", .x_label = "policy", .y_label = "count"};
  moves.categories = policies;
  for (const auto& [key, label] : std::vector<std::pair<const char*, const char*>>{
           {"swaps_pcie", "swaps over PCIe"}, {"swaps_nvlink", "swaps over NVLink"},
           {"cold_starts", "cold starts"}, {"evictions", "evictions"}}) {
    BarGroup g{.name = label, .values = {}};
    for (const std::string& p : policies) g.values.push_back(metric(p, key));
    moves.groups.push_back(std::move(g));
  }
  r.figures.push_back({"Swaps, cold starts and evictions per policy",
                       "Model loads into GPU memory by path (host over PCIe, or a peer GPU over NVLink), cold starts "
                       "(a new instance started), and evictions from GPU memory, summed over the run.",
                       render_bar_chart(moves)});

  if (!timeline.rows.empty()) add_timeline_figures(r, policies, timeline, limits);

  BarChart gpus{.title = "GPUs used", .x_label = "policy", .y_label = "GPUs used"};
  gpus.categories = policies;
  BarGroup used{.name = "GPUs used", .values = {}};
  for (const std::string& p : policies) used.values.push_back(metric(p, "gpus_used"));
  gpus.groups.push_back(std::move(used));
  if (limits.gpus > 0) {
    gpus.reference_y = static_cast<double>(limits.gpus);
    gpus.reference_label = fmt::format("{} GPUs in the cluster", limits.gpus);
  }
  r.figures.push_back({"GPUs used per policy",
                       "GPUs that ran at least one request (the dashed line: every GPU of the cluster). The "
                       "per-policy numbers behind every bar are in summary.json under policies.<name>.",
                       render_bar_chart(gpus)});
  for (const std::string& p : policies)
    r.summary.emplace_back(fmt::format("{}: compliant / p99", p),
                           fmt::format("{} / {} functions, p99 {:.4g} s", per_policy[p].value("functions_compliant", 0),
                                       per_policy[p].value("functions", 0), metric(p, "p99_latency_s")));
  return r;
}

}  // namespace parallax
