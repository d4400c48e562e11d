// File: tools/run_command.h
// `parallax run`: load a scenario, simulate it, print the tables, write the outputs.
#pragma once

#include <string>

#include "sim/experiment/run_options.h"

namespace parallax {

// The help of `run --out`: what each workload kind writes there.
std::string run_out_help();
std::string run_chakra_out_help();

// Returns the process exit code: 0 ok, 2 bad input, 1 internal failure.
int run_command(const RunOptions& options);

}  // namespace parallax
