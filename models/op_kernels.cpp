// File: models/op_kernels.cpp
#include "models/op_kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace parallax {

GpuLimits gpu_limits_for(std::string_view model) {
  const auto has = [&](std::string_view s) { return model.find(s) != std::string_view::npos; };
  // Shared memory per SM usable by blocks: 96 KiB (7.0), 164 KiB (8.0), 100 KiB (8.6), 228 KiB (9.0),
  // of which 1 KiB per block is reserved by the system from 8.0 on (ignored here).
  if (has("H100") || has("H200")) return {"sm_90", 2048, 32, 65536, 228 * 1024};
  if (has("A100")) return {"sm_80", 2048, 32, 65536, 164 * 1024};
  if (has("A6000") || has("A40") || has("A10")) return {"sm_86", 1536, 16, 65536, 100 * 1024};
  if (has("V100")) return {"sm_70", 2048, 32, 65536, 96 * 1024};
  throw std::invalid_argument(fmt::format(
      "no occupancy limits for GPU '{}' (known: V100, A100, A6000/A40/A10, H100, H200)", model));
}

int resident_blocks(const GpuLimits& g, const BlockResources& b) {
  int n = std::min(g.max_blocks_per_sm, g.max_threads_per_sm / std::max(1, b.threads));
  n = std::min(n, g.registers_per_sm / std::max(1, b.threads * b.registers_per_thread));
  if (b.shared_memory > 0) n = std::min(n, g.shared_memory_per_sm / b.shared_memory);
  return std::max(0, n);
}

DataType data_type(std::string_view name) {
  if (name == "bf16" || name == "fp16") return {std::string(name), 2, 1.0};
  if (name == "tf32") return {"tf32", 4, 0.5};
  throw std::invalid_argument(fmt::format("dtype '{}': expected bf16, fp16 or tf32", name));
}

DeviceRates rates_for(const DeviceRates& rates, const DataType& dtype) {
  DeviceRates r = rates;
  r.peak_flops *= dtype.rate_factor;
  return r;
}

namespace {

// Tensor-core tile configurations in the spirit of CUTLASS's defaults (3-stage pipelines of
// tm x tk and tk x tn panels in shared memory) [assumption: shapes and register counts follow
// CUTLASS's sm80 defaults (cutlass_library generator.py's 16-bit tensor-op TileDescriptions,
// which list 256x64 and 64x256 with 4 warps beside the others); `efficiency` — the fraction of
// the SM's peak a fully occupied tile reaches — rises with the tile's panel intensity
// tm·tn/(tm + tn) as the epilogue and the panel loads are amortised over more MACs (85: 1.0, 64:
// 0.95, 51: 0.91 interpolated, 43: 0.88, 32: 0.75), an assumption to be fitted by the hardware
// sweep's GEMM family].
struct Tile {
  int tm, tn, tk;
  int threads;
  int registers;
  double efficiency;
};
constexpr Tile kTiles[] = {
    {256, 128, 32, 256, 232, 1.00},
    {128, 256, 32, 256, 232, 1.00},
    {128, 128, 32, 256, 168, 0.95},
    {256, 64, 32, 128, 232, 0.91},
    {64, 256, 32, 128, 232, 0.91},
    {128, 64, 32, 128, 168, 0.88},
    {64, 128, 32, 128, 168, 0.88},
    {64, 64, 32, 128, 128, 0.75},
};
constexpr int kStages = 3;
constexpr int kSplits[] = {1, 2, 4, 8, 16};
constexpr int64_t kMinSplitDepth = 256;  // split-K slices keep at least this much K each

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

OpKernel memory_kernel(const LayerOp& op, const DataType& dtype, const GpuLimits& limits) {
  OpKernel k;
  k.name = op.name;
  k.kind = op.kind;
  const BlockResources block{256, 32, 0};
  const double per_block = op.kind == OpKind::depthwise ? 256.0 : 1024.0;
  k.shape.grid_blocks = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(op.elements / per_block)));
  k.shape.blocks_per_sm = std::max(1, resident_blocks(limits, block));
  k.shape.flops = op.kind == OpKind::depthwise ? 2 * op.macs : op.elements;
  k.shape.dram_bytes = (op.input_elements + op.elements + op.weight_reads + op.stat_elements) * dtype.bytes;
  k.config = op.kind == OpKind::depthwise ? "depthwise, one output per thread" : "256 threads x 4 elements";
  return k;
}

