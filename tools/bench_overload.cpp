// File: tools/bench_overload.cpp
#include "tools/bench_overload.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/policies/serverless/policy_presets.h"
#include "sim/report/console_table.h"
#include "sim/io/input_error.h"
#include "tools/run_command.h"

namespace parallax {

int run_overload_bench(const OverloadBenchOptions& options) {
  std::vector<std::string> policies = options.policies;
  if (policies.empty())
    for (std::string_view p : serverless_policy_names()) policies.emplace_back(p);
  for (double d : options.durations_s)
    if (!(d > 0)) throw InputError({"command line", 0, 0}, "--duration", "--duration takes positive simulated seconds");
  // The trace path of an override resolves against the scenario's folder: give it absolute.
  const std::string trace = std::filesystem::absolute(options.trace).lexically_normal().string();
  std::vector<std::vector<std::string>> rows;
  for (const std::string& policy : policies) {
    for (double duration_s : options.durations_s) {
      RunOptions run;
      run.scenario_path = options.scenario;
      run.quiet = true;
      run.overrides = {"workload.trace.format=azure2019", "workload.trace.path=" + trace,
                       fmt::format("workload.duration_s={}", duration_s), "workload.policies=[" + policy + "]"};
      const auto t0 = std::chrono::steady_clock::now();
      const int rc = run_command(run);
      const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (rc != 0) return rc;
      rows.push_back({policy, fmt::format("{:g} s", duration_s), format_seconds(wall_s),
                      fmt::format("{:.2f}", wall_s / duration_s)});
    }
  }
  std::fputs(format_table({"policy", "simulated", "wall", "wall per simulated s"}, rows).c_str(), stdout);
  std::string durations;
  for (double d : options.durations_s) durations += fmt::format(" --duration {:g}", d);
  std::printf("\n%s with %s (azure2019), one core, no output files (parallax run --quiet).\n"
              "Command: parallax bench overload --scenario %s --trace %s%s\n",
              options.scenario.c_str(), options.trace.c_str(), options.scenario.c_str(), options.trace.c_str(),
              durations.c_str());
  return 0;
}

}  // namespace parallax
