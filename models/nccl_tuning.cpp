// File: models/nccl_tuning.cpp
// NCCL's candidates on one box, its min-time choice and the size-dependent refinements of
// ncclTopoGetAlgoTime (nccl_tuning.h). Latencies are nccl_latency.h's tables, bandwidth figures
// nccl_constants.h's; the multi-node and NVLS candidates are nccl_scaleout.cpp's.
#include "models/nccl_tuning.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/nccl_constants.h"
#include "models/nccl_graph.h"
#include "models/nccl_latency.h"
#include "models/nccl_scaleout.h"

namespace parallax::models {
namespace {

// Bandwidth refinements of NCCL's tuning model, one node (NVIDIA/nccl src/graph/tuning.cc at
// 5067397, the "model refinements" after busBw = nChannels·bw; REFERENCE.md §2.2):
// ring LL ½ of the bus bandwidth (capped at llMaxBw), ring LL128 ×0.92 (120 of every 128 bytes
// carry data, capped per channel), tree all-reduce ×0.92 (capped per channel), then tree LL
// ×1/3.8 (capped at llMaxBw) and tree LL128 ×7/9 on one node (capped per channel).
constexpr double kLlFactor = 0.5;
constexpr double kLl128Factor = 0.92;
constexpr double kTreeFactor = 0.92;
constexpr double kTreeLlFactor = 1.0 / 3.8;
constexpr double kTreeLl128OneNodeFactor = 7.0 / 9.0;

// NCCL's topology credits per NVLink link (25 GB/s per direction on NVLink2–4) 20.0 / 20.6 GB/s
// (topo.h) and per PCIe link 12 of 16 GB/s (topo.h PCI_BW "Gen3 x16"; width × GT/s / 80): about
// 80% of the line rate (REFERENCE.md §1.2 measures ≈83% on NVLink4).
constexpr double kNvlinkLinkGBps = 25.0;
constexpr double kPcieNcclShare = 12.0 / 16.0;

constexpr Protocol kProtocols[] = {Protocol::ll, Protocol::ll128, Protocol::simple};

int algorithm_order(std::string_view a) {
  if (a == "ring") return 0;
  if (a == "tree") return 1;
  if (a == "p2p") return 2;
  if (a == "nvls") return 3;
  if (a == "nvls_tree") return 4;
  return 5;
}

// LL128 runs only where the GPUs talk over NVLink (tuning.cc: typeIntra <= PATH_NVB; across
// nodes typeInter <= PATH_PXN on Hopper, PATH_PXB before, which a NIC on its GPU's PCIe switch
// meets).
bool ll128_enabled(const NcclBox& box) { return box.link == LinkType::nvlink; }

// NCCL's candidates inside one box (net.nodes == 1), ring/tree/p2p, on the ring and tree graphs
// of the topology search (nccl_graph.h).
std::vector<NcclCandidate> one_box_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box) {
  const GpuGeneration g = box.generation;
  const NcclGraph ring = nccl_ring_graph(ranks, box);
  const int channels = ring.channels;
  const int run_channels = nccl_execution_channels(channels, g, 1, ring.intra_Bps / 1e9);
  const double ring_Bps = channels * ring.intra_Bps;
  const double steps = static_cast<double>(ring_steps(op, ranks));
  const bool p2p = op == CollectiveOp::all_to_all || op == CollectiveOp::send_recv;
  // Broadcast / reduce on channels of one GPU order pay one hop (tuning.cc sameChannels).
  const bool rooted = op == CollectiveOp::broadcast || op == CollectiveOp::reduce;
  std::vector<NcclCandidate> out;
  for (Protocol p : kProtocols) {
    if (p == Protocol::ll128 && !ll128_enabled(box)) continue;
    double busbw = ring_Bps;
    if (p == Protocol::ll) busbw = std::min(kLlFactor * busbw, nccl_ll_max_GBps(g, 1) * 1e9);
    if (p == Protocol::ll128) busbw = std::min(kLl128Factor * busbw, channels * nccl_ring_ll128_channel_GBps(g, 1) * 1e9);
    const double hop_s = nccl_hw_latency_s(NcclAlgorithm::ring, box.link, p);
    const double ring_latency = nccl_base_latency_s(NcclAlgorithm::ring, p) +
                                (rooted ? (ring.same_channels ? 1.0 : static_cast<double>(ranks)) : steps) * hop_s;
    // NCCL's p2p runs LL or Simple, never LL128 [NVIDIA/nccl src/enqueue.cc: p2p protocol choice].
    if (p2p && p != Protocol::ll128) out.push_back({"p2p", p, ring_latency, busbw, run_channels});
    if (!p2p) out.push_back({"ring", p, ring_latency, busbw, run_channels});
  }
  if (op == CollectiveOp::all_reduce) {
    const NcclGraph tree = nccl_ring_graph(ranks, box, true);
    for (Protocol p : kProtocols) {
      if (p == Protocol::ll128 && !ll128_enabled(box)) continue;
      // One node: the tree is a chain of P ranks, 2(P−1) hops up and down (REFERENCE.md §2.2).
      const double latency = nccl_base_latency_s(NcclAlgorithm::tree, p) +
                             2.0 * static_cast<double>(ranks - 1) * nccl_hw_latency_s(NcclAlgorithm::tree, box.link, p);
      double busbw = std::min(kTreeFactor * tree.channels * tree.intra_Bps, tree.channels * nccl_tree_channel_GBps(g, 1) * 1e9);
      if (p == Protocol::ll) busbw = std::min(kTreeLlFactor * busbw, nccl_ll_max_GBps(g, 1) * 1e9);
      if (p == Protocol::ll128)
        busbw = std::min(kTreeLl128OneNodeFactor * busbw, tree.channels * nccl_tree_ll128_channel_GBps(g, 1) * 1e9);
      out.push_back({"tree", p, latency, busbw, run_channels});
    }
  }
  return out;
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

double nccl_link_Bps(const NcclBox& box) {
  switch (box.link) {
    case LinkType::nvlink: return box.link_Bps / kNvlinkLinkGBps * nccl_nvlink_channel_GBps(box.generation);
    case LinkType::pcie: return box.link_Bps * kPcieNcclShare;
    case LinkType::net: return box.link_Bps;
  }
  return box.link_Bps;
}

CollectiveCost nccl_candidate_cost(CollectiveOp op, int64_t ranks, double bytes, const NcclCandidate& c) {
  if (bytes < 0 || c.busbw_Bps <= 0) throw std::invalid_argument("nccl_candidate_cost: bytes < 0 or busbw <= 0");
  CollectiveCost cost;
  if (ranks <= 1) return cost;
  cost.latency_s = c.latency_s;
  const double per_channel_rank = bytes / (std::max(c.channels, 1) * static_cast<double>(ranks));
  if (per_channel_rank >= kNcclPlateauMinBytesPerChannelRank) cost.latency_s *= c.plateau_factor;
  // Tree all-reduce moves S up and S down each tree at busbw (algBw = busBw/2 in tuning.cc), at
  // the size-dependent correction; everything else moves F·S over its busiest link.
  const bool tree = c.algorithm == "tree";
  const double moved = tree ? 2.0 * bytes : bus_bandwidth_factor(op, ranks) * bytes;
  const double busbw = tree && op == CollectiveOp::all_reduce ? c.busbw_Bps * nccl_tree_correction(c.protocol, bytes) : c.busbw_Bps;
  cost.bandwidth_s = moved / busbw;
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
  std::vector<NcclCandidate> out = box.net.nodes > 1 ? nccl_multinode_candidates(op, ranks, box) : one_box_candidates(op, ranks, box);
  for (NcclCandidate& c : nccl_nvls_candidates(op, ranks, box)) out.push_back(c);
  std::erase_if(out, [&](const NcclCandidate& c) {
    return (!algorithm.empty() && algorithm != c.algorithm) || (protocol != nullptr && *protocol != c.protocol);
  });
  // Keep the documented tie order: ring, tree, p2p, nvls, nvls_tree, pat (then LL, LL128, Simple).
  std::stable_sort(out.begin(), out.end(), [](const NcclCandidate& a, const NcclCandidate& b) {
    return algorithm_order(a.algorithm) < algorithm_order(b.algorithm);
  });
  return out;
}

}  // namespace parallax::models
