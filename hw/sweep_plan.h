// File: hw/sweep_plan.h
// Which measurements `parallax hw calibrate` takes, as plain data: one PlanCase per row of
// measurements.csv, with its family, stable case id, the config keys of
// docs/hardware.md (the measurement-schema), and an estimate of how long it takes on the device
// (repetitions included). The CUDA side only executes a plan; everything about which cases, how
// many and how long is decided here, without a GPU, so it is tested in CI.
//
//   SweepPlan plan = make_sweep_plan({.quick = true}, DeviceFacts::h200());
//   plan.estimated_seconds();   // < 60 for --quick on an H200
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hw/trial_config.h"

namespace parallax::hw {

// The families this version measures, in the order they run.
// "overlap" in PlanOptions::families names both overlap families (interdecom, intrafusion).
inline constexpr std::string_view kMeasuredFamilies[] = {"gemm",        "copy",     "launch",     "corun",
                                                         "sm_scaling",  "swap",     "interdecom", "intrafusion",
                                                         "colocate",    "serverless", "multiplex"};

// What the plan needs to know about the GPU. h200() gives the figures used for a dry run.
struct DeviceFacts {
  std::string name = "NVIDIA H200";
  int sms = 132;
  int green_min_sms = 8;        // CUdevSmResource::minSmPartitionSize
  int green_multiple_sms = 8;   // CUdevSmResource::smCoscheduledAlignment
  double peak_flops = 989e12;   // dense bf16 tensor
  double fp32_flops = 66.9e12;  // CUDA-core FMA: 132 SMs x 128 lanes x 2 x 1.98 GHz
  double hbm_Bps = 4.8e12;
  double host_link_Bps = 55e9;  // PCIe Gen5 x16, pinned, one direction
  int64_t memory_bytes = 141'000'000'000;
  static DeviceFacts h200() { return {}; }
};

struct PlanOptions {
  bool quick = false;
  std::vector<std::string> families;  // empty: every measured family
  // Catalog models (name, parameter bytes, layers, FLOPs per sample) for the swap and multiplex
  // families; filled by the caller from the embedded catalog so that this file stays free of YAML.
  struct Model {
    std::string name;
    int64_t bytes = 0;
    int layers = 0;
    double flops = 0;
  };
  std::vector<Model> models;
};

struct PlanCase {
  std::string family;
  std::string id;  // unique in the plan, e.g. "gemm/bf16/4096x4096x4096"
  std::vector<std::pair<std::string, std::string>> config;  // schema keys, in schema order
  int warmup = 0;
  int reps = 0;
  double estimated_seconds = 0;  // warm-up and reps included
  // colocate, serverless, multiplex: one run (a trial in real time) gives one row per metric;
  // empty for the other families (one row, the case's time in s).
  std::vector<TrialMetric> metrics;

  // The value of `key` (std::invalid_argument naming the case and key when absent).
  const std::string& get(std::string_view key) const;
  int64_t get_int(std::string_view key) const;
  // "k1=v1;k2=v2" as the CSV writes it.
  std::string config_string() const;
};

// One row of measurements.csv that a case gives: its id and config (a metric's row: the case id
// + "/" + metric, the config + metric=...), and unit.
struct PlanRow {
  std::string id;
  std::vector<std::pair<std::string, std::string>> config;
  std::string metric;  // empty for a one-row case
  std::string unit;
};
std::vector<PlanRow> plan_rows(const PlanCase& c);

struct SweepPlan {
  std::vector<PlanCase> cases;
  double setup_seconds = 0;  // context creation, buffers, pinned host memory
  double estimated_seconds() const;
  size_t count(std::string_view family) const;
};

// Throws std::invalid_argument for an unknown family name (the message lists the measured ones).
SweepPlan make_sweep_plan(const PlanOptions& options, const DeviceFacts& device);

// Repetitions for a case whose one run takes `one_s`: enough for a stable median within a
// per-case time target (at least 5, at most 200).
int reps_for(double one_s, double target_s);

}  // namespace parallax::hw
