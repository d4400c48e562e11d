// File: tools/run_command.h
// `parallax run`: load a scenario, simulate it, print the tables, write the outputs.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace parallax {

class RunProgress;

struct RunOptions {
  std::string scenario_path;           // empty: the embedded quickstart
  std::string out_dir;                 // empty: print only
  std::optional<uint64_t> seed;
  std::vector<std::string> overrides;  // --set dotted.path=value
  bool quiet = false;
  RunProgress* progress = nullptr;  // set by run_command when stderr is a terminal (tools/run_progress.h)
};

// The help of `run --out`: what each workload kind writes there.
std::string run_out_help();

// Returns the process exit code: 0 ok, 2 bad input, 1 internal failure.
int run_command(const RunOptions& options);

}  // namespace parallax
