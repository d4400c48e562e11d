// File: tools/bench_training.h
// `parallax bench training`: one training step at cluster scale (by default the 3,072-GPU GPT-1T
// layout of scenarios/training/gpt-1t-3072-dgx-a100.yaml) simulated in-process, no outputs
// written, with its wall time, CPU, step tasks and peak RSS (docs/training.md "Speed"). With
// --gpus, each scenario grown by data parallelism to each GPU count (the cluster-scale benchmark:
// docs/performance.md "Training step at scale").
// Registered on the `bench` command by one call.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
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
  CLI::Option* hardware_option_ = nullptr;
  std::vector<int64_t> gpus_;
};

}  // namespace parallax