// The best tile and split for one GEMM-like product on `sms` SMs; `operand_bytes` is its DRAM
// traffic without split-K's partial sums.
OpKernel best_gemm(std::string name, OpKind kind, int64_t m, int64_t n, int64_t kdim, int64_t batch, double macs,
                   double operand_bytes, const DataType& dtype, const DeviceRates& rates, const GpuLimits& limits,
                   int sms) {
  OpKernel best;
  double best_time = std::numeric_limits<double>::infinity();
  for (const Tile& t : kTiles) {
    const BlockResources block{t.threads, t.registers, kStages * (t.tm + t.tn) * t.tk * dtype.bytes};
    const int resident = resident_blocks(limits, block);
    if (resident == 0) continue;
    const int64_t tiles = ceil_div(m, t.tm) * ceil_div(n, t.tn) * batch;
    const double padded = static_cast<double>(ceil_div(m, t.tm) * t.tm) * (ceil_div(n, t.tn) * t.tn) * kdim * batch;
    for (int split : kSplits) {
      if (split > 1 && kdim / split < kMinSplitDepth) break;
      KernelShape s;
      s.flops = 2 * macs;
      s.grid_blocks = tiles * split;
      s.blocks_per_sm = resident;
      s.compute_efficiency = t.efficiency * macs / padded;
      // Split-K writes fp32 partial sums and reads them back in a reduction.
      s.dram_bytes = operand_bytes + (split > 1 ? 2.0 * split * m * n * batch * 4 : 0);
      const double time = kernel_time_s(s, rates, sms, 1.0);
      if (time < best_time) {
        best_time = time;
        best.shape = s;
        best.config = fmt::format("tile {}x{}x{}, {} threads, {} per SM, split-k {}", t.tm, t.tn, t.tk, t.threads,
                                  resident, split);
      }
    }
  }
  if (!std::isfinite(best_time))
    throw std::invalid_argument(fmt::format("{}: no tile configuration fits an SM of {}", name, limits.generation));
  best.name = std::move(name);
  best.kind = kind;
  return best;
}

}  // namespace

OpKernel gemm_kernel(int64_t m, int64_t n, int64_t k, int64_t batch, const DataType& dtype, const DeviceRates& rates,
                     const GpuLimits& limits, int sms) {
  if (m < 1 || n < 1 || k < 1 || batch < 1) throw std::invalid_argument("gemm: m, n, k and batch must be >= 1");
  const double macs = static_cast<double>(m) * n * k * batch;
  const double bytes = (static_cast<double>(m) * k + static_cast<double>(k) * n + static_cast<double>(m) * n) *
                       batch * dtype.bytes;
  const DeviceRates r = rates_for(rates, dtype);
  return best_gemm(fmt::format("gemm {}x{}x{}{}", m, n, k, batch > 1 ? fmt::format(" x{}", batch) : ""),
                   OpKind::gemm, m, n, k, batch, macs, bytes, dtype, r, limits, sms);
}

std::vector<OpKernel> op_kernels(const NetworkShape& net, const DataType& dtype, const DeviceRates& rates,
                                 const GpuLimits& limits, int sms) {
  std::vector<OpKernel> out;
  out.reserve(net.ops.size());
  const DeviceRates r = rates_for(rates, dtype);
  for (const LayerOp& op : net.ops) {
    const bool gemm_like = op.kind == OpKind::conv || op.kind == OpKind::gemm || op.kind == OpKind::batched_gemm;
    if (!gemm_like) {
      out.push_back(memory_kernel(op, dtype, limits));
      continue;
    }
    // Implicit GEMM reads the activation itself, not its im2col expansion.
    const double bytes = (op.input_elements + op.weight_reads + op.elements) * dtype.bytes;
    out.push_back(best_gemm(op.name, op.kind, op.m, op.n, op.k, op.batch, op.macs, bytes, dtype, r, limits, sms));
  }
  return out;
}

ModelLatency model_latency(const NetworkShape& net, const DataType& dtype, const DeviceRates& rates,
                           const GpuLimits& limits, int sms, double bandwidth_share) {
  if (sms < 1 || sms > rates.sms)
    throw std::invalid_argument(fmt::format("sms {} out of range [1, {}]", sms, rates.sms));
  if (!(bandwidth_share > 0 && bandwidth_share <= 1))
    throw std::invalid_argument(fmt::format("bandwidth share {} out of range (0, 1]", bandwidth_share));
  const DeviceRates r = rates_for(rates, dtype);
  ModelLatency out;
  for (OpKernel& k : op_kernels(net, dtype, rates, limits, sms)) {
    TimedKernel t;
    t.time_s = kernel_time_s(k.shape, r, sms, bandwidth_share);
    t.sms_used = std::min(sms, k.shape.sm_need());
    out.latency_s += t.time_s;
    out.flops += k.shape.flops;
    out.dram_bytes += k.shape.dram_bytes;
    t.kernel = std::move(k);
    out.kernels.push_back(std::move(t));
  }
  return out;
}

}  // namespace parallax
