// File: sim/report/run_summary.cpp
#include "sim/report/run_summary.h"

#include <fmt/format.h>

#include <algorithm>

#include "sim/report/console_table.h"

namespace parallax {

double busbw_factor(const std::string& op, int n) {
  if (n <= 0) return 0;
  if (op == "all_reduce") return 2.0 * (n - 1) / n;
  if (op == "all_gather" || op == "reduce_scatter" || op == "all_to_all") return static_cast<double>(n - 1) / n;
  return 1.0;  // broadcast, reduce
}

namespace {
double seconds(Time t) { return t.to_seconds(); }
double algbw_GBps(const CollectiveSummary& c) {
  const double t = seconds(c.end - c.start);
  return t > 0 ? static_cast<double>(c.bytes) / t / 1e9 : 0;
}
double utilisation(const LinkSummary& l, Time makespan) {
  const double span = seconds(makespan);
  return span > 0 && l.bandwidth_Bps > 0 ? l.bytes / (l.bandwidth_Bps * span) : 0;
}
}  // namespace

nlohmann::ordered_json to_json(const RunSummary& s) {
  nlohmann::ordered_json j;
  j["scenario"] = s.scenario;
  j["hardware"] = s.hardware;
  j["seed"] = s.seed;
  j["parallax_version"] = s.parallax_version;
  j["git_commit"] = s.git_commit;
  j["makespan_s"] = seconds(s.makespan);
  j["events"] = s.events;
  j["activities"] = {{"copy", s.copies}, {"kernel", s.kernels}, {"collective", s.collectives_count}};
  j["bytes_moved"] = s.bytes_moved;
  j["transfers"] = {{"count", s.transfers.count},
                    {"sum_completion_s", s.transfers.sum_completion_s},
                    {"sum_fct_s", s.transfers.sum_fct_s}};
  // Each row is filled key by key: the initializer-list form copies every value twice over, and
  // a run has a row per link direction.
  auto& cs = j["collectives"] = nlohmann::ordered_json::array();
  for (const CollectiveSummary& c : s.collectives) {
    const double alg = algbw_GBps(c);
    nlohmann::ordered_json& row = cs.emplace_back(nlohmann::ordered_json::object());
    row["name"] = c.name;
    row["op"] = c.op;
    row["gpus"] = c.gpus;
    row["bytes"] = c.bytes;
    row["time_s"] = seconds(c.end - c.start);
    row["algbw_GBps"] = alg;
    row["busbw_GBps"] = alg * busbw_factor(c.op, c.gpus);
  }
  auto& ls = j["links"] = nlohmann::ordered_json::array();
  for (const LinkSummary& l : s.links) {
    nlohmann::ordered_json& row = ls.emplace_back(nlohmann::ordered_json::object());
    row["name"] = l.name;
    row["kind"] = l.kind;
    row["bytes"] = l.bytes;
    row["transfers"] = l.transfers;
    row["busy_s"] = seconds(l.busy);
    row["mean_utilisation"] = utilisation(l, s.makespan);
  }
  return j;
}

std::vector<ConsoleTable> run_report_tables(const RunSummary& s, double wall_s, const std::string& out_dir,
                                            size_t max_links) {
  std::vector<ConsoleTable> out;
  out.push_back({{"scenario", "hardware", "seed", "makespan", "activities", "events", "wall", "sim/wall"},
                 {{s.scenario, s.hardware, fmt::format("{}", s.seed), format_seconds(seconds(s.makespan)),
                   fmt::format("{}", s.copies + s.kernels + s.collectives_count), fmt::format("{}", s.events),
                   format_seconds(wall_s), wall_s > 0 ? fmt::format("{:.3g}", seconds(s.makespan) / wall_s) : "-"}},
                 {}});
  if (s.transfers.count > 0)
    out.push_back({{"transfers", "moved", "sum of completions", "sum of FCTs"},
                   {{fmt::format("{}", s.transfers.count), format_bytes(s.bytes_moved),
                     format_seconds(s.transfers.sum_completion_s), format_seconds(s.transfers.sum_fct_s)}},
                   {}});
  if (!s.collectives.empty()) {
    ConsoleTable t{{"collective", "op", "gpus", "size", "start", "time", "algbw", "busbw"}, {}, {}};
    for (const CollectiveSummary& c : s.collectives) {
      const double alg = algbw_GBps(c);
      t.rows.push_back({c.name, c.op, fmt::format("{}", c.gpus), format_bytes(static_cast<double>(c.bytes)),
                        format_seconds(seconds(c.start)), format_seconds(seconds(c.end - c.start)),
                        format_rate(alg * 1e9), format_rate(alg * busbw_factor(c.op, c.gpus) * 1e9)});
    }
    out.push_back(std::move(t));
  }
  std::vector<const LinkSummary*> busiest;
  for (const LinkSummary& l : s.links)
    if (l.bytes > 0) busiest.push_back(&l);
  std::stable_sort(busiest.begin(), busiest.end(),
                   [&](auto* a, auto* b) { return utilisation(*a, s.makespan) > utilisation(*b, s.makespan); });
  if (!busiest.empty()) {
    ConsoleTable t{{"busiest links", "kind", "capacity", "moved", "busy", "utilisation"}, {}, {}};
    for (size_t i = 0; i < busiest.size() && i < max_links; ++i) {
      const LinkSummary& l = *busiest[i];
      t.rows.push_back({l.name, l.kind, format_rate(l.bandwidth_Bps), format_bytes(l.bytes),
                        format_seconds(seconds(l.busy)), fmt::format("{:.1f} %", 100 * utilisation(l, s.makespan))});
    }
    if (busiest.size() > max_links)
      t.notes.push_back(
          out_dir.empty()
              ? fmt::format("({} more links carried traffic; run with --out DIR to get every link in DIR/summary.json)",
                            busiest.size() - max_links)
              : fmt::format("({} more links carried traffic; every link is in {}/summary.json)",
                            busiest.size() - max_links, out_dir));
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace parallax
