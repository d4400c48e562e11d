// File: hw/overlap_trial.h
// The overlap families of the calibration sweep (interdecom, intrafusion; docs/hardware.md): one
// GEMM + collective pair of a tensor-parallel group as the SAME task graph sim/policies/overlap
// builds for the strategy (overlap_schedule), run through TaskGraphRun on any Platform with ONE
// GPU. `parallax hw calibrate` runs it on CudaPlatform; `parallax validate` on SimPlatform.
//
// One GPU has no link to send over, so each ring step's hop (the bytes this GPU would send) is a
// copy kernel on the communication SMs: for intrafusion and interdecom the graph's own comm
// partition of comm_sms SMs (TaskGraphRun's per-step HBM kernel, moving 2 bytes of HBM per byte
// sent); for sequential, whose graph has no comm partition, a kernel limited to comm_sms SMs on
// the whole GPU after the step's handshake. The GEMM kernels keep the graph's FLOPs and bytes.
//
//   OverlapTrial t = overlap_trial_from(row);
//   double s = run_overlap_trial(platform, t, [&] { engine.run(); });   // end-to-end seconds
#pragma once

#include <functional>
#include <vector>

#include "hw/trial_config.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/policies/overlap/task_graph_run.h"

namespace parallax::hw {

struct OverlapTrialGraph {
  std::vector<OverlapTask> tasks;
  int comm_sms = 0;  // TaskGraphRun's comm partition (0: none, sequential)
};

// The strategy's graph for the trial's tp-GPU group, made to run on GPU 0 alone (above).
// std::invalid_argument for a problem the overlap models refuse (e.g. m not divisible by tp·d).
OverlapTrialGraph overlap_trial_graph(const OverlapTrial& t);

// The green-context rules of the trial's GPU, for a SimPlatform standing in for it.
GpuPartitioning overlap_trial_rules(const OverlapTrial& t);

// Runs the graph on `platform`'s GPU 0 from now; `run` drives the platform until idle. Returns the
// graph's end-to-end seconds. std::logic_error if the graph did not finish.
double run_overlap_trial(Platform& platform, const OverlapTrial& t, const std::function<void()>& run);

}  // namespace parallax::hw
