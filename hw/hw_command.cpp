// File: hw/hw_command.cpp
#include "hw/hw_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "hw/calibration_output.h"
#include "hw/calibration_summary.h"
#include "hw/cuda_error_message.h"
#include "hw/hw_backend.h"
#include "sim/experiment/version.h"
#include "sim/report/atomic_file.h"
#include "sim/scenario/model_catalog_reader.h"

namespace parallax::hw {

namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size() && !s.empty()) {
    const size_t end = std::min(s.find(',', pos), s.size());
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

PlanOptions plan_options(const HwOptions& o) {
  PlanOptions p;
  p.quick = o.quick;
  p.families = split_commas(o.families);
  for (const CatalogModel& m : embedded_model_catalog().models)
    p.models.push_back({m.name, m.param_bytes(), static_cast<int>(m.layers.size()), m.flops()});
  return p;
}

SweepPlan plan_or_bad_input(const HwOptions& o, const DeviceFacts& facts) {
  try {
    return make_sweep_plan(plan_options(o), facts);
  } catch (const std::invalid_argument& e) {
    throw InvalidHwInput(e.what());
  }
}

int dry_run(const HwOptions& o) {
  DeviceFacts facts = DeviceFacts::h200();
  std::string source = "no GPU here: planned for an H200 (132 SMs)";
  if (backend_built()) {
    try {
      facts = device_facts(o.device);
      source = fmt::format("planned for GPU {} ({}, {} SMs)", o.device, facts.name, facts.sms);
    } catch (const HardwareUnavailable&) {
    }
  }
  const SweepPlan plan = plan_or_bad_input(o, facts);
  std::printf("%s\n", source.c_str());
  for (const PlanCase& c : plan.cases) {
    std::printf("%-12s %-48s reps %3d  est %7.3f s  %s\n", c.family.c_str(), c.id.c_str(), c.reps, c.estimated_seconds,
                c.config_string().c_str());
    if (!c.metrics.empty()) {
      std::string rows;
      for (const TrialMetric& m : c.metrics) rows += (rows.empty() ? "" : ", ") + m.name + " (" + m.unit + ")";
      std::printf("%-12s   one real-time run; rows: %s\n", "", rows.c_str());
    }
  }
  std::printf("%zu cases", plan.cases.size());
  for (std::string_view f : kMeasuredFamilies)
    if (plan.count(f) > 0) std::printf(", %s %zu", std::string(f).c_str(), plan.count(f));
  std::printf("; estimated %.0f s (setup %.0f s)\n", plan.estimated_seconds(), plan.setup_seconds);
  return 0;
}

int calibrate(const HwOptions& o) {
  if (o.out_dir.empty()) throw InvalidHwInput("parallax hw calibrate needs --out DIR (or --dry-run)");
  const DeviceFacts facts = device_facts(o.device);
  const SweepPlan plan = plan_or_bad_input(o, facts);
  std::fprintf(stderr, "%zu cases on GPU %d (%s), estimated %.0f s\n", plan.cases.size(), o.device, facts.name.c_str(),
               plan.estimated_seconds());
  size_t done = 0;
  CalibrationResult result = run_plan(plan, o.device, kParallaxGitCommit, [&](const CaseOutcome& c) {
    ++done;
    if (c.ok)
      std::fprintf(stderr, "[%3zu/%zu] %-48s %.2f s\n", done, plan.cases.size(), c.plan_case->id.c_str(), c.seconds);
    else
      std::fprintf(stderr, "[%3zu/%zu] %-48s FAILED: %s\n", done, plan.cases.size(), c.plan_case->id.c_str(),
                   c.error.c_str());
  });
  const std::filesystem::path dir(o.out_dir);
  write_file_atomically(dir / "measurements.csv", models::format_measurements_csv(result.rows));
  write_file_atomically(dir / "provenance.json", format_provenance_json(result.provenance, result.rows.size()));
  std::string failures;
  for (const CaseOutcome& f : result.failures) failures += f.plan_case->id + ": " + f.error + '\n';
  std::string summary = calibration_summary(result.rows);
  if (!result.failures.empty()) summary += fmt::format("{} cases failed (failures.txt)\n", result.failures.size());
  write_file_atomically(dir / "summary.txt", summary);
  if (!failures.empty()) write_file_atomically(dir / "failures.txt", failures);
  std::printf("%s", summary.c_str());
  return result.failures.empty() ? 0 : 1;
}

}  // namespace

CLI::App* add_hw_subcommand(CLI::App& app, HwOptions& o) {
  CLI::App* hw = app.add_subcommand("hw", "Measure the real GPU (CUDA backend; docs/hardware.md)");
  CLI::App* info = hw->add_subcommand("info", "List the CUDA GPUs, or say that there is none");
  info->callback([&o] { o.action = "info"; });
  CLI::App* cal = hw->add_subcommand("calibrate", "Run the calibration sweep; write DIR/measurements.csv");
  cal->add_option("--out", o.out_dir, "output folder (measurements.csv, provenance.json, summary.txt)");
  cal->add_flag("--quick", o.quick, "a smaller sweep (about a minute on an H200)");
  cal->add_option("--families", o.families, "comma-separated subset: gemm,copy,launch,corun,sm_scaling,swap,interdecom,intrafusion (both: overlap),colocate,serverless,multiplex");
  cal->add_option("--device", o.device, "CUDA device index")->check(CLI::Range(0, 1023))->capture_default_str();
  cal->add_flag("--dry-run", o.dry_run, "print the plan and its time estimate; measure nothing");
  cal->callback([&o] { o.action = "calibrate"; });
  return hw;
}

int hw_command(const HwOptions& o) {
  try {
    if (o.action == "info") {
      std::printf("%s", describe_gpus().c_str());
      return 0;
    }
    if (o.action == "calibrate") return o.dry_run ? dry_run(o) : calibrate(o);
    if (!backend_built()) throw HardwareUnavailable("this build has no CUDA backend (configure with -Dcuda=enabled where nvcc is installed)");
    std::printf("CUDA backend built; use `parallax hw info` or `parallax hw calibrate --out DIR`\n");
    return 0;
  } catch (const HardwareUnavailable& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kNoGpuExitCode;
  } catch (const InvalidHwInput& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}

}  // namespace parallax::hw
