// File: models/ring_fit.h
// Calibrates the ring model of ring.h for a box whose GPUs all see the same per-GPU link
// bandwidth (NVSwitch: every hop of any ring is one GPU's NVLink bandwidth) from measured
// collective times: a base latency, a per-step latency and a bandwidth efficiency η, by
// relative linear least squares (Eigen QR). The model is linear in (base, α, 1/η):
//
//   t = base + steps·α + steps·(S/P)/(η·link_Bps)
//
// Each row is divided by its measured t so that small and large sizes weigh alike (relative
// error). If base or α would come out negative, the fit is redone with it pinned at 0.
#pragma once

#include <cstdint>
#include <span>

#include "models/collective_cost.h"
#include "models/ring.h"

namespace parallax::models {

struct CollectiveSample {
  CollectiveOp op = CollectiveOp::all_reduce;
  int64_t ranks = 0;
  double bytes = 0.0;       // nccl-tests' S
  double measured_s = 0.0;
};

struct RingFit {
  double link_Bps = 0.0;             // per-GPU link bandwidth (input)
  double base_latency_s = 0.0;
  double step_latency_s = 0.0;
  double bandwidth_efficiency = 1.0; // η: effective hop bandwidth = η·link_Bps

  // A uniform ring of `ranks` hops with the fitted numbers (LinkType::nvlink).
  RingParams ring(int64_t ranks) const;
};

// Throws std::invalid_argument on empty input or non-positive times/bandwidth.
RingFit fit_uniform_ring(std::span<const CollectiveSample> samples, double link_Bps);

}  // namespace parallax::models
