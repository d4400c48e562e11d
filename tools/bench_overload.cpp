// File: tools/bench_overload.cpp
#include "tools/bench_overload.h"

#include <sys/resource.h>

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

namespace {
// This process's user + system CPU seconds so far: on a shared machine the honest figure.
double process_cpu_s() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
}  // namespace

int run_overload_bench(const OverloadBenchOptions& options) {
  std::vector<std::string> policies = options.policies;
  if (policies.empty())
    for (std::string_view p : serverless_policy_names()) policies.emplace_back(p);
  for (double d : options.durations_s)
    if (!(d > 0)) throw InputError({"command line", 0, 0}, "--duration", "--duration takes positive simulated seconds");
  // The trace path of an override resolves against the scenario's folder: give it absolute.
  const std::string trace = std::filesystem::absolute(options.trace).lexically_normal().string();
  // One row per (policy, duration[, functions]); without --functions the Azure trace drives the
  // scenario's functions.
  const bool scaled = !options.functions.empty();
  const std::vector<int64_t> counts = scaled ? options.functions : std::vector<int64_t>{0};
  std::vector<std::vector<std::string>> rows;
  for (const std::string& policy : policies) {
    for (double duration_s : options.durations_s) {
      for (int64_t functions : counts) {
        RunOptions run;
        run.scenario_path = options.scenario;
        run.quiet = true;
        run.overrides = {fmt::format("workload.duration_s={}", duration_s), "workload.policies=[" + policy + "]"};
        if (scaled) {
          run.overrides.push_back(fmt::format("workload.functions={}", functions));
        } else {
          run.overrides.push_back("workload.trace.format=azure2019");
          run.overrides.push_back("workload.trace.path=" + trace);
        }
        const auto t0 = std::chrono::steady_clock::now();
        const double cpu0 = process_cpu_s();
        const int rc = run_command(run);
        const double cpu_s = process_cpu_s() - cpu0;
        const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (rc != 0) return rc;
        std::vector<std::string> row{policy, fmt::format("{:g} s", duration_s)};
        if (scaled) row.push_back(fmt::format("{}", functions));
        row.push_back(format_seconds(wall_s));
        row.push_back(format_seconds(cpu_s));
        row.push_back(fmt::format("{:.2f}", wall_s / duration_s));
        rows.push_back(std::move(row));
      }
    }
  }
  std::vector<std::string> header{"policy", "simulated"};
  if (scaled) header.emplace_back("functions");
  header.emplace_back("wall");
  header.emplace_back("CPU");
  header.emplace_back("wall per simulated s");
  std::fputs(format_table(header, rows).c_str(), stdout);
  std::string flags;
  for (double d : options.durations_s) flags += fmt::format(" --duration {:g}", d);
  for (int64_t f : options.functions) flags += fmt::format(" --functions {}", f);
  const std::string driven = scaled ? std::string("its own trace") : options.trace + " (azure2019)";
  std::printf("\n%s with %s, one core, no output files (parallax run --quiet).\n"
              "Command: parallax bench overload --scenario %s%s%s\n",
              options.scenario.c_str(), driven.c_str(), options.scenario.c_str(),
              scaled ? "" : (" --trace " + options.trace).c_str(), flags.c_str());
  return 0;
}

}  // namespace parallax
