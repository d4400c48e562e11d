// File: sim/policies/training/training_memory.h
// Device memory of one GPU of each pipeline stage during a training step, by the usual formulas
// (docs/training.md §Memory). Per GPU of a TP group, P = the stage's parameters / t:
//   parameters   per layer 12h² + 13h; the first stage adds the word (V·h) and position (s·h)
//                embeddings, the last the output embedding (V·h, tied) and the final LayerNorm;
//   weights      2·P (bf16);  gradients 2·P (bf16);
//   optimizer    12·P: fp32 master weights, Adam m and v (Rajbhandari et al. 2020); ÷ dp with
//                the distributed optimizer (gradient reduce: reduce_scatter);
//   activations  per layer and micro-batch, tensor + sequence parallel (Korthikanti et al. 2022,
//                Table 2): none s·b·h·(34 + 5·a·s/h)/t, selective 34·s·b·h/t, full 2·s·b·h/t
//                plus one layer's full set while it is recomputed; times the layers whose
//                activations a stage holds at its peak: gpipe m·L/p, 1f1b min(p−s, m)·L/p,
//                interleaved min(2(p−s−1) + (v−1)p + 1, m·v)·L/(p·v); the last stage adds the
//                fp32 logits of one micro-batch, 4·s·b·V/t.
// MoE layers (every `every`-th; `every` divides a stage's layers): attention and LayerNorms
//                4h² + 8h over t, the router h·E (replicated over TP), the experts/ep local
//                experts' FFNs (8h² + 5h each) over t; their optimizer state ÷ dp/ep with the
//                distributed optimizer (the replicas holding the same experts); activations per
//                MoE layer s·b·h·(21·k·c − 19)/t over a dense one (the FFN's 19·s·b·h/t for k·c
//                token slots, plus the permuted tokens the combine's backward keeps, 2·k·c·s·b·h/t)
//                and the router's fp32 probabilities, 4·s·b·E/t.
// Left out: the CUDA context, NCCL buffers, cuBLAS workspace and allocator fragmentation, so a
// layout that fits here can still fail on a real GPU by a few GB.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/workload/training_config.h"

namespace parallax {

struct StageMemory {
  double parameters = 0;  // per GPU
  double expert_parameters = 0;  // of those, the experts' (an MoE model)
  double weights_bytes = 0, gradients_bytes = 0, optimizer_bytes = 0, activations_bytes = 0;
  double total_bytes() const { return weights_bytes + gradients_bytes + optimizer_bytes + activations_bytes; }
};

// Per stage, for this micro-batch size, schedule and number of chunks.
std::vector<StageMemory> training_memory(const TrainingConfig& config, int64_t micro_batch, PipelineSchedule schedule,
                                         int64_t virtual_stages);

// One MoE layer's parameters on one GPU (tp, ep): the dense part (attention, LayerNorms, router)
// and the local experts'.
struct LayerParameters {
  double dense = 0, expert = 0;
};
LayerParameters moe_layer_parameters(const TrainingConfig& config);

// Parameters of the whole model (every layer and the embeddings once).
double model_parameters(const GptModelConfig& model);

}  // namespace parallax
