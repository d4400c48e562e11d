// File: hw/colocate_trial.h
// The colocate family of the calibration sweep (docs/hardware.md): one LS inference service and
// one BE job sharing one GPU under a colocation policy, driven by the SAME ColocationNode and
// policy objects on any Platform. `parallax hw calibrate` runs a trial on CudaPlatform in real
// time; `parallax validate` runs the same trial on SimPlatform and compares. Everything that
// defines a trial is in its config keys, so a measurement row can be replayed from the CSV alone.
//
// The trial's parameters and metrics: hw/trial_config.h.
//
//   ColocateTrial t = colocate_trial_from(row);          // DataError at the row's file:line
//   ColocateOutcome o = run_colocate_trial(platform, t, false, {}, [&] { engine.run(); });
//   colocate_metric(o, "ls_p99_latency_s");
#pragma once

#include <functional>
#include <string_view>

#include "hw/trial_config.h"
#include "models/kernel_interference.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/platform/platform.h"

namespace parallax::hw {

struct ColocateOutcome {
  double ls_p50_latency_s = 0, ls_p99_latency_s = 0, ls_slo_attainment = 0;
  double be_throughput = 0;  // BE passes per second of the trial's duration
  double ls_solo_s = 0;
  int64_t ls_requests = 0;
};
double colocate_metric(const ColocateOutcome& o, std::string_view metric);

// The green-context rules of the trial's GPU (model "trial"), for a SimPlatform standing in for
// the device: SimPlatform(engine, spec, log, {colocate_trial_rules(t)}).
GpuPartitioning colocate_trial_rules(const ColocateTrial& t);

// Runs the trial on `platform`, starting now: arrivals are shifted to start at platform.now().
// The partitioning rules are the platform's (partitioning(0)); the rates are the trial's (its
// measured FP32 rate and HBM bandwidth, which the device cannot report).
// `run` drives the platform until it is idle. interference_on: the node slows co-running kernels
// by `interference` (the simulator's model); false on hardware, where co-running kernels slow
// each other by themselves. Throws std::logic_error if an LS request never finished.
ColocateOutcome run_colocate_trial(Platform& platform, const ColocateTrial& t, bool interference_on,
                                   const InterferenceCoefficients& interference, const std::function<void()>& run);

}  // namespace parallax::hw
