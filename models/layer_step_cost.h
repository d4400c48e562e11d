// File: models/layer_step_cost.h
// A training step of a Megatron-style model (megatron_layer.h) priced twice: under the
// Megatron-LM baseline (every GEMM + collective pair sequential: the GEMM, then the collective)
// and under the unified selector's per-operator choice (overlap_selector.h: the fastest of
// sequential, IntraFusion single/double ring and InterDecom at d*). Kernels that run alone cost
// the same in both. One micro-batch, forward + backward, on one GPU of the TP group:
//
//   layer_s = Σ_ops op_s          step_s = layers · layer_s          speedup = baseline / selected
//
// Example: a layer of one pair (sequential 3 ms, selector's best 2 ms) and one 1 ms kernel, 10
// layers: baseline 40 ms, selected 30 ms, speedup 1.33.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "models/megatron_layer.h"
#include "models/overlap_selector.h"

namespace parallax::models {

struct LayerOpCost {
  const LayerOp* op = nullptr;  // borrowed from the list passed in
  double baseline_s = 0.0;      // sequential for a pair; the kernel's time otherwise
  OverlapStrategy selected = OverlapStrategy::sequential;  // pairs only
  int64_t degree = 0;           // InterDecom's d* when selected, else 0
  double selected_s = 0.0;
};

struct LayerStepCost {
  std::vector<LayerOpCost> ops;  // in the list's order
  double forward_baseline_s = 0.0, backward_baseline_s = 0.0;
  double forward_selected_s = 0.0, backward_selected_s = 0.0;
  double layer_baseline_s = 0.0, layer_selected_s = 0.0;
  double step_baseline_s = 0.0, step_selected_s = 0.0;  // × layers
  double speedup = 1.0;                                  // step_baseline_s / step_selected_s
};

// `ops` must outlive the result (LayerOpCost::op points into it). Throws std::invalid_argument
// for layers < 1.
LayerStepCost layer_step_cost(std::span<const LayerOp> ops, int64_t layers, const OverlapMachine& machine,
                              const OverlapParams& params);

}  // namespace parallax::models
