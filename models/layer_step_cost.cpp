// File: models/layer_step_cost.cpp
// Baseline vs selector over a layer's op list (layer_step_cost.h).
#include "models/layer_step_cost.h"

#include <stdexcept>

#include "models/overlap_sequential.h"

namespace parallax::models {

LayerStepCost layer_step_cost(std::span<const LayerOp> ops, int64_t layers, const OverlapMachine& machine,
                              const OverlapParams& params) {
  if (layers < 1) throw std::invalid_argument("layer_step_cost: layers must be >= 1");
  LayerStepCost cost;
  for (const LayerOp& op : ops) {
    LayerOpCost c;
    c.op = &op;
    if (op.pair) {
      c.baseline_s = sequential_cost(op.problem, machine, params).time_s;
      const OverlapPrediction p = predict_overlap(op.problem, machine, params);
      c.selected = p.best;
      c.selected_s = p.best_time_s;
      if (p.best == OverlapStrategy::interdecom) c.degree = p.closed_form.d_star;
    } else {
      c.baseline_s = op.kernel_s;
      c.selected_s = op.kernel_s;
    }
    const bool forward = op.pass == LayerPass::forward;
    (forward ? cost.forward_baseline_s : cost.backward_baseline_s) += c.baseline_s;
    (forward ? cost.forward_selected_s : cost.backward_selected_s) += c.selected_s;
    cost.ops.push_back(c);
  }
  cost.layer_baseline_s = cost.forward_baseline_s + cost.backward_baseline_s;
  cost.layer_selected_s = cost.forward_selected_s + cost.backward_selected_s;
  const double l = static_cast<double>(layers);
  cost.step_baseline_s = l * cost.layer_baseline_s;
  cost.step_selected_s = l * cost.layer_selected_s;
  cost.speedup = cost.step_selected_s > 0 ? cost.step_baseline_s / cost.step_selected_s : 1.0;
  return cost;
}

}  // namespace parallax::models
