// File: sim/policies/training/training_memory.cpp
#include "sim/policies/training/training_memory.h"

#include <algorithm>

namespace parallax {

namespace {

double layer_parameters(const GptModelConfig& m) {
  const auto h = static_cast<double>(m.hidden);
  return 12 * h * h + 13 * h;
}

}  // namespace

double model_parameters(const GptModelConfig& m) {
  const auto h = static_cast<double>(m.hidden);
  return static_cast<double>(m.layers) * layer_parameters(m) + static_cast<double>(m.vocab + m.seq_len) * h + 2 * h;
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
  double per_layer = full_layer;
  double working = 0;
  if (c.recompute == Recompute::selective) per_layer = 34 * s * b * h / t;
  if (c.recompute == Recompute::full) {
    per_layer = 2 * s * b * h / t;
    working = full_layer;
  }
  std::vector<StageMemory> out(static_cast<size_t>(p));
  for (int64_t st = 0; st < p; ++st) {
    StageMemory& mem = out[static_cast<size_t>(st)];
    double params = layers_per_stage * layer_parameters(c.model) / t;
    if (st == 0) params += vocab * h / t + s * h;
    if (st == p - 1) params += (p > 1 ? vocab * h / t : 0) + 2 * h;
    mem.parameters = params;
    mem.weights_bytes = 2 * params;
    mem.gradients_bytes = 2 * params;
    mem.optimizer_bytes = 12 * params / (c.gradient_reduce == GradientReduce::reduce_scatter ? static_cast<double>(c.dp) : 1.0);
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
