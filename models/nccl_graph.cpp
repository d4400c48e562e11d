// File: models/nccl_graph.cpp
// The outcome of NCCL's topology search for parallax's boxes (nccl_graph.h).
#include "models/nccl_graph.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <span>
#include <stdexcept>

#include "models/nccl_constants.h"

namespace parallax::models {
namespace {

constexpr double kGB = 1e9;
constexpr int kUnbounded = std::numeric_limits<int>::max();
// search.cc: lower speeds are tried while speed / best > 0.49; ncclTopoDupChannels doubles at
// bwIntra >= 25 GB/s, not on Hopper+ below 50 GB/s with more than 4 channels.
constexpr double kLowerSpeedRatio = 0.49;
constexpr double kDupMinGBps = 25.0;
constexpr double kDupHopperMinGBps = 50.0;
constexpr int kDupHopperMaxChannels = 4;

// ⌊capacity / s⌋ channels of s GB/s (the search subtracts rounded to 1e-3 GB/s: SUB_ROUND).
int channels_at(double capacity_GBps, double s) {
  return static_cast<int>(std::floor(capacity_GBps / s + 1e-6));
}

struct Search {
  std::span<const double> speeds;
  double max_bw = 0.0;    // system->maxBw: the best path's bandwidth
  double total_bw = 0.0;  // system->totalBw: a GPU's NVLink (or PCIe) total
  int min_channels = 1;
  int max_channels = kNcclMaxRingChannels;
  bool nvls = false;                 // NVLS compare: more channels first
  std::function<int(double)> intra;  // channels the GPUs' links carry at s
  std::function<int(double)> inter;  // channels the NICs carry at s
  int fits(double s) const { return std::min({intra(s), inter(s), max_channels}); }
};

// Pass 1: {channels, speed index}; channels 0 when nothing fits.
std::pair<int, std::size_t> first_pass(const Search& q) {
  std::size_t i = 0;
  while (i + 1 < q.speeds.size() && (q.speeds[i] > q.max_bw || q.speeds[i] * q.min_channels > q.total_bw)) ++i;
  int best_n = 0;
  std::size_t best_i = i;
  for (; i < q.speeds.size(); ++i) {
    const double s = q.speeds[i];
    if (best_n > 0 && s / q.speeds[best_i] <= kLowerSpeedRatio) break;
    const int n = q.fits(s);
    if (n < q.min_channels) continue;
    const bool better = best_n == 0 || (q.nvls && n > best_n) || n * s > best_n * q.speeds[best_i];
    if (better) best_n = n, best_i = i;
    if (best_n == q.max_channels || best_n * q.speeds[best_i] >= q.total_bw) break;  // perfect, or full
  }
  return {best_n, best_i};
}

// The index of the first speed <= s (pass 2 starts there).
std::size_t index_of(std::span<const double> speeds, double s) {
  std::size_t i = 0;
  while (i + 1 < speeds.size() && speeds[i] > s + 1e-9) ++i;
  return i;
}

}  // namespace

int nccl_group_nics(int64_t ranks, const NcclNet& net) {
  const double per_node = static_cast<double>(ranks / std::max(net.nodes, 1));
  return std::clamp(static_cast<int>(std::lround(net.nics_per_node * per_node / std::max(net.gpus_per_node, 1))), 1,
                    std::max(net.nics_per_node, 1));
}

double nccl_spine_share(const NcclNet& net, bool all_to_all) {
  if (net.nodes_per_leaf <= 0 || net.nodes <= net.nodes_per_leaf || net.oversubscription <= 1.0) return 1.0;
  return all_to_all ? 1.0 / net.oversubscription : std::min(1.0, net.nodes_per_leaf / net.oversubscription);
}

namespace {

// What the ring and NVLS searches share for a group of `ranks` on `box`: the speeds, the GPU's
// link total, the best path (across nodes the NIC behind its PCIe link, else the GPU's link) and
// the channels the NICs carry.
struct BoxSearch {
  Search q;
  bool multi = false;
  int64_t ppn = 1;
  double link = 0.0;  // GB/s
  int nics = 1;
};

BoxSearch box_search(int64_t ranks, const NcclBox& box) {
  const NcclNet& net = box.net;
  BoxSearch b;
  b.multi = net.nodes > 1;
  b.ppn = ranks / std::max(net.nodes, 1);
  b.link = nccl_link_Bps(box) / kGB;
  b.q.speeds = nccl_search_speeds_GBps(box.generation, b.multi);
  b.q.total_bw = b.link;
  if (b.multi) {
    b.nics = nccl_group_nics(ranks, net);
    const double nic = net.nic_Bps * nccl_spine_share(net, false) / kGB;
    b.q.max_bw = std::min(nic, nccl_gpu_nic_pcie_GBps(box.generation));
    b.q.inter = [nics = b.nics, nic](double s) { return nics * channels_at(nic, s); };
  } else {
    b.q.max_bw = b.link;
    b.q.inter = [](double) { return kUnbounded; };
  }
  return b;
}

}  // namespace

NcclGraph nccl_ring_graph(int64_t ranks, const NcclBox& box, bool tree) {
  auto [q, multi, ppn, link, nics] = box_search(ranks, box);
  if (multi) {
    // A channel crosses the NVLink of ppn − 1 of the ppn GPUs it visits in a box.
    q.intra = [ppn = ppn, link = link](double s) {
      return ppn > 1 ? channels_at(link * static_cast<double>(ppn) / static_cast<double>(ppn - 1), s) : kUnbounded;
    };
  } else {
    q.intra = [link = link](double s) { return channels_at(link, s); };
  }
  if (tree) {
    // The tree graph runs on the ring's channels and need not close its chain: totalBw × d/(d−1).
    const NcclGraph ring = nccl_ring_graph(ranks, box, false);
    q.min_channels = q.max_channels = ring.channels;
    if (ppn > 1) q.total_bw *= static_cast<double>(ppn) / static_cast<double>(ppn - 1);
  }
  auto [n, i] = first_pass(q);
  NcclGraph g;
  g.same_channels = !multi || nics == 1;
  if (n == 0) {  // search.cc falls back to one channel in simple order
    g.channels = 1;
    g.intra_Bps = g.inter_Bps = std::min(q.max_bw, q.speeds.back()) * kGB;
    return g;
  }
  double intra = q.speeds[i], inter = q.speeds[i];
  const bool hopper = box.generation == GpuGeneration::hopper;
  if (intra >= kDupMinGBps && !(hopper && intra < kDupHopperMinGBps && n > kDupHopperMaxChannels)) {
    const int dup = std::min(2 * n, q.max_channels);
    const int div = (dup + n - 1) / n;
    intra /= div, inter /= div;
    n = dup;
  }
  // Pass 2 from the first speed at or below the graph's.
  std::size_t k = index_of(q.speeds, inter);
  if (!tree) {
    while (k > 0 && q.fits(q.speeds[k - 1]) >= n) intra = inter = q.speeds[--k];
  } else {
    while (k > 0 && intra < 2.0 * inter && q.intra(q.speeds[k - 1]) >= n) intra = q.speeds[--k];
  }
  g.channels = n;
  g.intra_Bps = intra * kGB;
  g.inter_Bps = inter * kGB;
  return g;
}

NcclGraph nccl_nvls_graph(int64_t ranks, const NcclBox& box) {
  NcclGraph g;
  if (!box.nvls || box.generation != GpuGeneration::hopper || box.link != LinkType::nvlink) return g;
  auto [q, multi, ppn, link, nics] = box_search(ranks, box);
  q.nvls = true;
  q.max_channels = static_cast<int>(std::min<int64_t>(kNcclMaxNvlsChannels, ppn));
  // One node: every GPU heads a channel (minChannels = maxChannels).
  q.min_channels = multi ? 1 : q.max_channels;
  // The head of a channel moves 2·s through its NVLink, every other GPU s.
  q.intra = [link = link](double s) { return channels_at(link, s) - 1; };
  const auto [n, i] = first_pass(q);
  if (n == 0) return g;
  double intra = q.speeds[i], inter = q.speeds[i];
  // Pass 2 raises bwInter alone while it is below 2·bwIntra and the NICs still carry it.
  std::size_t k = i;
  while (k > 0 && inter < 2.0 * intra && q.inter(q.speeds[k - 1]) >= n) inter = q.speeds[--k];
  g.channels = n;
  g.intra_Bps = intra * kGB;
  g.inter_Bps = inter * kGB;
  g.same_channels = false;
  return g;
}

}  // namespace parallax::models
