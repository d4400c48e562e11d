// File: models/megatron_layer.cpp
// The layer's forward and backward op list (megatron_layer.h).
#include "models/megatron_layer.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {

double batched_gemm_time_s(int64_t count, const GemmShape& each, const GpuComputeParams& gpu) {
  if (count < 1) throw std::invalid_argument("batched_gemm_time_s: count must be >= 1");
  GemmShape flat = each;
  flat.m = each.m * count;
  const GemmCostBreakdown c = gemm_cost(flat, gpu);
  const double bytes = static_cast<double>(count) * gemm_bytes(each);
  return gpu.overhead_s + std::max(c.compute_s, bytes / (gpu.eta_mem * gpu.hbm_Bps));
}

double memory_kernel_time_s(double bytes, const GpuComputeParams& gpu) {
  return gpu.overhead_s + bytes / (gpu.eta_mem * gpu.hbm_Bps);
}

namespace {

class LayerBuilder {
 public:
  LayerBuilder(const GptLayerSpec& model, int64_t tp, const GpuComputeParams& gpu)
      : model_(model), tp_(tp), gpu_(gpu) {}

  void pair(std::string label, LayerPass pass, OverlapOp op, int64_t n, int64_t k) {
    LayerOp o;
    o.label = std::move(label);
    o.pass = pass;
    o.pair = true;
    o.problem = {op, tokens(), n, k, model_.dtype_bytes, tp_};
    check_overlap_problem(o.problem);
    ops_.push_back(std::move(o));
  }

  void memory(std::string label, LayerPass pass, double bytes) {
    kernel(std::move(label), pass, memory_kernel_time_s(bytes, gpu_), 0.0, bytes);
  }

  void gemm(std::string label, LayerPass pass, const GemmShape& shape) {
    kernel(std::move(label), pass, gemm_time_s(shape, gpu_), gemm_flops(shape), gemm_bytes(shape));
  }

  // `count` batched GEMMs of `each`, repeated `times` (the two backward GEMMs of one forward one).
  void batched(std::string label, LayerPass pass, int64_t count, const GemmShape& each, int times) {
    const double t = static_cast<double>(times);
    const double c = static_cast<double>(count);
    kernel(std::move(label), pass, t * batched_gemm_time_s(count, each, gpu_), t * c * gemm_flops(each),
           t * c * gemm_bytes(each));
  }

  int64_t tokens() const { return model_.seq_len * model_.micro_batch; }
  std::vector<LayerOp> take() { return std::move(ops_); }

 private:
  void kernel(std::string label, LayerPass pass, double time_s, double flops, double bytes) {
    LayerOp o;
    o.label = std::move(label);
    o.pass = pass;
    o.kernel_s = time_s;
    o.kernel_flops = flops;
    o.kernel_bytes = bytes;
    ops_.push_back(std::move(o));
  }

  const GptLayerSpec& model_;
  int64_t tp_;
  const GpuComputeParams& gpu_;
  std::vector<LayerOp> ops_;
};

void check_layer(const GptLayerSpec& m, int64_t tp) {
  if (m.hidden <= 0 || m.heads <= 0 || m.layers <= 0 || m.seq_len <= 0 || m.micro_batch <= 0 || m.dtype_bytes <= 0)
    throw std::invalid_argument(fmt::format("model '{}': hidden, heads, layers, seq_len, micro_batch must be > 0", m.name));
  if (tp < 1) throw std::invalid_argument(fmt::format("model '{}': tp must be >= 1, got {}", m.name, tp));
  if (m.hidden % m.heads != 0)
    throw std::invalid_argument(fmt::format("model '{}': hidden {} is not divisible by heads {}", m.name, m.hidden, m.heads));
  if (m.heads % tp != 0)
    throw std::invalid_argument(fmt::format("model '{}': heads {} is not divisible by tp {}", m.name, m.heads, tp));
  if ((m.seq_len * m.micro_batch) % tp != 0)
    throw std::invalid_argument(fmt::format("model '{}': tokens {} are not divisible by tp {}", m.name,
                                            m.seq_len * m.micro_batch, tp));
}

}  // namespace

