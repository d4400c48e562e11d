// File: models/megatron_layer.h
// One transformer layer of a GPT-style model under Megatron-LM tensor + sequence parallelism
// (Shoeybi et al. 2019; Korthikanti et al. 2022), as the ordered list of what one GPU of a TP group
// runs in a training step: the GEMM + collective pairs the overlap strategies can fuse or decompose
// (models/overlap_selector.h prices them), and the kernels that run alone. Pricing the list is
// layer_step_cost.h's job; executing it on a Platform is sim/policies/overlap/layer_schedule.h's.
//
// m = seq_len · micro_batch tokens, h = hidden, a = heads, d = h/a, t = tp, c = micro_batch·a/t
// (attention heads×sequences per GPU), bf16. Forward (in order):
//   ln1            memory kernel  2·(m/t)·h·2 B          (LayerNorm on the sequence shard)
//   qkv            ag_gemm        m × 3h × h              (AG of the LN output, column-parallel)
//   attn.score     batched GEMM   c × (s × s × d)         (Q·Kᵀ)
//   attn.softmax   memory kernel  2·c·s²·2 B              (fused scale-mask-softmax: read + write)
//   attn.context   batched GEMM   c × (s × d × s)         (P·V)
//   proj           gemm_rs        m × h × h               (row-parallel, RS to the sequence shard)
//   residual1      memory kernel  3·(m/t)·h·2 B           (dropout + residual add)
//   ln2, fc1 (ag_gemm m × 4h × h), gelu (2·m·(4h/t)·2 B), fc2 (gemm_rs m × h × 4h), residual2.
// Backward (reverse order; Y = X·W: dX = dY·Wᵀ, dW = Xᵀ·dY):
//   a row-parallel GEMM (proj, fc2): dgrad = ag_gemm (AG of dY, then dY·Wᵀ: m × k/t × n),
//     wgrad = a lone GEMM (k/t × n, inner m) on the gathered dY
//   a column-parallel GEMM (qkv, fc1): dgrad = gemm_rs (dY·Wᵀ: m × k × n/t, RS of dX),
//     wgrad = ag_gemm (SP re-gathers X; priced in the forward orientation m × n/t × k:
//     the same FLOPs and bytes, the tile count of the transposed GEMM differs)
//   attention: 4 batched GEMMs (dV = Pᵀ·dO, dP = dO·Vᵀ, dQ = dS·K, dK = dSᵀ·Q) and a softmax
//     backward reading P and dP and writing dS (3·c·s²·2 B); LayerNorm, GeLU, dropout/residual
//     backward read two tensors and write one (3× the tensor).
// Left out (the same in every strategy, so they only dilute speedups): embedding, logits and
// loss, optimizer step, attention-probability dropout, Megatron-LM's own async AG/RS in the
// column-parallel backward (its baseline here is fully sequential; docs/overlap.md §End-to-end).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/gemm_cost.h"
#include "models/overlap_problem.h"

namespace parallax::models {

// A GPT-style model as the layer needs it (dims from the GPT-3 paper, Table 2.1; the scenario
// YAML carries them with sources).
struct GptLayerSpec {
  std::string name;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t layers = 0;
  int64_t seq_len = 0;
  int64_t micro_batch = 1;
  int64_t dtype_bytes = 2;
};

enum class LayerPass : uint8_t { forward, backward };

// One entry of the layer's list. `pair`: a GEMM + collective the strategies can overlap
// (`problem`); otherwise a kernel alone on the whole GPU with its modelled time, FLOPs and HBM bytes.
struct LayerOp {
  std::string label;  // "fwd.qkv", "bwd.fc1.wgrad", ...
  LayerPass pass = LayerPass::forward;
  bool pair = false;
  OverlapProblem problem;     // pair
  double kernel_s = 0.0;      // !pair
  double kernel_flops = 0.0;  // !pair
  double kernel_bytes = 0.0;  // !pair
};

// `count` independent GEMMs of m × n × k (one per head and sequence), priced as one GEMM of
// count·m rows (the same tiles and FLOPs when m is a multiple of the tile) whose memory term
// reads every problem's own operands: overhead + max(compute, count·(mk + kn + mn)·dtype /
// (eta_mem·hbm)).
double batched_gemm_time_s(int64_t count, const GemmShape& each, const GpuComputeParams& gpu);

// A streaming kernel: overhead_s + bytes / (eta_mem · hbm_Bps).
double memory_kernel_time_s(double bytes, const GpuComputeParams& gpu);

// Forward then backward, in execution order (table above). Throws std::invalid_argument when a
// dimension is not positive, hidden is not divisible by heads, or heads, hidden or the tokens are
// not divisible by tp.
std::vector<LayerOp> megatron_layer_ops(const GptLayerSpec& model, int64_t tp, const GpuComputeParams& gpu);

}  // namespace parallax::models
