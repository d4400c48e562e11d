// File: sim/policies/overlap/layer_schedule.cpp
// Layer op -> StepGraph (layer_schedule.h).
#include "sim/policies/overlap/layer_schedule.h"

namespace parallax {

StepGraph layer_op_schedule(const models::LayerOp& op, const OverlapGroup& group, const models::OverlapParams& params,
                            models::OverlapStrategy strategy, int64_t degree) {
  if (op.pair) return overlap_schedule(op.problem, group, params, strategy, degree);
  StepGraph g;
  g.ranks = static_cast<int>(group.order.size());
  g.gpu_of_rank = group.order;
  for (int r = 0; r < g.ranks; ++r) {
    StepTask t;
    t.kind = StepTask::Kind::compute;
    t.label = op.label;
    t.rank = r;
    // Alone on all SMs the platform takes max(flops/peak, bytes/hbm) = kernel_s (the model's time
    // already exceeds bytes/hbm, since eta_mem <= 1).
    // The fitted time includes the kernel's launch (models/gemm_cost.h's overhead_s).
    t.kernel = KernelProfile{op.label, op.kernel_s * group.machine.gpu.peak_flops, op.kernel_bytes, 0};
    t.kernel.launch_included = true;
    g.tasks.push_back(std::move(t));
  }
  return g;
}

}  // namespace parallax
