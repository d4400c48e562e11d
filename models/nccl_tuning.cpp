// File: models/nccl_tuning.cpp
// NCCL's candidates and its min-time choice (nccl_tuning.h). Latencies are nccl_latency.h's
// tables; the bandwidth figures below each name their source.
#include "models/nccl_tuning.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/nccl_latency.h"

namespace parallax::models {
namespace {

// Per-channel NVLink bandwidth NCCL assumes, GB/s: SM70 and SM80 20.0, SM90 20.6 (NVIDIA/nccl
// src/graph/topo.h; REFERENCE.md §1.2). Used to say how many channels fill a GPU's links.
double per_channel_GBps(GpuGeneration g) { return g == GpuGeneration::hopper ? 20.6 : 20.0; }

// NCCL's upper bound on channels (MAXCHANNELS, NVIDIA/nccl src/include/device.h).
constexpr int kMaxChannels = 32;

// Bandwidth refinements of NCCL's tuning model, one node (NVIDIA/nccl src/graph/tuning.cc at
// 5067397, the defaults table and the "model refinements" after busBw = nChannels·bw; the ring
// figures are also in REFERENCE.md §2.2):
// ring LL: ½ of the bus bandwidth, capped at llMaxBw (one node: Volta 39.0, Ampere 87.7, Hopper
// 141.0 GB/s);
constexpr double kLlFactor = 0.5;
double ll_max_GBps(GpuGeneration g) {
  switch (g) {
    case GpuGeneration::volta: return 39.0;
    case GpuGeneration::ampere: return 87.7;
    case GpuGeneration::hopper: return 141.0;
  }
  return 87.7;
}

// ring LL128: ×0.92 (120 of every 128 bytes carry data), capped per channel at
// perChMaxRingLL128Bw (Volta, Ampere 20.0; Hopper 36.7 GB/s);
constexpr double kLl128Factor = 0.92;
double ll128_per_channel_GBps(GpuGeneration g) { return g == GpuGeneration::hopper ? 36.7 : 20.0; }

// tree all-reduce, every protocol: ×0.92, capped per channel at perChMaxTreeBw (Volta 26.5,
// Ampere 24.0, Hopper 38.7 GB/s); then tree LL ×1/3.8 (capped at llMaxBw) and tree LL128 ×7/9 on
// one node, capped per channel at perChMaxTreeLL128Bw (Volta, Ampere 20.0; Hopper 36.7).
constexpr double kTreeFactor = 0.92;
constexpr double kTreeLlFactor = 1.0 / 3.8;
constexpr double kTreeLl128Factor = 7.0 / 9.0;
double tree_per_channel_GBps(GpuGeneration g) {
  switch (g) {
    case GpuGeneration::volta: return 26.5;
    case GpuGeneration::ampere: return 24.0;
    case GpuGeneration::hopper: return 38.7;
  }
  return 24.0;
}

// The bandwidth NCCL's topology search credits a GPU with: per NVLink link (25 GB/s per
// direction on NVLink2–4) it counts the per-channel figure above (20.0 / 20.6 GB/s, topo.h),
// per PCIe link 12 of 16 GB/s (topo.h PCI_BW "Gen3 x16"): NCCL's rings run at what it plans for,
// about 80% of the line rate (REFERENCE.md §1.2 measures ≈83% on NVLink4).
constexpr double kNvlinkLinkGBps = 25.0;
constexpr double kPcieNcclShare = 12.0 / 16.0;
double nccl_link_Bps(const NcclBox& box) {
  switch (box.link) {
    case LinkType::nvlink: return box.link_Bps / kNvlinkLinkGBps * per_channel_GBps(box.generation);
    case LinkType::pcie: return box.link_Bps * kPcieNcclShare;
    case LinkType::net: return box.link_Bps;
  }
  return box.link_Bps;
}

constexpr Protocol kProtocols[] = {Protocol::ll, Protocol::ll128, Protocol::simple};

bool wanted(std::string_view algorithm, const Protocol* protocol, std::string_view a, Protocol p) {
  return (algorithm.empty() || algorithm == a) && (protocol == nullptr || *protocol == p);
}

}  // namespace

GpuGeneration gpu_generation(std::string_view gpu_model) {
  if (gpu_model.find("H100") != std::string_view::npos || gpu_model.find("H200") != std::string_view::npos ||
      gpu_model.find("H800") != std::string_view::npos || gpu_model.find("GH200") != std::string_view::npos)
    return GpuGeneration::hopper;
  if (gpu_model.find("V100") != std::string_view::npos) return GpuGeneration::volta;
  return GpuGeneration::ampere;
}

std::string_view to_string(GpuGeneration generation) {
  switch (generation) {
    case GpuGeneration::volta: return "volta";
    case GpuGeneration::ampere: return "ampere";
    case GpuGeneration::hopper: return "hopper";
  }
  return "?";
}

bool parse_protocol(std::string_view name, Protocol& out) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "ll") out = Protocol::ll;
  else if (lower == "ll128") out = Protocol::ll128;
  else if (lower == "simple") out = Protocol::simple;
  else return false;
  return true;
}

