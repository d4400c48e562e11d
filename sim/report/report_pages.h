// File: sim/report/report_pages.h
// What report.html shows for each kind of run, built from the files the run wrote (summary.json,
// the CSVs) so that a page depends only on outputs a user can also read. One builder per kind:
// report_transfers.cpp, report_overlap.cpp, report_overlap_e2e.cpp, report_serverless.cpp,
// report_colocate.cpp, report_multiplex.cpp, report_sweep.cpp, report_validate.cpp,
// report_compare.cpp;
// report_generic.cpp holds the summary table every page starts from. Scenario text and provenance are the caller's
// (sim/experiment/output_folder.cpp, each kind's page from its Result). docs/reports.md says how to read each plot.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/csv_table.h"
#include "sim/report/html_report.h"
#include "sim/report/run_comparison.h"

namespace parallax {

// Summary rows from the scalar fields of summary.json, in file order. Wall-clock fields (keys
// ending in "wall_s", "sim_to_wall_ratio") are left out so the page is the same for the same
// simulation; objects and arrays are left to the kind's plots.
std::vector<std::pair<std::string, std::string>> summary_rows(const nlohmann::ordered_json& summary);

// A number as the tables print it: integers exactly, others to 6 significant digits.
std::string format_report_value(const nlohmann::ordered_json& value);

// A page with the summary table only (kinds and modes without plots yet).
HtmlReport generic_report_page(const nlohmann::ordered_json& summary, const std::string& kind);

// The keys of summary["policies"] in file order; empty when there is no such object.
std::vector<std::string> report_policy_names(const nlohmann::ordered_json& summary);

// transfers: per-link utilisation bars and collective algbw/busbw bars (docs/metrics.md).
HtmlReport transfers_report_page(const nlohmann::ordered_json& summary);

// The DES time of InterDecom at each feasible degree for one configuration (results.csv keeps only
// d*, the DES-best and the default degree, so the runner computes the curve for the page).
struct OverlapDegreeCurve {
  std::string config;  // "ag_gemm tp4 h4096 m8192 fc1"
  std::vector<double> degree, des_s;
  int64_t d_star = 0, d_default = 0;
};

// overlap (grid mode): strategy map, time vs d (when `curve` has points), double vs single ring.
HtmlReport overlap_report_page(const nlohmann::ordered_json& summary, const CsvTable& results,
                               const OverlapDegreeCurve& curve);

// overlap (end-to-end mode): step speedup per model and TP, step times, strategies chosen; from
// results.csv and ops.csv.
HtmlReport overlap_e2e_report_page(const nlohmann::ordered_json& summary, const CsvTable& results,
                                   const CsvTable& ops);

// serverless: per-function P98/SLO CDF per policy, SLO attainment, swaps and cold starts, GPUs;
// loads per path and GPU memory in use over time from timeline.csv (empty table: no such plots).
// The limits drawn as capacity lines (0: unknown, no line): GPUs in the cluster (GPUs used) and
// the swap pools' model memory, reserve_GiB x GPUs (GPU memory in use).
struct ServerlessLimits {
  int64_t gpus = 0;
  double model_memory_bytes = 0;
};
HtmlReport serverless_report_page(const nlohmann::ordered_json& summary, const CsvTable& function_latency,
                                  const CsvTable& timeline, const ServerlessLimits& limits = {});

// colocate: LS latency vs SLO and its CDF (ls_latency.csv), LS SLO attainment, BE throughput,
// SM/HBM utilisation per policy, and per policy the SM and bandwidth shares over time
// (timeline.csv); an empty table leaves its plots out.
HtmlReport colocate_report_page(const nlohmann::ordered_json& summary, const CsvTable& timeline,
                                const CsvTable& ls_latency);

// `parallax compare`: per-policy fields that differ as grouped bars (one bar per run, shared axes),
// top-level fields relative to the baseline, and the tables of differences, text fields, timing.
HtmlReport compare_report_page(const RunComparison& comparison);

// What a sweep page plots (`parallax report DIR --metric NAME --log-x --log-y`): each metric gets
// its own figure, in the order given; none given: sweep_metric's choice. A log flag forces that
// axis to log scale; without it an axis is log when its values span 20x or more.
struct SweepPlotChoice {
  std::vector<std::string> metrics{};
  bool log_x = false, log_y = false;
};

// A sweep folder: sweep.json's fields, the chosen metric(s) over the swept axes, the points table.
HtmlReport sweep_report_page(const nlohmann::ordered_json& sweep, const CsvTable& results,
                             const SweepPlotChoice& choice = {});

// The metric a sweep page plots: makespan_s when it varies between points, else the first numeric
// summary column of results.csv that varies (wall-clock, seed and id columns never); "" if none.
std::string sweep_metric(const CsvTable& results, const std::vector<std::string>& axis_keys);

// `parallax validate DIR`: predicted vs measured scatter (y = x, ±10%) and error by family, from
// validation.json and validation.csv.
HtmlReport validation_report_page(const nlohmann::ordered_json& validation, const CsvTable& rows);

// multiplex: per service and policy SLO attainment, p99, goodput, batch fill; per policy each
// service's SM and HBM utilisation over time from timeline.csv (empty table: no such plots).
HtmlReport multiplex_report_page(const nlohmann::ordered_json& summary, const CsvTable& timeline);

}  // namespace parallax
