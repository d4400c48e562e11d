// File: sim/experiment/output_folder.h
// The one writer of a run's output folder and the one console path, for every workload kind.
#pragma once

#include <cstdio>
#include <filesystem>

#include "sim/experiment/result.h"
#include "sim/experiment/run_options.h"
#include "sim/report/html_report.h"
#include "sim/scenario/scenario.h"

namespace parallax {

// Before the scenario is loaded: the folder is new or a directory; it is created, a killed run's
// NAME.tmp.PID files and an earlier summary.json and report.html are removed, so that a run that
// fails, even while loading, never leaves an earlier summary looking complete. OutputError if not.
void begin_run_folder(const std::filesystem::path& dir);

// report.html's page: the kind's page from the Result (sim/experiment/experiment.h), the scenario
// text and the provenance (version, commit, seed, hardware, file, every --set).
HtmlReport run_report_page(const Scenario& sc, const RunOptions& options, const Result& result);

// Writes `result` into `dir` (begun by begin_run_folder): the stale names removed, every file
// atomically (temporary + rename) in order, timing.json, summary.json last but for report.html,
// which is derived from it: summary.json's presence says the folder is complete.
void write_run_folder(const std::filesystem::path& dir, const Result& result, const HtmlReport& page);

// The console tables, then "outputs: DIR" when there is a folder.
void print_result(std::FILE* out, const Result& result, const std::string& out_dir);

}  // namespace parallax
