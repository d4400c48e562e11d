// File: hw/colocate_trial.h
// The colocate family of the calibration sweep (docs/hardware.md): one LS inference service and
// one BE job sharing one GPU under a colocation policy, driven by the SAME ColocationNode and
// policy objects on any Platform. `parallax hw calibrate` runs a trial on CudaPlatform in real
// time; `parallax validate` runs the same trial on SimPlatform and compares. Everything that
// defines a trial is in its config keys, so a measurement row can be replayed from the CSV alone.
//
// The node sees the GPU as the rates in the config (`flops_per_s`, `hbm_Bps`): the FLOP/s and
// bytes/s at which a launched KernelProfile is executed. On CudaPlatform that is the FP32 rate of
// the tunable-intensity kernel (its kernels are FP32 FMAs, not tensor-core GEMMs), so the plan
// passes DeviceFacts::fp32_flops. LS load and SLO are given relative to the LS request's isolated
// time under those rates (`ls_load` = arrival rate x solo time, `ls_slo_x_solo`), so a plan needs
// no model arithmetic.
//
//   ColocateTrial t = colocate_trial_from(row);          // DataError at the row's file:line
//   ColocateOutcome o = run_colocate_trial(platform, t, false, {}, [&] { engine.run(); });
//   colocate_metric(o, "ls_p99_latency_s");
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/calibration_data/measurement_csv.h"
#include "models/kernel_interference.h"
#include "sim/platform/platform.h"

namespace parallax::hw {

// Policies that run on one real GPU. Left out: mig (MIG layouts are never changed), sgdrc
// (re-sizes its partitions at every LS kernel while BE kernels run, which green contexts cannot
// do, and colours DRAM channels, which needs a patched driver). docs/hardware.md.
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

// The config keys of a trial, in a fixed order (the row adds `metric`).
std::vector<std::pair<std::string, std::string>> colocate_trial_config(const ColocateTrial& t);
ColocateTrial colocate_trial_from(const models::Measurement& row);

// The metrics a trial reports, each with its unit; be_throughput only for policies that run BE.
struct TrialMetric {
  std::string name;
  std::string unit;
};
std::vector<TrialMetric> colocate_metrics(std::string_view policy);

struct ColocateOutcome {
  double ls_p50_latency_s = 0, ls_p99_latency_s = 0, ls_slo_attainment = 0;
  double be_throughput = 0;  // BE passes per second of the trial's duration
  double ls_solo_s = 0;
  int64_t ls_requests = 0;
};
double colocate_metric(const ColocateOutcome& o, std::string_view metric);

// Runs the trial on `platform`, starting now: arrivals are shifted to start at platform.now().
// `run` drives the platform until it is idle. interference_on: the node slows co-running kernels
// by `interference` (the simulator's model); false on hardware, where co-running kernels slow
// each other by themselves. Throws std::logic_error if an LS request never finished.
ColocateOutcome run_colocate_trial(Platform& platform, const ColocateTrial& t, bool interference_on,
                                   const InterferenceCoefficients& interference, const std::function<void()>& run);

}  // namespace parallax::hw