CollectiveCost nccl_candidate_cost(CollectiveOp op, int64_t ranks, double bytes, const NcclCandidate& c) {
  if (bytes < 0 || c.busbw_Bps <= 0) throw std::invalid_argument("nccl_candidate_cost: bytes < 0 or busbw <= 0");
  CollectiveCost cost;
  if (ranks <= 1) return cost;
  cost.latency_s = c.latency_s;
  // Tree all-reduce moves S up and S down each tree at busbw (algBw = busBw/2 in tuning.cc);
  // everything else moves F·S over its busiest link.
  const double moved = c.algorithm == "tree" ? 2.0 * bytes : bus_bandwidth_factor(op, ranks) * bytes;
  cost.bandwidth_s = moved / c.busbw_Bps;
  cost.time_s = cost.latency_s + cost.bandwidth_s;
  return cost;
}

NcclChoice choose_nccl(CollectiveOp op, int64_t ranks, double bytes, const std::vector<NcclCandidate>& candidates) {
  if (candidates.empty()) throw std::invalid_argument("choose_nccl: no candidate runs this op");
  NcclChoice best{candidates.front(), nccl_candidate_cost(op, ranks, bytes, candidates.front())};
  for (const NcclCandidate& c : candidates) {
    const CollectiveCost cost = nccl_candidate_cost(op, ranks, bytes, c);
    if (cost.time_s < best.cost.time_s) best = {c, cost};
  }
  return best;
}

std::vector<NcclCandidate> nccl_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box,
                                           std::string_view algorithm, const Protocol* protocol) {
  if (ranks < 1 || box.link_Bps <= 0) throw std::invalid_argument("nccl_candidates: ranks < 1 or link_Bps <= 0");
  const GpuGeneration g = box.generation;
  const double link_Bps = nccl_link_Bps(box);
  const int channels = std::clamp(static_cast<int>(std::ceil(link_Bps / (per_channel_GBps(g) * 1e9) - 1e-9)), 1, kMaxChannels);
  const double steps = static_cast<double>(ring_steps(op, ranks));
  const bool p2p = op == CollectiveOp::all_to_all || op == CollectiveOp::send_recv;
  std::vector<NcclCandidate> out;
  for (Protocol p : kProtocols) {
    double busbw = link_Bps;
    if (p == Protocol::ll) busbw = std::min(kLlFactor * busbw, ll_max_GBps(g) * 1e9);
    if (p == Protocol::ll128) busbw = std::min(kLl128Factor * busbw, channels * ll128_per_channel_GBps(g) * 1e9);
    const double ring_latency = nccl_base_latency_s(NcclAlgorithm::ring, p) +
                                steps * nccl_hw_latency_s(NcclAlgorithm::ring, box.link, p);
    // NCCL's p2p runs LL or Simple, never LL128 [NVIDIA/nccl src/enqueue.cc: p2p protocol choice].
    if (p2p && p != Protocol::ll128 && wanted(algorithm, protocol, "p2p", p))
      out.push_back({"p2p", p, ring_latency, busbw, channels});
    if (!p2p && wanted(algorithm, protocol, "ring", p)) out.push_back({"ring", p, ring_latency, busbw, channels});
  }
  if (op == CollectiveOp::all_reduce) {
    for (Protocol p : kProtocols) {
      if (!wanted(algorithm, protocol, "tree", p)) continue;
      // One node: the tree is a chain of P ranks, 2(P−1) hops up and down (REFERENCE.md §2.2).
      const double latency = nccl_base_latency_s(NcclAlgorithm::tree, p) +
                             2.0 * static_cast<double>(ranks - 1) * nccl_hw_latency_s(NcclAlgorithm::tree, box.link, p);
      double busbw = std::min(kTreeFactor * link_Bps, channels * tree_per_channel_GBps(g) * 1e9);
      if (p == Protocol::ll) busbw = std::min(kTreeLlFactor * busbw, ll_max_GBps(g) * 1e9);
      if (p == Protocol::ll128) busbw = std::min(kTreeLl128Factor * busbw, channels * ll128_per_channel_GBps(g) * 1e9);
      out.push_back({"tree", p, latency, busbw, channels});
    }
  }
  // Keep the documented tie order: ring, tree, p2p.
  std::stable_sort(out.begin(), out.end(), [](const NcclCandidate& a, const NcclCandidate& b) {
    auto rank = [](std::string_view s) { return s == "ring" ? 0 : s == "tree" ? 1 : 2; };
    return rank(a.algorithm) < rank(b.algorithm);
  });
  return out;
}

}  // namespace parallax::models
