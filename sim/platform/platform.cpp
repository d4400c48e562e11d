// File: sim/platform/platform.cpp
#include "sim/platform/platform.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "models/block_dispatch.h"

namespace parallax {

const char* to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
    case CollectiveOp::all_to_all: return "all_to_all";
    case CollectiveOp::broadcast: return "broadcast";
    case CollectiveOp::reduce: return "reduce";
    case CollectiveOp::send_recv: return "send_recv";
  }
  return "?";
}

double Path::bottleneck_Bps() const {
  double bw = std::numeric_limits<double>::infinity();
  for (const PathLink& l : links) bw = std::min(bw, l.bandwidth_Bps);
  return bw;
}

bool Path::only(LinkKind k) const {
  return std::all_of(links.begin(), links.end(), [k](const PathLink& l) { return l.copy_engine || l.kind == k; });
}

bool Path::shares_with(const Path& other) const {
  for (const PathLink& a : links)
    for (const PathLink& b : other.links)
      if (a.resource == b.resource) return true;
  return false;
}

DeviceRates device_rates_of(const GpuSpec& g) {
  DeviceRates r;
  r.sms = g.sms;
  r.peak_flops = g.peak_flops;
  r.hbm_Bps = g.hbm_Bps;
  r.bw_per_sm_Bps = g.bw_per_sm_Bps;
  r.eta_compute = g.gemm ? g.gemm->eta_max : kPlannedComputeEfficiency;
  r.launch_s = g.kernel_launch_s;
  r.smoothing_p = g.kernel_smoothing_p;
  return r;
}

KernelProfile kernel_profile(std::string name, const KernelShape& kernel, const DeviceRates& rates, int sms,
                             double slowdown) {
  if (!(slowdown >= 1) || !std::isfinite(slowdown))
    throw PlatformError(fmt::format("kernel '{}': slowdown must be finite and >= 1, got {}", name, slowdown));
  const int s = std::max(1, std::min(sms > 0 ? sms : rates.sms, kernel.sm_need()));
  KernelProfile p;
  p.name = std::move(name);
  p.flops = kernel.flops / (rates.eta_compute * kernel.compute_efficiency) * wave_factor(kernel, s) * slowdown;
  p.dram_bytes = kernel.dram_bytes * slowdown;
  p.max_sms = s;
  p.block_s = kernel_block_s(kernel, rates, s);
  return p;
}

DeviceRates Platform::device_rates(GpuId id) const { return device_rates_of(gpu(id)); }

std::vector<Path> Platform::paths(Endpoint src, Endpoint dst) { return {path(src, dst)}; }

ActivityId Platform::copy_over(Endpoint src, Endpoint dst, int path_index, Bytes bytes, CompletionListener& listener,
                               uint64_t tag, std::string_view label) {
  if (path_index != 0)
    throw PlatformError(fmt::format("this platform routes every copy one way: no path {}", path_index));
  return copy(src, dst, bytes, listener, tag, label);
}

const char* to_string(CollectiveAlgo algo) {
  switch (algo) {
    case CollectiveAlgo::ring: return "ring";
    case CollectiveAlgo::tree: return "tree";
    case CollectiveAlgo::p2p: return "p2p";
    case CollectiveAlgo::hierarchical: return "hierarchical";
  }
  return "?";
}

std::optional<CollectiveOp> collective_op_named(std::string_view name) {
  for (CollectiveOp o : {CollectiveOp::all_reduce, CollectiveOp::all_gather, CollectiveOp::reduce_scatter,
                         CollectiveOp::all_to_all, CollectiveOp::broadcast, CollectiveOp::reduce, CollectiveOp::send_recv})
    if (name == to_string(o)) return o;
  return std::nullopt;
}

std::optional<CollectiveAlgo> collective_algo_named(std::string_view name) {
  for (CollectiveAlgo a : {CollectiveAlgo::ring, CollectiveAlgo::tree, CollectiveAlgo::p2p, CollectiveAlgo::hierarchical})
    if (name == to_string(a)) return a;
  return std::nullopt;
}

CollectiveAlgo default_algo(CollectiveOp op) {
  return op == CollectiveOp::all_to_all || op == CollectiveOp::send_recv ? CollectiveAlgo::p2p : CollectiveAlgo::ring;
}

bool runs(CollectiveAlgo algo, CollectiveOp op) {
  const bool p2p_op = op == CollectiveOp::all_to_all || op == CollectiveOp::send_recv;
  const bool ring_op = op == CollectiveOp::all_reduce || op == CollectiveOp::all_gather || op == CollectiveOp::reduce_scatter;
  switch (algo) {
    case CollectiveAlgo::ring: return !p2p_op;
    case CollectiveAlgo::tree: return op == CollectiveOp::all_reduce || op == CollectiveOp::broadcast || op == CollectiveOp::reduce;
    case CollectiveAlgo::p2p: return p2p_op;
    case CollectiveAlgo::hierarchical: return ring_op;
  }
  return false;
}

}  // namespace parallax
