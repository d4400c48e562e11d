// File: tools/compare_command.h
// `parallax compare DIR DIR...`: reads run folders (summary.json, every *.csv, timing.json when
// there), compares them metric by metric against the first (sim/report/run_comparison.h), prints
// the metrics that differ and, with --out, writes compare.csv and report.html there.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace parallax {

struct CompareOptions {
  std::vector<std::string> dirs;
  std::string out_dir;
  bool all = false;  // print identical metrics too
};

CLI::App* add_compare_subcommand(CLI::App& app, CompareOptions& options);

// 0 when the folders were compared (whether or not they differ); a folder without summary.json, or
// fewer than two folders, is bad input (InputError, exit 2).
int compare_command(const CompareOptions& options);

}  // namespace parallax
