// File: sim/experiment/run_report.cpp
#include "sim/experiment/run_report.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/overlap_selector.h"
#include "sim/io/input_file.h"
#include "sim/policies/overlap/overlap_grid.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/overlap/overlap_schedule.h"
#include "sim/report/report_pages.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/experiment/overlap_des.h"
#include "sim/experiment/version.h"

namespace parallax {

namespace {

std::string read_text(const std::filesystem::path& path) { return read_input_file(path.string()); }

// A CSV the run may not have written (an older directory): empty when absent.
CsvTable optional_csv(const std::filesystem::path& path) {
  return std::filesystem::exists(path) ? parse_csv(read_text(path)) : CsvTable{};
}

// InterDecom on the DES at every feasible degree of the configuration trace.json shows.
OverlapDegreeCurve degree_curve(const Scenario& sc, const CsvTable& results) {
  OverlapDegreeCurve c;
  OverlapGridSpec grid;
  grid.ops = sc.overlap.ops;
  grid.tp = sc.overlap.tp;
  grid.hidden = sc.overlap.hidden;
  grid.tokens = sc.overlap.tokens;
  grid.layers = sc.overlap.layers;
  const std::vector<OverlapGridPoint> points = expand_overlap_grid(grid);
  const auto index = static_cast<size_t>(sc.overlap.trace_config);
  if (index >= points.size() || index >= results.rows.size()) return c;
  models::OverlapParams params;
  params.max_degree = sc.overlap.max_degree;
  params.default_degree = sc.overlap.default_degree;
  const OverlapGridPoint& pt = points[index];
  const OverlapGroup g = overlap_group(sc.hardware, pt.problem.tp);
  c.config = fmt::format("#{} {} tp{} h{} m{} {}", index, results.cell(index, "op"), pt.problem.tp, pt.hidden,
                         pt.problem.m, pt.layer);
  c.d_star = static_cast<int64_t>(results.number(index, "d_star"));
  c.d_default = models::nearest_feasible_degree(pt.problem, params, params.default_degree);
  for (int64_t d = 1; d <= params.max_degree; ++d) {
    if (!models::degree_feasible(pt.problem, params, d)) continue;
    c.degree.push_back(static_cast<double>(d));
    c.des_s.push_back(run_overlap_schedule_s(
        sc.hardware, g.order, overlap_schedule(pt.problem, g, params, models::OverlapStrategy::interdecom, d)));
  }
  return c;
}

}  // namespace

void write_run_report(const Scenario& sc, const RunOptions& options) {
  if (options.out_dir.empty()) return;
  const std::filesystem::path dir(options.out_dir);
  const nlohmann::ordered_json summary = nlohmann::ordered_json::parse(read_text(dir / "summary.json"));
  HtmlReport page;
  if (sc.workload_kind == "serverless") {
    const int64_t gpus = static_cast<int64_t>(sc.hardware.gpus.size()) * sc.serverless.nodes;
    page = serverless_report_page(summary, parse_csv(read_text(dir / "function_latency.csv")),
                                  optional_csv(dir / "timeline.csv"),
                                  {gpus, sc.serverless.reserve_GiB * 1073741824.0 * static_cast<double>(gpus)});
  } else if (sc.workload_kind == "overlap" && sc.overlap.mode != "end_to_end") {
    const CsvTable results = parse_csv(read_text(dir / "results.csv"));
    page = overlap_report_page(summary, results, degree_curve(sc, results));
  } else if (sc.workload_kind == "overlap") {
    page = overlap_e2e_report_page(summary, parse_csv(read_text(dir / "results.csv")),
                                   parse_csv(read_text(dir / "ops.csv")));
  } else if (sc.workload_kind == "colocate") {
    page = colocate_report_page(summary, optional_csv(dir / "timeline.csv"), optional_csv(dir / "ls_latency.csv"));
  } else if (sc.workload_kind == "multiplex") {
    page = multiplex_report_page(summary, optional_csv(dir / "timeline.csv"));
  } else {
    page = transfers_report_page(summary);
  }
  const bool embedded = options.scenario_path.empty();
  page.scenario = {sc.name, embedded ? std::string(kQuickstartSource) : options.scenario_path,
                   embedded ? std::string(embedded_quickstart()) : read_text(options.scenario_path)};
  page.provenance = {{"parallax version", kParallaxVersion},
                     {"git commit", kParallaxGitCommit},
                     {"seed", fmt::format("{}", sc.seed)},
                     {"hardware", sc.hardware.name},
                     {"scenario file", page.scenario.source}};
  for (const std::string& o : options.overrides) page.provenance.emplace_back("--set", o);
  write_html_report(dir / "report.html", page);
}

}  // namespace parallax
