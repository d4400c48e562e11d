// File: tools/bench_training.cpp
#include "tools/bench_training.h"

#include <ctime>
#include <cstdio>

#include <fmt/format.h>

#include "sim/experiment/experiment.h"
#include "sim/platform/fabric_bench.h"
#include "sim/report/console_table.h"
#include "sim/report/run_timing.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

TrainingBench::TrainingBench(CLI::App& bench) {
  cmd_ = bench.add_subcommand("training", "A 3,072-GPU training step (GPT-1T, tp 8 x pp 64 x dp 6): wall time and memory");
  cmd_->add_option("--scenario", scenarios_, "training scenarios (repeatable)")->capture_default_str();
  cmd_->add_option("--hardware", hardware_, "hardware presets each scenario runs on (repeatable; its nodes kept)")
      ->capture_default_str();
}

int TrainingBench::run() const {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& file : scenarios_) {
    for (const std::string& preset : hardware_) {
      const Scenario sc = load_scenario_file(file, {"hardware.preset=" + preset, "output.trace=false"});
      if (sc.workload_kind != "training")
        throw std::invalid_argument(fmt::format("{}: workload kind '{}', not training", file, sc.workload_kind));
      const WallClock wall;
      const std::clock_t cpu0 = std::clock();
      const Result r = run_experiment(sc, ExperimentContext{});
      const double cpu_s = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
      rows.push_back({sc.name, preset, fmt::format("{}", r.summary.at("gpus").get<int64_t>()),
                      fmt::format("{:.3f}", r.summary.at("step_time_s").get<double>()),
                      fmt::format("{:.1f}", r.summary.at("tflops_per_gpu").get<double>()),
                      fmt::format("{}", r.summary.at("step_tasks").get<uint64_t>()), format_seconds(wall.elapsed_s()),
                      format_seconds(cpu_s), fmt::format("{:.0f}", peak_rss_mib())});
      std::fflush(stdout);
    }
  }
  std::fputs(format_table({"scenario", "hardware", "GPUs", "step s", "TFLOP/s/GPU", "step tasks", "wall", "CPU",
                           "peak RSS MiB"},
                          rows)
                 .c_str(),
             stdout);
  std::printf("\nOne step each, simulated in-process (no outputs); peak RSS is the process's so far. One core.\n");
  return 0;
}

}  // namespace parallax
