// File: tools/bench_training.h
// `parallax bench training`: one training step at cluster scale (by default the 3,072-GPU GPT-1T
// layout of scenarios/training/gpt-1t-3072-dgx-a100.yaml) simulated in-process, no outputs
// written, with its wall time, CPU, step tasks and peak RSS (docs/training.md "Speed").
// Registered on the `bench` command by one call.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace parallax {

class TrainingBench {
 public:
  explicit TrainingBench(CLI::App& bench);
  bool parsed() const { return cmd_->parsed(); }
  int run() const;

 private:
  CLI::App* cmd_ = nullptr;
  std::vector<std::string> scenarios_{"scenarios/training/gpt-1t-3072-dgx-a100.yaml"};
  std::vector<std::string> hardware_{"dgx-a100", "dgx-h100"};
};

}  // namespace parallax
