// File: tools/bench_training.cpp
#include "tools/bench_training.h"

#include <cmath>
#include <ctime>
#include <cstdio>

#include <fmt/format.h>

#include "sim/experiment/experiment.h"
#include "sim/io/input_error.h"
#include "sim/platform/fabric_bench.h"
#include "sim/report/console_table.h"
#include "sim/report/run_timing.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

TrainingBench::TrainingBench(CLI::App& bench) {
  cmd_ = bench.add_subcommand("training",
                              "A training step at cluster scale (default: the 3,072-GPU GPT-1T, tp 8 x pp 64 x dp 6; "
                              "--gpus: a scenario grown by data parallelism): wall time, CPU, tasks and memory");
  cmd_->add_option("--scenario", scenarios_, "training scenarios (repeatable)")->capture_default_str();
  hardware_option_ = cmd_->add_option("--hardware", hardware_,
                                      "hardware presets each scenario runs on (repeatable; its nodes kept; with --gpus: "
                                      "the scenario's own unless given)")
                         ->capture_default_str();
  cmd_->add_option("--gpus", gpus_,
                   "run each scenario at these GPU counts, small to large (repeatable): nodes = GPUs / GPUs per node, "
                   "dp = GPUs / (tp·pp), global_batch kept per replica")
      ->check(CLI::Range(1, 1 << 20));
}

namespace {

[[noreturn]] void bad_gpus(const std::string& message) {
  throw InputError(SourceLocation{"<command line>", 0, 0}, "--gpus", "--gpus: " + message);
}

// The overrides that grow `sc` (as loaded) to `gpus` GPUs by data parallelism, weak scaling.
std::vector<std::string> scaled_to(const Scenario& sc, int64_t gpus) {
  const TrainingConfig& c = sc.training.config;
  const auto per_node = static_cast<int64_t>(sc.hardware.gpus.size());
  const int64_t model_parallel = c.tp * c.pp;
  if (gpus % per_node != 0 || gpus % model_parallel != 0 || (gpus / model_parallel) % c.ep != 0)
    bad_gpus(fmt::format("{} GPUs for '{}': not a multiple of {} GPUs per node, of tp·pp = {} and of tp·pp·ep = {}",
                         gpus, sc.name, per_node, model_parallel, model_parallel * c.ep));
  const int64_t dp = gpus / model_parallel;
  return {fmt::format("hardware.nodes={}", gpus / per_node), fmt::format("workload.parallel.dp={}", dp),
          fmt::format("workload.global_batch={}", c.global_batch / c.dp * dp)};
}

}  // namespace

int TrainingBench::run() const {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& file : scenarios_) {
    // Points: each preset with the scenario's nodes, or (--gpus) each GPU count.
    std::vector<std::vector<std::string>> points;
    if (gpus_.empty()) {
      for (const std::string& preset : hardware_) points.push_back({"hardware.preset=" + preset});
    } else {
      const std::vector<std::string> presets = hardware_option_->count() > 0 ? hardware_ : std::vector<std::string>{""};
      for (const std::string& preset : presets) {
        std::vector<std::string> base;
        if (!preset.empty()) base.push_back("hardware.preset=" + preset);
        const Scenario sc = load_scenario_file(file, base);
        for (int64_t n : gpus_) {
          std::vector<std::string> sets = base;
          for (std::string& s : scaled_to(sc, n)) sets.push_back(std::move(s));
          points.push_back(std::move(sets));
        }
      }
    }
    double last_gpus = 0, last_cpu = 0;
    for (std::vector<std::string>& sets : points) {
      sets.push_back("output.trace=false");
      const Scenario sc = load_scenario_file(file, sets);
      if (sc.workload_kind != "training")
        throw std::invalid_argument(fmt::format("{}: workload kind '{}', not training", file, sc.workload_kind));
      const WallClock wall;
      const std::clock_t cpu0 = std::clock();
      const Result r = run_experiment(sc, ExperimentContext{});
      const double cpu_s = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
      const auto gpus = static_cast<double>(r.summary.at("gpus").get<int64_t>());
      // How the CPU grows from the previous point: the exponent of GPUs it scales as.
      std::string growth = "";
      if (last_gpus > 0 && gpus > last_gpus && last_cpu > 0)
        growth = fmt::format("GPUs^{:.2f}", std::log(cpu_s / last_cpu) / std::log(gpus / last_gpus));
      last_gpus = gpus;
      last_cpu = cpu_s;
      rows.push_back({sc.name, sc.hardware.name, fmt::format("{}", r.summary.at("gpus").get<int64_t>()),
                      fmt::format("{}", r.summary.at("parallel").at("dp").get<int64_t>()),
                      fmt::format("{:.3f}", r.summary.at("step_time_s").get<double>()),
                      fmt::format("{:.1f}", r.summary.at("tflops_per_gpu").get<double>()),
                      fmt::format("{}", r.summary.at("step_tasks").get<uint64_t>()), format_seconds(wall.elapsed_s()),
                      format_seconds(cpu_s), growth, fmt::format("{:.0f}", peak_rss_mib())});
      // Large points take minutes: each is reported as it finishes.
      std::fprintf(stderr, "bench training: %s, %s GPUs: %s CPU, %s wall\n", sc.name.c_str(), rows.back()[2].c_str(),
                   rows.back()[8].c_str(), rows.back()[7].c_str());
    }
  }
  std::fputs(format_table({"scenario", "hardware", "GPUs", "dp", "step s", "TFLOP/s/GPU", "step tasks", "wall", "CPU",
                           "CPU grows as", "peak RSS MiB"},
                          rows)
                 .c_str(),
             stdout);
  std::printf("\nOne step each, simulated in-process (no outputs); peak RSS is the process's so far (points run in "
              "order). One core.\n");
  return 0;
}

}  // namespace parallax
