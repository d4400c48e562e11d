// File: tools/bench_scale.h
// `parallax bench flows` (the flow solver from 1e3 to 1e6 concurrent flows), `parallax bench
// overlap` (wall time of the 288-configuration overlap run) and `parallax bench overload` (a
// serverless run far past its capacity, per policy: tools/bench_overload.h). Registered on the `bench` command by
// one call; each prints a table and the command that reproduces it. docs/performance.md.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "tools/bench_overload.h"

namespace parallax {

class ScaleBenchmarks {
 public:
  explicit ScaleBenchmarks(CLI::App& bench);
  bool parsed() const;
  int run() const;  // the one that was parsed

 private:
  int run_flows() const;
  int run_overlap() const;

  CLI::App* flows_ = nullptr;
  CLI::App* overlap_ = nullptr;
  CLI::App* overload_ = nullptr;
  OverloadBenchOptions overload_options_;
  uint64_t flow_events_ = 20000;
  uint64_t max_flows_ = 1000000;
  std::string overlap_scenario_ = "scenarios/overlap/compass-288.yaml";
  int overlap_repeats_ = 3;
};

}  // namespace parallax
