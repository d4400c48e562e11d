// File: sim/policies/training/layer_passes.cpp
// The step lists of layer_passes.h, built by one small appender per pass.
#include "sim/policies/training/layer_passes.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "models/kernel_time.h"

namespace parallax {

namespace {

using models::OverlapOp;
using models::OverlapProblem;

// The kernel model's rates for a training pass, without the preset's per-kernel launch
// (kernel_launch_us): a training step's host enqueues its kernels far ahead of the GPU, so each
// launch hides under the kernel before it on the stream [simplification: the GPU-side gap between
// back-to-back kernels is not modelled]. The pass is then one kernel described by time, which the
// platform starts without a launch delay (docs/platform.md, Kernels).
DeviceRates pass_rates(const KernelMachine& gpu) {
  DeviceRates r = rates_for(gpu.rates, gpu.dtype);
  r.launch_s = 0;
  return r;
}

// Appends kernels and TP collectives to one pass.
class PassWriter {
 public:
  PassWriter(const KernelMachine& gpu, int64_t tp, std::string prefix)
      : gpu_(gpu), rates_(pass_rates(gpu)), tp_(tp), prefix_(std::move(prefix)) {}

  int pair(OverlapOp op, int64_t m, int64_t n, int64_t k) {
    if (tp_ < 2) return -1;  // no collective: the GEMM runs alone
    pass_.pairs.push_back(OverlapProblem{op, m, n, k, gpu_.dtype.bytes, tp_});
    return static_cast<int>(pass_.pairs.size()) - 1;
  }

  // batch × (m×k · k×n).
  void gemm(const std::string& label, int64_t m, int64_t n, int64_t k, int64_t batch = 1, int pair = -1,
            bool beside = false) {
    const OpKernel kernel = gemm_kernel(m, n, k, batch, gpu_.dtype, gpu_.rates, gpu_.limits, gpu_.rates.sms);
    LayerStep s;
    s.label = prefix_ + label;
    s.time_s = kernel_time_s(kernel.shape, rates_, gpu_.rates.sms, 1.0);
    s.flops = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) * static_cast<double>(batch);
    s.pair = pair;
    s.beside_previous = beside;
    pass_.steps.push_back(std::move(s));
  }

  // A streaming kernel moving `bytes` through HBM (256-thread blocks, 4 elements per thread).
  void memory(const std::string& label, double bytes) {
    LayerStep s;
    s.label = prefix_ + label;
    s.time_s = streaming_kernel_s(bytes, gpu_);
    pass_.steps.push_back(std::move(s));
  }

  void collective(const std::string& label, CollectiveOp op, double bytes, int pair = -1, bool beside = false) {
    if (tp_ < 2) return;
    LayerStep s;
    s.kind = LayerStep::Kind::collective;
    s.label = prefix_ + label;
    s.op = op;
    s.bytes = bytes;
    s.pair = pair;
    s.beside_previous = beside;
    pass_.steps.push_back(std::move(s));
  }

  void set_prefix(std::string prefix) { prefix_ = std::move(prefix); }
  LayerPass take() { return std::exchange(pass_, {}); }

