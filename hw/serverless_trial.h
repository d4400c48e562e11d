// File: hw/serverless_trial.h
// The serverless family of the calibration sweep (docs/hardware.md): a ServerlessNode under a
// serverless policy (Torpor's by default) on one GPU, serving a few catalog models whose weights
// live in host memory (pinned on CudaPlatform) and are swapped in over the real copy path, while
// a short seeded trace (Poisson arrivals per function, popularity 1/(i+1)) is replayed in real
// time (parameters: hw/trial_config.h). The same trial runs on SimPlatform for `parallax validate`. Every parameter is a config
// key of the measurement row.
//
// Kernels: the node launches each layer described by its time (sim/policies/serverless/catalog_models.h
// on the hardware preset of `gpu_kind`: v100x4-gn6e, dgx-a100, dgx-h100 or h200x1); the platform realises it (CudaPlatform as the intensity kernel at
// CudaPlatformOptions::kernel_flops_per_s = the trial's `flops_per_s`, SimPlatform at its peak).
#pragma once

#include <functional>
#include <string_view>

#include "hw/trial_config.h"
#include "sim/platform/platform.h"

namespace parallax::hw {

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
