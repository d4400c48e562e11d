// File: sim/policies/overlap/layer_schedule.h
// One op of a Megatron layer (models/megatron_layer.h) as a StepGraph for StepGraphRun: a
// GEMM + collective pair as its strategy's schedule (overlap_schedule.h), a lone kernel as one
// compute task per rank (GPU) of the group whose FLOPs make it take the model's time alone on the
// whole GPU (so the DES adds only what sharing adds). Running the ops one after another, each on
// its own platform, is the driver's job (sim/experiment/overlap_des.h): Megatron runs them in one stream.
#pragma once

#include <cstdint>

#include "models/megatron_layer.h"
#include "models/overlap_selector.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/overlap/overlap_schedule.h"

namespace parallax {

// `strategy` and `degree` apply to a pair only (degree: InterDecom's d).
StepGraph layer_op_schedule(const models::LayerOp& op, const OverlapGroup& group, const models::OverlapParams& params,
                            models::OverlapStrategy strategy, int64_t degree);

}  // namespace parallax