 private:
  const KernelMachine& gpu_;
  DeviceRates rates_;
  int64_t tp_;
  std::string prefix_;
  LayerPass pass_;
};

struct Dims {
  int64_t m, h, s, d, c, t, v;
  double act;  // bytes of one [m, h] activation
};

Dims dims_of(const GptModelConfig& model, int64_t micro_batch, int64_t tp, const KernelMachine& gpu) {
  if (model.hidden % model.heads != 0) throw std::invalid_argument("hidden is not divisible by heads");
  if (model.heads % tp != 0 || model.hidden % tp != 0 || model.vocab % tp != 0 || (model.seq_len * micro_batch) % tp != 0)
    throw std::invalid_argument(fmt::format("heads, hidden, vocab and tokens must be divisible by tp = {}", tp));
  const int64_t m = model.seq_len * micro_batch;
  return {m, model.hidden, model.seq_len, model.hidden / model.heads, micro_batch * model.heads / tp, tp, model.vocab,
          static_cast<double>(m) * static_cast<double>(model.hidden) * gpu.dtype.bytes};
}

void attention_forward(PassWriter& w, const Dims& x, double dtype_bytes) {
  w.gemm("attn.score", x.s, x.s, x.d, x.c);
  w.memory("attn.softmax", 2.0 * static_cast<double>(x.c) * static_cast<double>(x.s * x.s) * dtype_bytes);
  w.gemm("attn.context", x.s, x.d, x.s, x.c);
}

// ln1 .. residual1: the attention half of a layer's forward.
void attention_block_forward(PassWriter& w, const Dims& x, double b) {
  const double shard = x.act / static_cast<double>(x.t);
  w.memory("ln1", 2 * shard);
  int p = w.pair(OverlapOp::ag_gemm, x.m, 3 * x.h, x.h);
  w.collective("qkv.ag", CollectiveOp::all_gather, x.act, p);
  w.gemm("qkv", x.m, 3 * x.h / x.t, x.h, 1, p);
  attention_forward(w, x, b);
  p = w.pair(OverlapOp::gemm_rs, x.m, x.h, x.h);
  w.gemm("proj", x.m, x.h, x.h / x.t, 1, p);
  w.collective("proj.rs", CollectiveOp::reduce_scatter, x.act, p);
  w.memory("residual1", 3 * shard);
}

// AG .. fc1 · gelu · fc2 .. RS on x.m tokens: the dense FFN, or an expert's on its tokens.
void ffn_forward(PassWriter& w, const Dims& x, double b) {
  int p = w.pair(OverlapOp::ag_gemm, x.m, 4 * x.h, x.h);
  w.collective("fc1.ag", CollectiveOp::all_gather, x.act, p);
  w.gemm("fc1", x.m, 4 * x.h / x.t, x.h, 1, p);
  w.memory("gelu", 2.0 * static_cast<double>(x.m) * static_cast<double>(4 * x.h / x.t) * b);
  p = w.pair(OverlapOp::gemm_rs, x.m, x.h, 4 * x.h);
  w.gemm("fc2", x.m, x.h, 4 * x.h / x.t, 1, p);
  w.collective("fc2.rs", CollectiveOp::reduce_scatter, x.act, p);
}

void forward_steps(PassWriter& w, const Dims& x, double b) {
  const double shard = x.act / static_cast<double>(x.t);
  attention_block_forward(w, x, b);
  w.memory("ln2", 2 * shard);
  ffn_forward(w, x, b);
  w.memory("residual2", 3 * shard);
}

// A column-parallel GEMM's backward (forward: AG(X) then X·W_i, n columns in all): dgrad dY·W_iᵀ
// then RS of dX; the AG of X again (sequence parallelism keeps only the shard) beside the dgrad,
// the wgrad Xᵀ·dY beside the RS.
void column_parallel_backward(PassWriter& w, const Dims& x, const std::string& name, int64_t n) {
  const int dgrad = w.pair(OverlapOp::gemm_rs, x.m, x.h, n);
  const int wgrad = w.pair(OverlapOp::ag_gemm, x.m, n, x.h);
  w.gemm(name + ".dgrad", x.m, x.h, n / x.t, 1, dgrad);
  w.collective(name + ".ag", CollectiveOp::all_gather, x.act, wgrad, true);
  w.collective(name + ".rs", CollectiveOp::reduce_scatter, x.act, dgrad);
  w.gemm(name + ".wgrad", x.h, n / x.t, x.m, 1, wgrad, true);
}

// A row-parallel GEMM's backward (forward: X_i·W_i over k = n_in/t, then RS): AG of dY, dgrad
// dY·W_iᵀ, wgrad X_iᵀ·dY.
void row_parallel_backward(PassWriter& w, const Dims& x, const std::string& name, int64_t k) {
  const int dgrad = w.pair(OverlapOp::ag_gemm, x.m, k, x.h);
  w.collective(name + ".ag", CollectiveOp::all_gather, x.act, dgrad);
  w.gemm(name + ".dgrad", x.m, k / x.t, x.h, 1, dgrad);
  w.gemm(name + ".wgrad", k / x.t, x.h, x.m);
}

void ffn_backward(PassWriter& w, const Dims& x, double b) {
  row_parallel_backward(w, x, "fc2", 4 * x.h);
  w.memory("gelu", 3.0 * static_cast<double>(x.m) * static_cast<double>(4 * x.h / x.t) * b);
  column_parallel_backward(w, x, "fc1", 4 * x.h);
}

// residual1 .. ln1: the attention half of a layer's backward.
void attention_block_backward(PassWriter& w, const Dims& x, double b) {
  const double shard = x.act / static_cast<double>(x.t);
  w.memory("residual1", 3 * shard);
  row_parallel_backward(w, x, "proj", x.h);
  // dV = Pᵀ·dO, dP = dO·Vᵀ, softmax backward (reads P and dP, writes dS), dQ = dS·K, dK = dSᵀ·Q.
  w.gemm("attn.dv", x.s, x.d, x.s, x.c);
  w.gemm("attn.dp", x.s, x.s, x.d, x.c);
  w.memory("attn.softmax", 3.0 * static_cast<double>(x.c) * static_cast<double>(x.s * x.s) * b);
  w.gemm("attn.dq", x.s, x.d, x.s, x.c);
  w.gemm("attn.dk", x.s, x.d, x.s, x.c);
  column_parallel_backward(w, x, "qkv", 3 * x.h);
  w.memory("ln1", 3 * shard);
}

void backward_steps(PassWriter& w, const Dims& x, double b) {
  const double shard = x.act / static_cast<double>(x.t);
  w.memory("residual2", 3 * shard);
  ffn_backward(w, x, b);
  w.memory("ln2", 3 * shard);
  attention_block_backward(w, x, b);
}

// An MoE layer's experts as one GPU sees them: its experts/ep local experts of `capacity` token
// slots each, after the TP all-gather (the FFN code on that many tokens, as one grouped GEMM).
Dims expert_dims(const Dims& x, const GptModelConfig& model, int64_t micro_batch, int64_t ep, double dtype_bytes) {
  Dims e = x;
  e.m = model.moe.experts / ep * expert_capacity(model, micro_batch, ep);
  e.act = static_cast<double>(e.m) * static_cast<double>(x.h) * dtype_bytes;
  return e;
}

// The pieces of an MoE layer between its all-to-alls, each appended by one function.
struct MoePieces {
  const Dims& x;
  Dims e;
  double b, tokens, a2a;  // the rank's tokens (its sequence shard) and its all-to-all buffer
  int64_t experts;
  // Attention, ln2, the router (a GEMM of the rank's tokens onto the experts, softmax and top-k in
  // fp32) and the permutation of the tokens into per-expert slots.
  void pre_forward(PassWriter& w) const {
    attention_block_forward(w, x, b);
    w.memory("ln2", 2 * x.act / static_cast<double>(x.t));
    w.gemm("router", static_cast<int64_t>(tokens), experts, x.h);
    w.memory("router.topk", 2 * tokens * static_cast<double>(experts) * 4);
    w.memory("permute", 2 * a2a);
  }
  void experts_forward(PassWriter& w) const { ffn_forward(w, e, b); }
  // The weighted sum of each token's k expert outputs, then the residual.
  void post_forward(PassWriter& w) const {
    w.memory("unpermute", a2a + x.act / static_cast<double>(x.t));
    w.memory("residual2", 3 * x.act / static_cast<double>(x.t));
  }
  void post_backward(PassWriter& w) const {
    w.memory("residual2", 3 * x.act / static_cast<double>(x.t));
    w.memory("unpermute", a2a + x.act / static_cast<double>(x.t));
  }
  void experts_backward(PassWriter& w) const { ffn_backward(w, e, b); }
  void pre_backward(PassWriter& w) const {
    w.memory("permute", 2 * a2a);
    w.memory("router.topk", 3 * tokens * static_cast<double>(experts) * 4);
    w.gemm("router.dgrad", static_cast<int64_t>(tokens), x.h, experts);
    w.gemm("router.wgrad", x.h, experts, static_cast<int64_t>(tokens));
    w.memory("ln2", 3 * x.act / static_cast<double>(x.t));
    attention_block_backward(w, x, b);
  }
};

MoePieces moe_pieces(const Dims& x, const GptModelConfig& model, int64_t micro_batch, int64_t tp, int64_t ep,
                     const KernelMachine& gpu) {
  if (model.moe.experts < 1 || model.moe.experts % ep != 0)
    throw std::invalid_argument(fmt::format("experts {} are not divisible by ep {}", model.moe.experts, ep));
  const double b = gpu.dtype.bytes;
  return {x, expert_dims(x, model, micro_batch, ep, b), b, static_cast<double>(x.m / tp),
          moe_all_to_all_bytes(model, micro_batch, tp, b), model.moe.experts};
}

}  // namespace

