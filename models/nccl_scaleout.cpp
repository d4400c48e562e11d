// File: models/nccl_scaleout.cpp
// NCCL's multi-node and NVLS candidates; formulas and sources in nccl_scaleout.h.
#include "models/nccl_scaleout.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/nccl_constants.h"
#include "models/nccl_graph.h"
#include "models/nccl_latency.h"

namespace parallax::models {
namespace {

constexpr Protocol kScaleoutProtocols[] = {Protocol::ll, Protocol::ll128, Protocol::simple};
constexpr double kHalf = 0.5;
constexpr double kRingLl128Share = 0.92;
constexpr double kTreeShare = 0.92;
constexpr double kTreeLlShare = 1.0 / 3.8;
constexpr double kTreeLl128MultiNodeShare = 120.0 / 128.0;

// ⌊log2 n⌋ (tuning.cc's log2i).
double floor_log2(int n) { return std::floor(std::log2(static_cast<double>(n))); }

struct Group {
  int nodes = 1;
  int64_t per_node = 1;     // ppn
  NcclGraph ring;           // the ring graph of the topology search (nccl_graph.h)
  int run_channels = 1;     // channels NCCL executes on (nccl_execution_channels)
  double busbw_Bps = 0.0;   // Simple ring bus bandwidth: channels × (nodes <= 2 ? bwIntra : bwInter)
  double nic_share_Bps = 0; // one GPU's share of its box's NICs
};

// tuning.cc: float bw = nNodes <= 2 ? graph->bwIntra : graph->bwInter.
double per_channel_Bps(const NcclGraph& g, int nodes) { return nodes <= 2 ? g.intra_Bps : g.inter_Bps; }

Group scaleout_group(int64_t ranks, const NcclBox& box) {
  const NcclNet& net = box.net;
  if (net.nic_Bps <= 0 || net.nics_per_node < 1 || net.gpus_per_node < 1)
    throw std::invalid_argument("nccl candidates: a multi-node net needs NICs with bandwidth and gpus_per_node");
  if (ranks % net.nodes != 0 || ranks / net.nodes > net.gpus_per_node)
    throw std::invalid_argument("nccl candidates: ranks must spread evenly over the nodes, at most gpus_per_node each");
  Group g;
  g.nodes = net.nodes;
  g.per_node = ranks / net.nodes;
  g.ring = nccl_ring_graph(ranks, box);
  g.run_channels = nccl_execution_channels(g.ring.channels, box.generation, g.nodes, g.ring.intra_Bps / 1e9);
  g.busbw_Bps = g.ring.channels * per_channel_Bps(g.ring, g.nodes);
  g.nic_share_Bps = nccl_group_nics(ranks, net) * net.nic_Bps * nccl_spine_share(net, false) / static_cast<double>(g.per_node);
  return g;
}

// latencyInter of one inter-node hop, counted twice for Simple ("the flush extra latency").
double inter_extra_s(const NcclNet& net, Protocol p) { return net.hop_latency_s * (p == Protocol::simple ? 2.0 : 1.0); }

double ring_latency_s(CollectiveOp op, int64_t ranks, const Group& g, const NcclBox& box, Protocol p) {
  const double steps = static_cast<double>(ring_steps(op, ranks));
  const double base = nccl_base_latency_s(NcclAlgorithm::ring, p);
  // Broadcast / reduce: one NET hop on channels of one GPU order (sameChannels), else nRanks of
  // them, Simple at the tree's ("chunk latency, waiting for proper chunk modeling").
  if (op == CollectiveOp::broadcast || op == CollectiveOp::reduce) {
    if (g.ring.same_channels) return base + nccl_hw_latency_s(NcclAlgorithm::ring, LinkType::net, p);
    const NcclAlgorithm table = p == Protocol::simple ? NcclAlgorithm::tree : NcclAlgorithm::ring;
    return base + static_cast<double>(ranks) * nccl_hw_latency_s(table, LinkType::net, p);
  }
  const NcclAlgorithm inter_table = g.per_node == 1 ? NcclAlgorithm::tree : NcclAlgorithm::ring;
  const double inter = nccl_hw_latency_s(inter_table, LinkType::net, p) + inter_extra_s(box.net, p);
  const double intra = std::max(nccl_hw_latency_s(NcclAlgorithm::ring, box.link, p), nccl_net_overhead_s(p, box.net.amd_cpu));
  const double net_steps = op == CollectiveOp::all_reduce ? 2.0 * (g.nodes - 1) : static_cast<double>(g.nodes - 1);
  return base + (steps - net_steps) * intra + net_steps * inter;
}

void add_ring(std::vector<NcclCandidate>& out, CollectiveOp op, int64_t ranks, const Group& g, const NcclBox& box) {
  const GpuGeneration gen = box.generation;
  for (Protocol p : kScaleoutProtocols) {
    if (p == Protocol::ll128 && box.link != LinkType::nvlink) continue;  // LL128 needs NVLink inside (nccl_tuning.cpp)
    double busbw = g.busbw_Bps;
    if (p == Protocol::ll) busbw = std::min(kHalf * busbw, nccl_ll_max_GBps(gen, g.nodes, box.net.amd_cpu) * 1e9);
    if (p == Protocol::ll128) busbw = std::min(kRingLl128Share * busbw, g.ring.channels * nccl_ring_ll128_channel_GBps(gen, g.nodes) * 1e9);
    NcclCandidate c{"ring", p, ring_latency_s(op, ranks, g, box, p), busbw, g.run_channels};
    if (op == CollectiveOp::all_reduce && p == Protocol::simple) c.plateau_factor = nccl_ring_plateau_factor(gen);
    out.push_back(c);
  }
}

void add_tree(std::vector<NcclCandidate>& out, int64_t ranks, const Group& g, const NcclBox& box) {
  const GpuGeneration gen = box.generation;
  const NcclGraph tree = nccl_ring_graph(ranks, box, true);
  const double tree_Bps = tree.channels * per_channel_Bps(tree, g.nodes);
  for (Protocol p : kScaleoutProtocols) {
    if (p == Protocol::ll128 && box.link != LinkType::nvlink) continue;
    const double intra = nccl_hw_latency_s(NcclAlgorithm::tree, box.link, p);
    const double inter = nccl_hw_latency_s(NcclAlgorithm::tree, LinkType::net, p) + inter_extra_s(box.net, p);
    const double latency = nccl_base_latency_s(NcclAlgorithm::tree, p) +
                           2.0 * (static_cast<double>(g.per_node - 1) * intra + floor_log2(g.nodes) * inter);
    double busbw = std::min(kTreeShare * tree_Bps, tree.channels * nccl_tree_channel_GBps(gen, g.nodes) * 1e9);
    if (p == Protocol::ll) busbw = std::min(kTreeLlShare * busbw, nccl_ll_max_GBps(gen, g.nodes, box.net.amd_cpu) * 1e9);
    if (p == Protocol::ll128)
      busbw = std::min(kTreeLl128MultiNodeShare * busbw, tree.channels * nccl_tree_ll128_channel_GBps(gen, g.nodes) * 1e9);
    out.push_back({"tree", p, latency, busbw, g.run_channels});
  }
}

// PAT: all-gather / reduce-scatter with one GPU per node (tuning.cc ncclPatEnable), Simple, on the
// tree graph; its bandwidth stays in bus terms (time = S / busBw), so nccl-tests' busbw is F × it.
void add_pat(std::vector<NcclCandidate>& out, CollectiveOp op, int64_t ranks, const Group& g, const NcclBox& box) {
  if (g.per_node != 1 || (op != CollectiveOp::all_gather && op != CollectiveOp::reduce_scatter)) return;
  const NcclGraph tree = nccl_ring_graph(ranks, box, true);
  const double inter = nccl_hw_latency_s(NcclAlgorithm::tree, LinkType::net, Protocol::simple) + inter_extra_s(box.net, Protocol::simple);
  const double latency = kNcclPatBaseLatency_s + floor_log2(g.nodes) * inter / kNcclPatLogLatencyDivisor +
                         static_cast<double>(ranks) * kNcclPatPerRankLatency_s;
  const double busbw = tree.channels * per_channel_Bps(tree, g.nodes) * kNcclPatBandwidthFactor;
  out.push_back({"pat", Protocol::simple, latency, busbw * bus_bandwidth_factor(op, ranks), g.run_channels});
}

void add_p2p(std::vector<NcclCandidate>& out, CollectiveOp op, int64_t ranks, const Group& g, const NcclBox& box) {
  const double p_ranks = static_cast<double>(ranks);
  // Seconds per byte of S on the slower path, as nccl-tests' busbw (F·S / t).
  double busbw = g.nic_share_Bps;
  if (op == CollectiveOp::all_to_all) {
    const double spine = nccl_spine_share(box.net, true) / nccl_spine_share(box.net, false);
    const double remote = (p_ranks - static_cast<double>(g.per_node)) / p_ranks / (g.nic_share_Bps * spine);
    const double local = static_cast<double>(g.per_node - 1) / p_ranks / nccl_link_Bps(box);
    busbw = bus_bandwidth_factor(op, ranks) / std::max(remote, local);
  }
  const double local_steps = op == CollectiveOp::all_to_all ? static_cast<double>(g.per_node - 1) : 0.0;
  const double remote_steps = op == CollectiveOp::all_to_all ? p_ranks - static_cast<double>(g.per_node) : 1.0;
  for (Protocol p : {Protocol::ll, Protocol::simple}) {  // NCCL's p2p: LL or Simple
    const double latency = nccl_base_latency_s(NcclAlgorithm::ring, p) +
                           local_steps * nccl_hw_latency_s(NcclAlgorithm::ring, box.link, p) +
                           remote_steps * (nccl_hw_latency_s(NcclAlgorithm::ring, LinkType::net, p) + inter_extra_s(box.net, p));
    const double bw = p == Protocol::ll ? std::min(kHalf * busbw, nccl_ll_max_GBps(box.generation, g.nodes, box.net.amd_cpu) * 1e9) : busbw;
    out.push_back({"p2p", p, latency, bw, g.run_channels});
  }
}

}  // namespace

std::vector<NcclCandidate> nccl_multinode_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box) {
  const Group g = scaleout_group(ranks, box);
  std::vector<NcclCandidate> out;
  if (op == CollectiveOp::all_to_all || op == CollectiveOp::send_recv) {
    add_p2p(out, op, ranks, g, box);
    return out;
  }
  add_ring(out, op, ranks, g, box);
  if (op == CollectiveOp::all_reduce) add_tree(out, ranks, g, box);
  add_pat(out, op, ranks, g, box);
  return out;
}

