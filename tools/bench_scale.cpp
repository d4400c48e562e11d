// File: tools/bench_scale.cpp
#include "tools/bench_scale.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <fmt/format.h>

#include "sim/platform/flow_churn.h"
#include "sim/report/console_table.h"
#include "tools/run_command.h"

namespace parallax {

namespace {

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

}  // namespace

ScaleBenchmarks::ScaleBenchmarks(CLI::App& bench) {
  flows_ = bench.add_subcommand("flows", "Flow solver: cost per completion with 1e3 .. 1e6 concurrent flows");
  flows_->add_option("--events", flow_events_, "completions replaced per point")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000'000'000}))
      ->capture_default_str();
  flows_->add_option("--max-flows", max_flows_, "largest N (powers of 10 from 1e3)")
      ->check(CLI::Range(uint64_t{1000}, uint64_t{10'000'000}))
      ->capture_default_str();
  overlap_ = bench.add_subcommand("overlap", "Wall time of the 288-configuration overlap run");
  overlap_->add_option("--scenario", overlap_scenario_, "overlap scenario")->capture_default_str();
  overlap_->add_option("--repeat", overlap_repeats_, "runs (the table shows each)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  overload_ = bench.add_subcommand("overload", "Serverless run far past its capacity: wall time per policy");
  overload_->add_option("--scenario", overload_options_.scenario, "serverless scenario")->capture_default_str();
  overload_->add_option("--trace", overload_options_.trace, "Azure Functions 2019 invocations file")->capture_default_str();
  overload_->add_option("--duration", overload_options_.durations_s, "simulated seconds (repeatable)")
      ->check(CLI::Range(1e-3, 1e6))
      ->capture_default_str();
  overload_->add_option("--policy", overload_options_.policies, "serverless policy (repeatable; default: all)");
  overload_->add_option("--functions", overload_options_.functions,
                        "the scenario's own trace with this many functions instead of --trace (repeatable)")
      ->check(CLI::Range(1, 1'000'000));
}

bool ScaleBenchmarks::parsed() const { return flows_->parsed() || overlap_->parsed() || overload_->parsed(); }

int ScaleBenchmarks::run() const {
  if (overload_->parsed()) return run_overload_bench(overload_options_);
  return flows_->parsed() ? run_flows() : run_overlap();
}

int ScaleBenchmarks::run_flows() const {
  std::vector<std::vector<std::string>> rows;
  for (FlowChurnShape shape : {FlowChurnShape::independent, FlowChurnShape::crossbar}) {
    for (uint64_t n = 1000; n <= max_flows_; n *= 10) {
      const FlowChurnResult r = run_flow_churn(shape, n, flow_events_);
      const double per_event_us = r.events > 0 ? 1e6 * r.cpu_s / static_cast<double>(r.events) : 0;
      const double classes_per_event =
          r.events > 0 ? static_cast<double>(r.classes_solved) / static_cast<double>(r.events) : 0;
      rows.push_back({to_string(shape), fmt::format("{}", n), fmt::format("{}", r.active_classes),
                      fmt::format("{}", r.events), format_seconds(r.setup_s), format_seconds(r.wall_s),
                      format_seconds(r.cpu_s),
                      fmt::format("{:.2f}", per_event_us), fmt::format("{:.1f}", classes_per_event),
                      fmt::format("{:.1f}", classes_per_event > 0 ? 1e3 * per_event_us / classes_per_event : 0)});
    }
  }
  std::fputs(format_table({"shape", "flows", "classes", "completions", "setup", "wall", "CPU", "CPU us/completion",
                           "classes re-solved/completion", "CPU ns/class re-solved"},
                          rows)
                 .c_str(),
             stdout);
  std::printf(
      "\nEach completion is replaced by a new flow at that instant, then the solver re-solves what changed;\n"
      "flows on one (src, dst) pair form one class. independent: N/4 separate link pairs; crossbar: 64 GPUs\n"
      "on one switch, every flow coupled. One core. Command: parallax bench flows --events %llu --max-flows %llu\n",
      static_cast<unsigned long long>(flow_events_), static_cast<unsigned long long>(max_flows_));
  return 0;
}

int ScaleBenchmarks::run_overlap() const {
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < overlap_repeats_; ++i) {
    RunOptions run;
    run.scenario_path = overlap_scenario_;
    run.quiet = true;
    const double cpu0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = run_command(run);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rc != 0) return rc;
    rows.push_back({fmt::format("{}", i + 1), format_seconds(wall), format_seconds(cpu_seconds() - cpu0)});
  }
  std::fputs(format_table({"run", "wall", "CPU"}, rows).c_str(), stdout);
  std::printf("\n%s: every configuration of the grid, all strategies, no output files (parallax run --quiet).\n"
              "Command: parallax bench overlap --scenario %s --repeat %d\n",
              overlap_scenario_.c_str(), overlap_scenario_.c_str(), overlap_repeats_);
  return 0;
}

}  // namespace parallax