std::vector<LayerOp> megatron_layer_ops(const GptLayerSpec& model, int64_t tp, const GpuComputeParams& gpu) {
  check_layer(model, tp);
  LayerBuilder b(model, tp, gpu);
  const int64_t h = model.hidden, s = model.seq_len, dt = model.dtype_bytes;
  const int64_t d = h / model.heads;
  const int64_t count = model.micro_batch * model.heads / tp;
  const double m = static_cast<double>(b.tokens());
  const double shard = m / static_cast<double>(tp) * static_cast<double>(h * dt);   // (m/t)·h·dt
  const double mlp = m * static_cast<double>(4 * h / tp * dt);                      // m·(4h/t)·dt
  const double scores = static_cast<double>(count) * static_cast<double>(s * s * dt);  // c·s²·dt
  const GemmShape score{s, s, d, dt}, context{s, d, s, dt};
  constexpr LayerPass fwd = LayerPass::forward, bwd = LayerPass::backward;

  b.memory("fwd.ln1", fwd, 2 * shard);
  b.pair("fwd.qkv", fwd, OverlapOp::ag_gemm, 3 * h, h);
  b.batched("fwd.attn.score", fwd, count, score, 1);
  b.memory("fwd.attn.softmax", fwd, 2 * scores);
  b.batched("fwd.attn.context", fwd, count, context, 1);
  b.pair("fwd.proj", fwd, OverlapOp::gemm_rs, h, h);
  b.memory("fwd.residual1", fwd, 3 * shard);
  b.memory("fwd.ln2", fwd, 2 * shard);
  b.pair("fwd.fc1", fwd, OverlapOp::ag_gemm, 4 * h, h);
  b.memory("fwd.gelu", fwd, 2 * mlp);
  b.pair("fwd.fc2", fwd, OverlapOp::gemm_rs, h, 4 * h);
  b.memory("fwd.residual2", fwd, 3 * shard);

  const int64_t tokens = b.tokens();
  b.memory("bwd.residual2", bwd, 3 * shard);
  b.pair("bwd.fc2.dgrad", bwd, OverlapOp::ag_gemm, 4 * h, h);
  b.gemm("bwd.fc2.wgrad", bwd, GemmShape{4 * h / tp, h, tokens, dt});
  b.memory("bwd.gelu", bwd, 3 * mlp);  // read dY and X, write dX: 3 tensors of m·(4h/t)
  b.pair("bwd.fc1.dgrad", bwd, OverlapOp::gemm_rs, h, 4 * h);
  b.pair("bwd.fc1.wgrad", bwd, OverlapOp::ag_gemm, 4 * h, h);
  b.memory("bwd.ln2", bwd, 3 * shard);
  b.memory("bwd.residual1", bwd, 3 * shard);
  b.pair("bwd.proj.dgrad", bwd, OverlapOp::ag_gemm, h, h);
  b.gemm("bwd.proj.wgrad", bwd, GemmShape{h / tp, h, tokens, dt});
  b.batched("bwd.attn.dv", bwd, count, context, 1);  // dV = Pᵀ·dO: s × d, inner s
  b.batched("bwd.attn.dp", bwd, count, score, 1);    // dP = dO·Vᵀ: s × s, inner d
  b.memory("bwd.attn.softmax", bwd, 3 * scores);
  b.batched("bwd.attn.dq_dk", bwd, count, context, 2);  // dQ = dS·K, dK = dSᵀ·Q: s × d, inner s
  b.pair("bwd.qkv.dgrad", bwd, OverlapOp::gemm_rs, h, 3 * h);
  b.pair("bwd.qkv.wgrad", bwd, OverlapOp::ag_gemm, 3 * h, h);
  b.memory("bwd.ln1", bwd, 3 * shard);
  return b.take();
}

}  // namespace parallax::models