std::vector<NcclCandidate> nccl_nvls_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box) {
  std::vector<NcclCandidate> out;
  const double efficiency = nccl_nvls_efficiency(box.generation);
  if (efficiency <= 0 || ranks < 2) return out;
  const NcclGraph graph = nccl_nvls_graph(ranks, box);
  if (graph.channels < 2) return out;  // tuning.cc: NVLS needs at least 2 channels
  const int nodes = std::max(box.net.nodes, 1);
  const int64_t per_node = ranks / nodes;
  const bool all_reduce = op == CollectiveOp::all_reduce;
  const double n = graph.channels;
  // Per channel (tuning.cc): bwIntra × 0.85 × (n−1)/n, ×2 for all-reduce (the switch reduces),
  // ×(ppn−1)/ppn otherwise; then the smaller of that and bwInter (×2 for NVLS tree on 2 nodes).
  double intra = graph.intra_Bps * efficiency * (n - 1.0) / n;
  intra *= all_reduce ? 2.0 : static_cast<double>(per_node - 1) / static_cast<double>(per_node);
  if (nodes == 1) {
    if (!all_reduce && op != CollectiveOp::all_gather && op != CollectiveOp::reduce_scatter) return out;
    // tuning.cc keeps NVLS all-gather / reduce-scatter in bus-bandwidth terms (time = S / bw):
    // as nccl-tests' busbw that is F times the planned figure.
    const double busbw = n * std::min(intra, graph.inter_Bps) * (all_reduce ? 1.0 : bus_bandwidth_factor(op, ranks));
    out.push_back({"nvls", Protocol::simple, nccl_nvls_latency_s(false, LinkType::nvlink), busbw, kNcclNvlsExecutionChannels});
    return out;
  }
  if (!all_reduce || per_node < 2) return out;
  const double inter = graph.inter_Bps * (nodes <= 2 ? 2.0 : 1.0);
  const double per_channel = std::min({intra, inter, nccl_nvls_tree_channel_GBps(box.generation, nodes) * 1e9});
  const double latency = nccl_nvls_latency_s(true, LinkType::nvlink) +
                         2.0 * floor_log2(nodes) * (nccl_nvls_latency_s(true, LinkType::net) + inter_extra_s(box.net, Protocol::simple));
  out.push_back({"nvls_tree", Protocol::simple, latency, n * per_channel, kNcclNvlsExecutionChannels});
  return out;
}

}  // namespace parallax::models
