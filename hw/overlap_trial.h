// File: hw/overlap_trial.h
// The overlap families of the calibration sweep (interdecom, intrafusion; docs/hardware.md): one
// GEMM + collective pair of a tensor-parallel group as the SAME task graph sim/policies/overlap
// builds for the strategy (overlap_schedule, a StepGraph), rank 0's part of it run through
// StepGraphRun on any Platform with ONE GPU. `parallax hw calibrate` runs it on CudaPlatform; `parallax validate` on SimPlatform.
//
// One GPU has no link to send over, so each ring step's hop (the bytes this GPU would send) is a
// copy kernel on the communication SMs: for intrafusion and interdecom the graph's own comm
// partition of comm_sms SMs (in place of the graph's per-step HBM kernel; 2 bytes of HBM per byte
// sent); for sequential, whose graph has no comm partition, a kernel limited to comm_sms SMs on
// the whole GPU after the step's handshake. The GEMM kernels keep the graph's FLOPs and bytes.
//
//   OverlapTrial t = overlap_trial_from(row);
//   double s = run_overlap_trial(platform, t, [&] { engine.run(); });   // end-to-end seconds
#pragma once

#include <functional>

#include "hw/trial_config.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/workload/step_graph.h"

namespace parallax::hw {

// The strategy's graph for the trial's tp-GPU group, made to run on GPU 0 alone (above): one rank,
// its comm_sms the graph's comm partition (0: none, sequential).
// std::invalid_argument for a problem the overlap models refuse (e.g. m not divisible by tp·d).
StepGraph overlap_trial_graph(const OverlapTrial& t);

// The green-context rules of the trial's GPU, for a SimPlatform standing in for it.
GpuPartitioning overlap_trial_rules(const OverlapTrial& t);

// Runs the graph on `platform`'s GPU 0 from now; `run` drives the platform until idle. Returns the
// graph's end-to-end seconds. std::logic_error if the graph did not finish.
double run_overlap_trial(Platform& platform, const OverlapTrial& t, const std::function<void()>& run);

}  // namespace parallax::hw
