// File: sim/policies/training/layer_passes.h
// What one GPU of a tensor-parallel group runs for one micro-batch in one GPT layer (and in the
// embedding and the logits), forward and backward, under Megatron-LM tensor + sequence
// parallelism (Shoeybi et al. 2019; Korthikanti et al. 2022): an ordered list of kernels, timed
// by the GPU kernel model (GEMMs: models/op_kernels.h gemm_kernel's tile heuristic; attention's
// batched GEMMs the same way; LayerNorm, softmax, GeLU, dropout/residual as memory-bound
// kernels), and of collectives over the TP group. The GEMM + collective pairs the overlap
// strategies can rewrite are marked (`pair`, with their models::OverlapProblem).
//
// m = seq_len · micro_batch tokens, h hidden, a heads, t = tp, c = micro_batch·a/t, bf16.
// Forward: ln1 · AG(m·h) → qkv m×3h/t×h · score c×(s×s×h/a) · softmax · context c×(s×h/a×s) ·
// proj m×h×h/t → RS(m·h) · residual · ln2 · AG → fc1 m×4h/t×h · gelu · fc2 m×h×4h/t → RS · residual.
// Backward, reverse order. A row-parallel GEMM (proj, fc2): AG of dY → dgrad, then wgrad. A
// column-parallel one (qkv, fc1): dgrad → RS of dX; as Megatron-LM does, the AG of X that the
// wgrad needs runs beside the dgrad GEMM and the RS beside the wgrad GEMM (`beside_previous`).
// Recompute full: the layer's forward again before its backward; selective: the attention core.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/op_kernels.h"
#include "models/overlap_problem.h"
#include "sim/platform/platform.h"
#include "sim/workload/training_config.h"

namespace parallax {

struct LayerStep {
  enum class Kind : uint8_t { kernel, collective };
  Kind kind = Kind::kernel;
  std::string label;              // "fwd.qkv", "bwd.fc1.dgrad", "fwd.qkv.ag"
  double time_s = 0;              // kernel: alone on the whole GPU
  double flops = 0;               // kernel
  CollectiveOp op = CollectiveOp::all_gather;  // collective over the TP group
  double bytes = 0;               // collective: nccl-tests' S
  int pair = -1;                  // index into LayerPass::pairs when part of a GEMM + collective pair
  bool beside_previous = false;   // starts with the previous step instead of after it
};

struct LayerPass {
  std::vector<LayerStep> steps;
  std::vector<models::OverlapProblem> pairs;
};

// The GPU as the kernel model sees it.
struct KernelMachine {
  DeviceRates rates;  // Platform::device_rates
  GpuLimits limits;   // gpu_limits_for(model)
  DataType dtype;     // bf16
};

// One transformer layer. `backward` includes the recomputation `recompute` asks for.
LayerPass layer_forward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, const KernelMachine& gpu);
LayerPass layer_backward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, Recompute recompute,
                         const KernelMachine& gpu);
// An MoE layer (training_config.h MoeConfig) with its experts split over ep GPUs, cut at its
// expert-parallel all-to-alls: piece i, then an all-to-all over the EP group, then piece i + 1.
// Forward, 3 pieces: attention, ln2, the router (m/t × E × h GEMM, top-k) and the permutation
// into expert slots | the experts' FFN (fc1.ag .. fc2.rs, as the dense FFN's on the GPU's
// experts/ep · capacity slots, one grouped GEMM) | the weighted combine and the residual. As
// Megatron-Core's all-to-all dispatcher does with TP, each TP rank dispatches its own sequence
// shard over its own EP group and the TP group all-gathers the received tokens before the experts.
// Backward: the reverse, 3 pieces; with full recomputation the forward's 3 first (5 pieces: the
// recomputed combine runs with the backward's first piece), so 4 all-to-alls.
std::vector<LayerPass> moe_layer_forward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, int64_t ep,
                                         const KernelMachine& gpu);
std::vector<LayerPass> moe_layer_backward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, int64_t ep,
                                          Recompute recompute, const KernelMachine& gpu);
// Token slots of one expert: ⌈capacity_factor · top_k · tokens / experts⌉, the tokens those of the
// EP group's micro-batches (seq_len · micro_batch · ep).
int64_t expert_capacity(const GptModelConfig& model, int64_t micro_batch, int64_t ep);
// One rank's all-to-all, as nccl-tests' S (what each rank sends in all, S/ep to each peer; the
// Platform::collective convention): its tokens (seq_len · micro_batch / tp) · top_k · hidden ·
// bytes · capacity_factor.
double moe_all_to_all_bytes(const GptModelConfig& model, int64_t micro_batch, int64_t tp, double dtype_bytes);

// The first stage's embedding lookup (forward) / its gradient (backward).
LayerPass embedding_pass(const GptModelConfig& model, int64_t micro_batch, int64_t tp, bool backward,
                         const KernelMachine& gpu);
// The last stage's final LayerNorm, logits GEMM (AG of the sequence shard, m×V/t×h) and fused
// cross-entropy; backward: its gradients.
LayerPass logits_pass(const GptModelConfig& model, int64_t micro_batch, int64_t tp, bool backward,
                      const KernelMachine& gpu);

// A streaming kernel moving `bytes` through HBM, alone on the GPU (256-thread blocks, 4 elements
// per thread: the memory-bound kernels of models/op_kernels.h).
double streaming_kernel_s(double bytes, const KernelMachine& gpu);

// A pass on one GPU's stream: each step after the one before it, a `beside_previous` step with
// it (the group takes its longest member). With `pair_s`, each GEMM + collective pair is one
// step of that time (an overlap strategy's; docs/training.md) instead of its GEMM and collective.
//   total_s          the critical path;
//   kernel_s         what the GPU computes (kernels; a rewritten pair's whole time);
//   exposed_comm_s   total_s - kernel_s: the collectives not hidden behind a kernel.
struct PassTime {
  double total_s = 0, kernel_s = 0, exposed_comm_s = 0;
};
using CollectiveTime = std::function<double(CollectiveOp op, double bytes)>;
using PairTime = std::function<double(const models::OverlapProblem& pair)>;
PassTime pass_time(const LayerPass& pass, const CollectiveTime& collective_s, const PairTime& pair_s = nullptr);

}  // namespace parallax
