// File: sim/workload/training_config.h
// A 3D-parallel (tensor × pipeline × data) training step of a GPT-style model, as a scenario's
// `workload: {kind: training}` gives it (read by sim/scenario/training_workload.h, built into a
// StepGraph and run by sim/policies/training/training_step.h; docs/training.md). Plain data.
#pragma once

#include <cstdint>
#include <string>

namespace parallax {

// Mixture-of-experts FFNs (Switch Transformer, GShard; as Megatron-LM and DeepSpeed-MoE run them):
// every `every`-th layer (layers every-1, 2·every-1, ...) replaces its FFN by `experts` FFNs of the
// same shape (h -> 4h -> h), each token routed to `top_k` of them; an expert takes at most
// capacity_factor · top_k · tokens / experts tokens of its group (the rest padded). experts = 0:
// a dense model.
struct MoeConfig {
  int64_t experts = 0;
  int64_t top_k = 1;
  int64_t every = 1;
  double capacity_factor = 1.0;
};

struct GptModelConfig {
  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t seq_len = 0;
  int64_t vocab = 0;
  MoeConfig moe;
};

inline bool is_moe_layer(const GptModelConfig& m, int64_t layer) {
  return m.moe.experts > 0 && layer % m.moe.every == m.moe.every - 1;
}

enum class PipelineSchedule : uint8_t { gpipe, one_f_one_b, interleaved, automatic };
enum class Recompute : uint8_t { none, selective, full };
// How the TP GEMM + collective pairs inside a layer run: as Megatron-LM does (none: the GEMM, then
// the collective on the fabric), or priced by an overlap model (docs/overlap.md).
enum class TrainingOverlap : uint8_t { none, sequential, intrafusion, interdecom, automatic };
// Data-parallel gradients: one all-reduce per bucket (DDP), or a reduce-scatter per bucket and an
// all-gather of the updated parameters after the optimizer step (ZeRO-1 / Megatron's distributed
// optimizer, which also divides the optimizer state by dp).
enum class GradientReduce : uint8_t { all_reduce, reduce_scatter };

struct TrainingConfig {
  GptModelConfig model;
  int64_t tp = 1, pp = 1, dp = 1;
  // Expert parallelism: the experts of an MoE layer split over ep data-parallel replicas (ep
  // divides dp, as Megatron-Core's initialize_model_parallel required before MoE parallel folding,
  // and as DeepSpeed-MoE forms its expert groups inside the data-parallel group): replicas
  // ep·q .. ep·q + ep - 1 form an EP group, each holding experts/ep experts; the replicas j ≡ r
  // (mod ep) hold the same experts and all-reduce their gradients (dp/ep of them).
  int64_t ep = 1;
  int64_t global_batch = 1;                 // sequences per step, all replicas together
  int64_t micro_batch = 1;                  // sequences per micro-batch; 0 = auto
  PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
  int64_t virtual_stages = 1;               // interleaved: model chunks per GPU (v)
  Recompute recompute = Recompute::none;
  TrainingOverlap overlap = TrainingOverlap::none;
  GradientReduce gradient_reduce = GradientReduce::all_reduce;
  double gradient_bucket_bytes = 40e6 * 2;  // DDP bucket: Megatron's 40M parameters, bf16 gradients
};

// The text of each enum, in the YAML's spelling ("1f1b", "auto", ...).
inline const char* to_string(PipelineSchedule s) {
  switch (s) {
    case PipelineSchedule::gpipe: return "gpipe";
    case PipelineSchedule::one_f_one_b: return "1f1b";
    case PipelineSchedule::interleaved: return "interleaved";
    case PipelineSchedule::automatic: return "auto";
  }
  return "?";
}
inline const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}
inline const char* to_string(TrainingOverlap o) {
  switch (o) {
    case TrainingOverlap::none: return "none";
    case TrainingOverlap::sequential: return "sequential";
    case TrainingOverlap::intrafusion: return "intrafusion";
    case TrainingOverlap::interdecom: return "interdecom";
    case TrainingOverlap::automatic: return "auto";
  }
  return "?";
}
inline const char* to_string(GradientReduce g) {
  return g == GradientReduce::all_reduce ? "all_reduce" : "reduce_scatter";
}

}  // namespace parallax
