// File: sim/policies/overlap/overlap_machine.cpp
// Preset -> models::OverlapMachine (overlap_machine.h).
#include "sim/policies/overlap/overlap_machine.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "models/calibrated_defaults.h"
#include "sim/policies/overlap/ring_synthesis.h"

namespace parallax {

models::GpuComputeParams overlap_gpu_params(const GpuSpec& gpu) {
  models::GpuComputeParams p;
  if (gpu.model.starts_with("H100")) p = models::h100_sxm_gemm_calibrated();
  else if (gpu.model.starts_with("A100")) p = models::a100_sxm_gemm_calibrated();
  if (gpu.gemm) {  // a scenario's calibration: file wins over the built-in fits
    p.tile_m = gpu.gemm->tile_m;
    p.tile_n = gpu.gemm->tile_n;
    p.eta_max = gpu.gemm->eta_max;
    p.k_half = gpu.gemm->k_half;
    p.eta_mem = gpu.gemm->eta_mem;
    p.overhead_s = gpu.gemm->overhead_s;
  }
  p.sms = gpu.sms;
  p.peak_flops = gpu.peak_flops;
  p.hbm_Bps = gpu.hbm_Bps;
  return p;
}

OverlapGroup overlap_group(Platform& platform, int64_t tp, double chunk_bytes) {
  if (tp < 1 || tp > platform.gpu_count())
    throw PlatformError(fmt::format("tp = {} needs 1..{} GPUs, the machine's", tp, platform.gpu_count()));
  OverlapGroup g;
  std::vector<int> gpus;
  for (int i = 0; i < tp; ++i) gpus.push_back(i);
  g.machine.gpu = overlap_gpu_params(platform.gpu(0));
  SynthesisedRings single = synthesise_single_ring(platform, gpus, chunk_bytes);
  SynthesisedRings twin = synthesise_double_ring(platform, gpus, chunk_bytes);
  g.single = single.rings[0];
  g.first = twin.rings[0];
  g.second = twin.rings[1];
  g.order = g.single.order;
  g.reverse_order = g.second.order;
  g.machine.ring = std::move(single.params[0]);
  g.machine.double_ring.first = std::move(twin.params[0]);
  g.machine.double_ring.second = std::move(twin.params[1]);
  g.ring_binding = std::move(single.binding);
  g.double_ring_binding = std::move(twin.binding);
  const models::OverlapParams defaults;
  const double chunk = chunk_bytes > 0 ? chunk_bytes : 1024.0 * 1024 * 1024;
  std::optional<PairSchedule> pairs = synthesise_pair_schedule(platform, gpus, chunk * static_cast<double>(tp),
                                                               defaults.step_overhead_s, defaults.collective_base_latency_s);
  if (!pairs) return g;
  const models::DoubleRingParams& dr = g.machine.double_ring;
  const double x1 = dr.first.bottleneck_Bps() / (dr.first.bottleneck_Bps() + dr.second.bottleneck_Bps());
  const double double_s =
      defaults.collective_base_latency_s +
      static_cast<double>(tp - 1) * std::max(models::ring_step_time_s(dr.first, x1 * chunk, defaults.step_overhead_s),
                                             models::ring_step_time_s(dr.second, (1 - x1) * chunk, defaults.step_overhead_s));
  if (!(pairs->time_s < double_s * (1 - 1e-9))) return g;
  for (const PairRound& r : pairs->rounds) g.machine.pair_rounds.push_back({r.params, r.shares, r.chunks});
  g.pair_rounds = std::move(pairs->rounds);
  g.double_ring_binding = "hierarchical: " + pairs->binding;
  return g;
}

}  // namespace parallax
