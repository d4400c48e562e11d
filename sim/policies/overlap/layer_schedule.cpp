// File: sim/policies/overlap/layer_schedule.cpp
// Layer op -> task graph (layer_schedule.h).
#include "sim/policies/overlap/layer_schedule.h"

namespace parallax {

OverlapSchedule layer_op_schedule(const models::LayerOp& op, const OverlapGroup& group,
                                  const models::OverlapParams& params, models::OverlapStrategy strategy,
                                  int64_t degree) {
  if (op.pair) return overlap_schedule(op.problem, group, params, strategy, degree);
  OverlapTask t;
  t.kind = OverlapTask::Kind::compute;
  t.label = op.label;
  // Alone on all SMs the platform takes max(flops/peak, bytes/hbm) = kernel_s (the model's time
  // already exceeds bytes/hbm, since eta_mem <= 1).
  t.kernel = KernelProfile{op.label, op.kernel_s * group.machine.gpu.peak_flops, op.kernel_bytes, 0};
  OverlapSchedule s;
  s.tasks.push_back(std::move(t));
  return s;
}

}  // namespace parallax
