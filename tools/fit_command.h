// File: tools/fit_command.h
// `parallax fit` and `parallax validate` (docs/calibration.md):
//   fit DIR [--hardware PRESET] [--out FILE]           measurements.csv → calibration YAML
//   fit --nccl-tests LOG... --hardware PRESET [--op OP] [--gpus P] [--nodes N] [--out FILE]
//                                                      nccl-tests output → a collective fit
//   validate DIR [--calibration FILE] [--hardware PRESET]
//                                                      per-family error table, DIR/validation.csv/json
// Bad input (a malformed row, a missing file) exits 2 naming file:line.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace parallax {

struct FitOptions {
  std::string dir;         // holds measurements.csv
  std::vector<std::string> nccl_tests;  // nccl-tests logs instead of DIR
  std::string hardware;    // preset; default from the measured GPU's name
  std::string op;          // nccl-tests: default from the log's name or text
  int64_t gpus = 0;        // nccl-tests: default the log's rank lines
  int64_t nodes = 0;       // nccl-tests: default the hosts of the log's rank lines, else 1
  std::string out;         // default results/calibration/<gpu>.yaml
};

struct ValidateOptions {
  std::string dir;
  std::string calibration;  // evaluate this file on every row instead of fitting the training rows
  std::string hardware;
};

CLI::App* add_fit_subcommand(CLI::App& app, FitOptions& options);
CLI::App* add_validate_subcommand(CLI::App& app, ValidateOptions& options);

int fit_command(const FitOptions& options);
int validate_command(const ValidateOptions& options);

}  // namespace parallax
