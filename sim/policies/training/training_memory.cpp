// File: sim/policies/training/training_memory.cpp
#include "sim/policies/training/training_memory.h"

#include <algorithm>

namespace parallax {

namespace {

double layer_parameters(const GptModelConfig& m) {
  const auto h = static_cast<double>(m.hidden);
  return 12 * h * h + 13 * h;
}

double ffn_parameters(double h) { return 8 * h * h + 5 * h; }

}  // namespace

LayerParameters moe_layer_parameters(const TrainingConfig& c) {
  const auto h = static_cast<double>(c.model.hidden);
  const auto t = static_cast<double>(c.tp);
  const auto experts = static_cast<double>(c.model.moe.experts);
  return {(4 * h * h + 8 * h) / t + h * experts, experts / static_cast<double>(c.ep) * ffn_parameters(h) / t};
}

double model_parameters(const GptModelConfig& m) {
  const auto h = static_cast<double>(m.hidden);
  // Per MoE layer: E experts' FFNs and the router in place of one FFN.
  const double moe = m.moe.experts > 0 ? static_cast<double>(m.layers / m.moe.every) *
                                             (static_cast<double>(m.moe.experts - 1) * ffn_parameters(h) +
                                              h * static_cast<double>(m.moe.experts))
                                       : 0;
  return static_cast<double>(m.layers) * layer_parameters(m) + moe + static_cast<double>(m.vocab + m.seq_len) * h + 2 * h;
}

std::vector<StageMemory> training_memory(const TrainingConfig& c, int64_t micro_batch, PipelineSchedule schedule,
                                         int64_t v) {
  const int64_t p = c.pp;
  const auto t = static_cast<double>(c.tp);
  const auto h = static_cast<double>(c.model.hidden);
  const auto s = static_cast<double>(c.model.seq_len);
  const auto a = static_cast<double>(c.model.heads);
  const auto b = static_cast<double>(micro_batch);
  const auto vocab = static_cast<double>(c.model.vocab);
  const int64_t m = c.global_batch / (micro_batch * c.dp);
  const double layers_per_stage = static_cast<double>(c.model.layers) / static_cast<double>(p);
  const double full_layer = s * b * h * (34 + 5 * a * s / h) / t;
  const MoeConfig& moe = c.model.moe;
  const double moe_layers = moe.experts > 0 ? layers_per_stage / static_cast<double>(moe.every) : 0;
  const LayerParameters moe_params = moe.experts > 0 ? moe_layer_parameters(c) : LayerParameters{};
  const double moe_extra =
      moe.experts > 0 ? s * b * h * (21 * static_cast<double>(moe.top_k) * moe.capacity_factor - 19) / t +
                            4 * s * b * static_cast<double>(moe.experts) / t
                      : 0;
  double per_layer = full_layer;
  double working = 0;
  if (c.recompute == Recompute::selective) per_layer = 34 * s * b * h / t;
  if (c.recompute == Recompute::full) {
    per_layer = 2 * s * b * h / t;
    working = full_layer + moe_extra;
  } else {
    per_layer += moe_layers / layers_per_stage * moe_extra;  // the stage's mean layer
  }
  const auto reduce = static_cast<double>(c.gradient_reduce == GradientReduce::reduce_scatter ? c.dp : 1);
  const auto expert_reduce =
      static_cast<double>(c.gradient_reduce == GradientReduce::reduce_scatter ? c.dp / c.ep : 1);
  std::vector<StageMemory> out(static_cast<size_t>(p));
  for (int64_t st = 0; st < p; ++st) {
    StageMemory& mem = out[static_cast<size_t>(st)];
    double params = (layers_per_stage - moe_layers) * layer_parameters(c.model) / t + moe_layers * moe_params.dense;
    if (st == 0) params += vocab * h / t + s * h;
    if (st == p - 1) params += (p > 1 ? vocab * h / t : 0) + 2 * h;
    const double experts = moe_layers * moe_params.expert;
    mem.parameters = params + experts;
    mem.expert_parameters = experts;
    mem.weights_bytes = 2 * mem.parameters;
    mem.gradients_bytes = 2 * mem.parameters;
    mem.optimizer_bytes = 12 * params / reduce + 12 * experts / expert_reduce;
    double held_layers = 0;
    switch (schedule) {
      case PipelineSchedule::gpipe:
        held_layers = static_cast<double>(m) * layers_per_stage;
        break;
      case PipelineSchedule::interleaved:
        held_layers = static_cast<double>(std::min(2 * (p - st - 1) + (v - 1) * p + 1, m * v)) * layers_per_stage /
                      static_cast<double>(v);
        break;
      case PipelineSchedule::one_f_one_b:
      case PipelineSchedule::automatic:
        held_layers = static_cast<double>(std::min(p - st, m)) * layers_per_stage;
        break;
    }
    mem.activations_bytes = held_layers * per_layer + working + (st == p - 1 ? 4 * s * b * vocab / t : 0);
  }
  return out;
}

}  // namespace parallax
