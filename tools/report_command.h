// File: tools/report_command.h
// report.html for the folders that `parallax sweep`/`merge` and `parallax validate` write, and the
// `parallax report DIR` command that (re)writes it for any such folder. `parallax run` writes its
// own page (sim/experiment/output_folder.h). Pages: sim/report/report_pages.h; how to read them:
// docs/reports.md.
#pragma once

#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "sim/report/report_pages.h"

namespace parallax {

// DIR/report.html from DIR/sweep.json and DIR/results.csv (and the sweep file named in sweep.json,
// when it can still be read). Throws InputError naming the file when one is missing or malformed.
// `choice` picks the plotted metrics and log axes; a metric that is not a numeric results.csv column
// is bad input (InputError listing the numeric ones).
void write_sweep_report(const std::filesystem::path& dir, const SweepPlotChoice& choice = {});

// DIR/report.html from DIR/validation.json and DIR/validation.csv.
void write_validation_report(const std::filesystem::path& dir);

struct ReportOptions {
  std::string dir;
  SweepPlotChoice plot;  // --metric, --log-x, --log-y
};

// `parallax report DIR [--metric NAME]... [--log-x] [--log-y]`: a sweep folder (sweep.json) or a validated measurement folder
// (validation.json); anything else is bad input (exit 2).
CLI::App* add_report_subcommand(CLI::App& app, ReportOptions& options);
int report_command(const ReportOptions& options);

}  // namespace parallax
