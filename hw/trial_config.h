// File: hw/trial_config.h
// What defines a colocate or serverless trial of the calibration sweep (docs/hardware.md), as
// plain data: the sweep plan (sweep_plan.cpp) writes it into a case's config keys, the hardware
// run and `parallax validate` read it back from the measurement row, so a row can be replayed
// from the CSV alone. The trials themselves: colocate_trial.h, serverless_trial.h.
//
// Colocate: the node sees the GPU as `flops_per_s` and `hbm_Bps`, the rates at which a launched
// KernelProfile is executed. On CudaPlatform that is the FP32 rate of the tunable-intensity kernel
// (its kernels are FP32 FMAs, not tensor-core GEMMs), so the plan passes DeviceFacts::fp32_flops.
// LS load and SLO are relative to the LS request's isolated time under those rates (`ls_load` =
// arrival rate x solo time, `ls_slo_x_solo`), so the plan needs no model arithmetic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/calibration_data/measurement_csv.h"

namespace parallax::hw {

// Colocation policies that run on one real GPU. Left out: mig (MIG layouts are never changed) and
// sgdrc (it re-sizes its partitions at every LS kernel while BE kernels run, which green contexts
// cannot do, and colours DRAM channels, which needs a patched driver).
inline constexpr std::string_view kRealtimeColocatePolicies[] = {"ls_alone", "mps", "static_split", "orion",
                                                                 "temporal"};

struct ColocateTrial {
  std::string policy;
  std::string ls_model = "resnet50";
  int ls_batch = 8;
  std::string be_model = "resnet152";
  int be_batch = 32;
  double ls_load = 0.3;        // LS arrival rate x LS solo time (Poisson arrivals)
  double ls_slo_x_solo = 5;    // SLO = this x LS solo time
  double duration_s = 1.5;     // LS arrivals and BE on [0, duration)
  uint64_t seed = 1;
  int static_ls_sms = 64;      // static_split's LS group
  int sms = 132;
  int green_min_sms = 8, green_multiple_sms = 8;
  double flops_per_s = 66.9e12;
  double hbm_Bps = 4.8e12;
  double launch_s = 5e-6;
};

// Serverless: a few catalog models, one function each, popularity 1/(i+1), Poisson arrivals.
struct ServerlessTrial {
  std::string policy = "torpor";
  std::vector<std::string> models{"resnet50", "resnet152", "bert_qa"};  // config: joined by '+'
  double rate_per_s = 20;         // all functions together
  double duration_s = 10;         // arrivals on [0, duration)
  uint64_t seed = 1;
  int64_t pool_bytes = int64_t{1536} << 20;  // the policy's GPU memory pool (forces evictions)
  std::string gpu_kind = "H200";  // whose catalog compute times the layers take
  double flops_per_s = 66.9e12;   // the rate launched FLOPs run at
  double launch_s = 5e-6;         // simulator: kernel launch delay when no fit gives one
  double host_link_Bps = 55e9;    // simulator: host-to-GPU bandwidth when no fit gives one
};

// The config keys, in a fixed order (a row adds `metric`).
std::vector<std::pair<std::string, std::string>> colocate_trial_config(const ColocateTrial& t);
std::vector<std::pair<std::string, std::string>> serverless_trial_config(const ServerlessTrial& t);
// From a row (or a plan case made into one); DataError at the row's file:line.
ColocateTrial colocate_trial_from(const models::Measurement& row);
ServerlessTrial serverless_trial_from(const models::Measurement& row);

// The metrics a trial reports, one measurement row each.
struct TrialMetric {
  std::string name;
  std::string unit;
  bool operator==(const TrialMetric&) const = default;
};
// be_throughput only for policies that run BE.
std::vector<TrialMetric> colocate_metrics(std::string_view policy);
std::vector<TrialMetric> serverless_metrics();

}  // namespace parallax::hw
