// File: hw/serverless_trial.h
// The serverless family of the calibration sweep (docs/hardware.md): a ServerlessNode under a
// serverless policy (Torpor's by default) on one GPU, serving a few catalog models whose weights
// live in host memory (pinned on CudaPlatform) and are swapped in over the real copy path, while
// a short seeded trace (Poisson arrivals per function, popularity 1/(i+1)) is replayed in real
// time. The same trial runs on SimPlatform for `parallax validate`. Every parameter is a config
// key of the measurement row.
//
// Kernels: the node launches each layer as `compute_s x peak_flops` FLOPs of the platform's GPU;
// the catalog's compute_s for `gpu_kind` and a platform whose peak_flops is the rate its kernels
// really reach (on CudaPlatform the intensity kernel's FP32 rate, `flops_per_s`) make the layers
// take their catalog time.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hw/colocate_trial.h"
#include "models/calibration_data/measurement_csv.h"
#include "sim/platform/platform.h"

namespace parallax::hw {

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

std::vector<std::pair<std::string, std::string>> serverless_trial_config(const ServerlessTrial& t);
ServerlessTrial serverless_trial_from(const models::Measurement& row);
std::vector<TrialMetric> serverless_metrics();

struct ServerlessOutcome {
  double p50_latency_s = 0, p99_latency_s = 0, slo_attainment = 0;
  double swaps = 0;  // model loads over PCIe
  int64_t requests = 0;
};
double serverless_metric(const ServerlessOutcome& o, std::string_view metric);

// Runs the trial on GPU 0 and host 0 of `platform`, arrivals shifted to start at platform.now();
// `run` drives the platform until it is idle. Every copy and kernel goes through the platform (no
// closed forms). `compute_scale` multiplies every layer's time as the node sees it: the simulator
// passes flops_per_s / (the rate the hardware's kernels reach), so that its kernels carry the
// FLOPs the hardware run launched, at the measured rate. Throws std::logic_error if a request
// was lost.
ServerlessOutcome run_serverless_trial(Platform& platform, const ServerlessTrial& t, const std::function<void()>& run,
                                       double compute_scale = 1.0);

}  // namespace parallax::hw