LayerPass layer_forward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, const KernelMachine& gpu) {
  const Dims x = dims_of(model, micro_batch, tp, gpu);
  PassWriter w(gpu, tp, "fwd.");
  forward_steps(w, x, gpu.dtype.bytes);
  return w.take();
}

LayerPass layer_backward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, Recompute recompute,
                         const KernelMachine& gpu) {
  const Dims x = dims_of(model, micro_batch, tp, gpu);
  const double b = gpu.dtype.bytes;
  PassWriter w(gpu, tp, "recompute.");
  if (recompute == Recompute::full) forward_steps(w, x, b);
  if (recompute == Recompute::selective) attention_forward(w, x, b);
  w.set_prefix("bwd.");
  backward_steps(w, x, b);
  return w.take();
}

int64_t expert_capacity(const GptModelConfig& model, int64_t micro_batch, int64_t ep) {
  const double tokens = static_cast<double>(model.seq_len * micro_batch * ep);
  return static_cast<int64_t>(std::ceil(model.moe.capacity_factor * static_cast<double>(model.moe.top_k) * tokens /
                                        static_cast<double>(model.moe.experts)));
}

double moe_all_to_all_bytes(const GptModelConfig& model, int64_t micro_batch, int64_t tp, double dtype_bytes) {
  const double tokens = static_cast<double>(model.seq_len * micro_batch / tp);
  return tokens * static_cast<double>(model.moe.top_k) * static_cast<double>(model.hidden) * dtype_bytes *
         model.moe.capacity_factor;
}

