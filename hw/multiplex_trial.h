// File: hw/multiplex_trial.h
// The multiplex family of the calibration sweep (docs/hardware.md): several batched inference
// services sharing one GPU under a multiplex policy, driven by the SAME MultiplexNode and policy
// objects the simulator runs, on any Platform: `parallax hw calibrate` runs a trial on
// CudaPlatform in real time (elastic's partitions are green contexts, mps's thread limits are
// SM-limited grids, timeslice one batch at a time); `parallax validate` runs it on SimPlatform.
// The trial's parameters: hw/trial_config.h.
//
//   MultiplexTrial t = multiplex_trial_from(row);
//   MultiplexOutcome o = run_multiplex_trial(platform, t, [&] { engine.run(); });
//   multiplex_metric(o, "slo_attainment");
#pragma once

#include <functional>
#include <string_view>
#include <vector>

#include "hw/trial_config.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/platform/platform.h"
#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax::hw {

struct MultiplexOutcome {
  // goodput: requests within their SLO per second of the trial's duration (not of the node's
  // window, which on hardware would start at the platform's construction).
  double goodput_rps = 0, slo_attainment = 0, p50_latency_s = 0, p99_latency_s = 0;
  int64_t requests = 0;
};
double multiplex_metric(const MultiplexOutcome& o, std::string_view metric);

GpuPartitioning multiplex_trial_rules(const MultiplexTrial& t);

// The services of the trial: each catalog model's tile-level kernels at batch 1..max_batch
// (sim/policies/multiplex/service_kernels.h), its SLO = slo_x_solo x its max-batch time alone on the whole GPU.
std::vector<ServiceModel> multiplex_trial_services(const MultiplexTrial& t, const DeviceRates& rates);

// Runs the trial on `platform`'s GPU 0 from now (arrivals shifted to start at platform.now()).
// std::invalid_argument for an unknown policy or model; std::logic_error if a request never finished.
MultiplexOutcome run_multiplex_trial(Platform& platform, const MultiplexTrial& t, const std::function<void()>& run);

}  // namespace parallax::hw
