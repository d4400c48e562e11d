// File: sim/policies/overlap/overlap_machine.h
// A machine (any Platform) seen by the overlap models: the GPU's compute model (the fitted GEMM
// parameters where we have them, else the preset's peak/HBM with the default efficiency curve)
// and the rings of a tensor-parallel group of GPUs 0..tp−1, synthesised over the machine's paths
// (ring_synthesis.h): the best single ring and the best pair of rings, hops shared between them
// (ring_hops.h). Where nothing beats them these are the id order and its counter-rotating twin.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/overlap_problem.h"
#include "sim/platform/platform.h"
#include "sim/policies/overlap/pair_schedule.h"
#include "sim/policies/overlap/ring_hops.h"

namespace parallax {

// H100 / A100 SXM: models/calibrated_defaults.h (vidur fits) with the preset's sms, peak and HBM;
// any other GPU: GpuComputeParams defaults (tile 128×128, eta_max 0.75, k_half 256,
// eta_mem 0.8, 5 µs) with the preset's numbers [assumption: not fitted]. A GPU with a calibrated
// GemmEfficiency (scenario key `calibration:`) uses that curve instead.
models::GpuComputeParams overlap_gpu_params(const GpuSpec& gpu);

struct OverlapGroup {
  std::vector<int> order;          // the single ring's order (= single.order)
  std::vector<int> reverse_order;  // the double ring's second ring's order (= second.order)
  models::OverlapMachine machine;
  RingRoute single;                // the single ring and the path of each hop
  RingRoute first, second;         // the double ring's two rings
  // The pair-aware hierarchical schedule's rounds (pair_schedule.h) where the synthesis predicts
  // them faster than the double ring for the group's collective; the multi-path slot
  // (intrafusion_double_ring) then runs them (machine.pair_rounds has their params).
  std::vector<PairRound> pair_rounds;
  std::string ring_binding, double_ring_binding;  // the slowest hop, in words ("hierarchical: …")
};

// The group on GPUs 0..tp-1 of `platform` (its first GPU's compute model, its paths' rings).
// `chunk_bytes` > 0: the rings are picked for ring steps of that many bytes per GPU (an
// IntraFusion step moves S/tp), else for bandwidth (ring_synthesis.h). The pair schedule replaces
// the double ring when its all-gather of chunk_bytes·tp (1 GiB per GPU when chunk_bytes = 0: the
// bandwidth limit) is predicted strictly faster than the double ring's lock-step all-gather.
// Throws PlatformError when tp exceeds the machine's GPUs or tp < 1.
OverlapGroup overlap_group(Platform& platform, int64_t tp, double chunk_bytes = 0);

}  // namespace parallax