std::vector<LayerPass> moe_layer_forward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, int64_t ep,
                                         const KernelMachine& gpu) {
  const Dims x = dims_of(model, micro_batch, tp, gpu);
  const MoePieces moe = moe_pieces(x, model, micro_batch, tp, ep, gpu);
  std::vector<LayerPass> out;
  PassWriter w(gpu, tp, "fwd.");
  moe.pre_forward(w);
  out.push_back(w.take());
  moe.experts_forward(w);
  out.push_back(w.take());
  moe.post_forward(w);
  out.push_back(w.take());
  return out;
}

std::vector<LayerPass> moe_layer_backward(const GptModelConfig& model, int64_t micro_batch, int64_t tp, int64_t ep,
                                          Recompute recompute, const KernelMachine& gpu) {
  const Dims x = dims_of(model, micro_batch, tp, gpu);
  const MoePieces moe = moe_pieces(x, model, micro_batch, tp, ep, gpu);
  std::vector<LayerPass> out;
  PassWriter w(gpu, tp, "recompute.");
  if (recompute == Recompute::full) {
    moe.pre_forward(w);
    out.push_back(w.take());
    moe.experts_forward(w);
    out.push_back(w.take());
    moe.post_forward(w);
  }
  if (recompute == Recompute::selective) attention_forward(w, x, moe.b);
  w.set_prefix("bwd.");
  moe.post_backward(w);
  out.push_back(w.take());
  moe.experts_backward(w);
  out.push_back(w.take());
  moe.pre_backward(w);
  out.push_back(w.take());
  return out;
}

