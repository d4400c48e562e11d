// File: hw/trial_config.h
// What defines a colocate, serverless, overlap or multiplex trial of the calibration sweep (docs/hardware.md), as
// plain data: the sweep plan (sweep_plan.cpp) writes it into a case's config keys, the hardware
// run and `parallax validate` read it back from the measurement row, so a row can be replayed
// from the CSV alone. The trials themselves: colocate_trial.h, serverless_trial.h,
// overlap_trial.h, multiplex_trial.h.
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

// Overlap (families interdecom and intrafusion): one tensor-parallel GEMM + collective pair of a
// `tp`-GPU group as the task graph sim/policies/overlap builds for `strategy` (sequential,
// intrafusion, interdecom with degree d), run on ONE GPU: every ring step's hop (the bytes this GPU
// sends) is the copy kernel on `comm_sms` SMs standing in for the link (2 bytes of HBM traffic per
// byte sent). The graph is built from the trial's own rates (flops_per_s: the intensity kernel's
// FP32 rate, which the GEMM kernels run at on hardware), so both platforms run the same kernels.
inline constexpr std::string_view kOverlapStrategies[] = {"sequential", "intrafusion", "interdecom"};

struct OverlapTrial {
  std::string strategy = "interdecom";
  std::string op = "gemm_rs";     // models::OverlapOp name
  int64_t m = 8192, n = 8192, k = 2048;  // the logical GEMM (per GPU: m x n x k/tp for gemm_rs)
  int tp = 8;                     // GPUs of the modelled group (ring steps per collective: tp - 1)
  int d = 1;                      // interdecom's degree (1 for the others)
  int comm_sms = 16;              // SMs of the copy kernel standing in for the link
  int sms = 132;
  int green_min_sms = 8, green_multiple_sms = 8;
  double flops_per_s = 66.9e12;
  double hbm_Bps = 4.8e12;
  double launch_s = 5e-6;
};
// The family the strategy's rows belong to: "interdecom" or "intrafusion" (sequential included:
// stolen_sms = 0, as the intrafusion family's baseline).
std::string_view overlap_family(const OverlapTrial& t);
// Bytes one GPU sends over the whole collective: S·(tp−1)/tp (S = m·n·2 for gemm_rs and gemm_ar's
// reduce-scatter half; m·k·2 for ag_gemm).
int64_t overlap_copy_bytes(const OverlapTrial& t);

// Multiplex: several catalog inference services on one GPU under a multiplex policy
// (MultiplexNode), Poisson arrivals of `rates_per_s` each, in real time on hardware. The node sees
// the GPU at the trial's rates (as colocate's: the intensity kernel's FP32 rate).
// Left out on one GPU: mig (the backend never changes MIG layouts, and green contexts have no MIG
// profiles for its layout search).
inline constexpr std::string_view kRealtimeMultiplexPolicies[] = {"timeslice", "mps", "elastic"};

struct MultiplexTrial {
  std::string policy = "elastic";
  std::vector<std::string> models{"resnet50", "bert_qa"};  // config: joined by '+'
  std::vector<double> rates_per_s{60, 30};                 // per service; config: joined by '+'
  int max_batch = 8;
  double timeout_s = 2e-3;
  double slo_x_solo = 4;     // each service's SLO = this x its batch-of-max_batch solo time
  double duration_s = 1.0;   // arrivals on [0, duration)
  uint64_t seed = 1;
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
std::vector<std::pair<std::string, std::string>> overlap_trial_config(const OverlapTrial& t);
OverlapTrial overlap_trial_from(const models::Measurement& row);
std::vector<std::pair<std::string, std::string>> multiplex_trial_config(const MultiplexTrial& t);
MultiplexTrial multiplex_trial_from(const models::Measurement& row);

// The metrics a trial reports, one measurement row each.
struct TrialMetric {
  std::string name;
  std::string unit;
  bool operator==(const TrialMetric&) const = default;
};
// be_throughput only for policies that run BE.
std::vector<TrialMetric> colocate_metrics(std::string_view policy);
std::vector<TrialMetric> serverless_metrics();
std::vector<TrialMetric> multiplex_metrics();

}  // namespace parallax::hw
