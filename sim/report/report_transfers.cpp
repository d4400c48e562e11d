// File: sim/report/report_transfers.cpp
// report.html for `workload.kind: transfers`: per-link utilisation and collective bandwidths, from
// summary.json's links[] and collectives[] (definitions in docs/metrics.md).
#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "sim/report/report_pages.h"
#include "sim/report/svg_bar_chart.h"

namespace parallax {

HtmlReport transfers_report_page(const nlohmann::ordered_json& summary) {
  HtmlReport r = generic_report_page(summary, "transfers");
  if (summary.contains("activities"))
    for (const auto& [k, v] : summary["activities"].items())
      r.summary.emplace_back("activities." + k, format_report_value(v));

  BarChart links{.title = "Link utilisation", .x_label = "link direction", .y_label = "mean utilisation (%)"};
  BarGroup util{.name = "mean utilisation", .values = {}};
  size_t idle = 0;
  std::vector<std::pair<double, std::string>> loaded;  // (utilisation %, name), busiest first
  for (const auto& l : summary.value("links", nlohmann::ordered_json::array())) {
    if (l.value("bytes", 0.0) <= 0) {
      ++idle;
      continue;
    }
    loaded.emplace_back(100.0 * l.value("mean_utilisation", 0.0), l.value("name", std::string()));
  }
  std::stable_sort(loaded.begin(), loaded.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (const auto& [percent, name] : loaded) {
    links.categories.push_back(name);
    util.values.push_back(percent);
  }
  links.groups.push_back(std::move(util));
  links.reference_y = 100.0;
  links.reference_label = "capacity";
  if (!links.categories.empty())
    r.figures.push_back({"Link utilisation",
                         fmt::format("Bytes carried by each link direction over the run, as a share of what it could "
                                     "carry in the makespan (bytes / (bandwidth x makespan)). {} idle link directions "
                                     "are left out. Busiest first: a bar near the dashed 100% line is a bottleneck for the whole "
                                     "run.",
                                     idle),
                         render_bar_chart(links)});

  BarChart coll{.title = "Collective bandwidth", .x_label = "collective", .y_label = "GB/s"};
  BarGroup alg{.name = "algbw", .values = {}}, bus{.name = "busbw", .values = {}};
  for (const auto& c : summary.value("collectives", nlohmann::ordered_json::array())) {
    coll.categories.push_back(fmt::format("{} ({}, {} GPUs)", c.value("name", std::string()),
                                          c.value("op", std::string()), c.value("gpus", 0)));
    alg.values.push_back(c.value("algbw_GBps", 0.0));
    bus.values.push_back(c.value("busbw_GBps", 0.0));
  }
  coll.groups = {std::move(alg), std::move(bus)};
  if (!coll.categories.empty())
    r.figures.push_back({"Collective bandwidth",
                         "algbw = bytes / time; busbw = algbw x the collective's bus factor (2(n-1)/n for all-reduce, "
                         "(n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for broadcast), comparable with "
                         "nccl-tests and with the link bandwidth of the ring.",
                         render_bar_chart(coll)});
  return r;
}

}  // namespace parallax