LayerPass embedding_pass(const GptModelConfig& model, int64_t micro_batch, int64_t tp, bool backward,
                         const KernelMachine& gpu) {
  const Dims x = dims_of(model, micro_batch, tp, gpu);
  // Vocabulary-parallel embedding: each GPU looks up its V/t rows for all m tokens (a partial
  // [m, h]), reduce-scattered to the sequence shard; backward: the AG of the gradient, then the
  // scatter-add into the table.
  PassWriter w(gpu, tp, backward ? "bwd." : "fwd.");
  if (!backward) {
    w.memory("embedding", 2 * x.act);
    w.collective("embedding.rs", CollectiveOp::reduce_scatter, x.act);
  } else {
    w.collective("embedding.ag", CollectiveOp::all_gather, x.act);
    w.memory("embedding", 2 * x.act);
  }
  return w.take();
}

LayerPass logits_pass(const GptModelConfig& model, int64_t micro_batch, int64_t tp, bool backward,
                      const KernelMachine& gpu) {
  const Dims x = dims_of(model, micro_batch, tp, gpu);
  const double b = gpu.dtype.bytes;
  const double shard = x.act / static_cast<double>(x.t);
  const double logits = static_cast<double>(x.m) * static_cast<double>(x.v / x.t) * b;
  // Vocabulary-parallel cross-entropy: three all-reduces of m fp32 values (max, sum, target logit).
  const double ce_bytes = static_cast<double>(x.m) * 4;
  PassWriter w(gpu, tp, backward ? "bwd." : "fwd.");
  if (!backward) {
    w.memory("ln_f", 2 * shard);
    const int p = w.pair(OverlapOp::ag_gemm, x.m, x.v, x.h);
    w.collective("logits.ag", CollectiveOp::all_gather, x.act, p);
    w.gemm("logits", x.m, x.v / x.t, x.h, 1, p);
    w.memory("cross_entropy", 2 * logits);
    for (const char* what : {"ce.max", "ce.sum", "ce.target"}) w.collective(what, CollectiveOp::all_reduce, ce_bytes);
  } else {
    w.memory("cross_entropy", 2 * logits);
    column_parallel_backward(w, x, "logits", x.v);
    w.memory("ln_f", 3 * shard);
  }
  return w.take();
}

double streaming_kernel_s(double bytes, const KernelMachine& gpu) {
  KernelShape shape;
  shape.dram_bytes = bytes;
  const double elements = bytes / gpu.dtype.bytes;
  shape.grid_blocks = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(elements / 1024.0)));
  shape.blocks_per_sm = std::max(1, resident_blocks(gpu.limits, BlockResources{256, 32, 0}));
  return kernel_time_s(shape, pass_rates(gpu), gpu.rates.sms, 1.0);
}

PassTime pass_time(const LayerPass& pass, const CollectiveTime& collective_s, const PairTime& pair_s) {
  PassTime t;
  std::vector<bool> pair_done(pass.pairs.size(), false);
  double group_s = 0;  // the running group's longest member
  for (const LayerStep& step : pass.steps) {
    double step_s = 0;
    bool kernel = step.kind == LayerStep::Kind::kernel;
    bool beside = step.beside_previous;
    if (pair_s && step.pair >= 0) {
      if (pair_done[static_cast<size_t>(step.pair)]) continue;  // the pair is one step, already counted
      pair_done[static_cast<size_t>(step.pair)] = true;
      step_s = pair_s(pass.pairs[static_cast<size_t>(step.pair)]);
      kernel = true;
      beside = false;
    } else {
      step_s = kernel ? step.time_s : collective_s(step.op, step.bytes);
    }
    if (kernel) t.kernel_s += step_s;
    if (beside) {
      group_s = std::max(group_s, step_s);
    } else {
      t.total_s += group_s;
      group_s = step_s;
    }
  }
  t.total_s += group_s;
  t.exposed_comm_s = std::max(0.0, t.total_s - t.kernel_s);
  return t;
}

}  // namespace parallax
