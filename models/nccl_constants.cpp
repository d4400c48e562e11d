// File: models/nccl_constants.cpp
// The tables of nccl_constants.h, GB/s and µs as tuning.cc prints them (NVIDIA/nccl 5067397).
#include "models/nccl_constants.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace parallax::models {
namespace {

constexpr double kMicrosecond = 1e-6;

// tuning.cc's index2: nNodes <= 2 ? nNodes − 1 : 2.
std::size_t node_column(int nodes) { return nodes <= 1 ? 0 : nodes == 2 ? 1 : 2; }

std::size_t generation_row(GpuGeneration g) {
  switch (g) {
    case GpuGeneration::volta: return 0;
    case GpuGeneration::ampere: return 1;
    case GpuGeneration::hopper: return 2;
  }
  return 1;
}

using Row = std::array<double, 3>;  // N1, N2, N4
constexpr std::array<Row, 3> kPerChannelTree{{{26.5, 18.5, 10.0}, {24.0, 23.6, 17.8}, {38.7, 41.4, 36.0}}};
constexpr std::array<Row, 3> kPerChannelTreeLl128{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 29.0}}};
constexpr std::array<Row, 3> kPerChannelRingLl128{{{20.0, 20.0, 20.0}, {20.0, 20.0, 20.0}, {36.7, 36.7, 36.7}}};
constexpr std::array<Row, 3> kPerChannelNvlsTree{{{0.0, 18.5, 10.0}, {0.0, 23.6, 17.8}, {0.0, 57.7, 45.5}}};
// llMaxBws: one node by GPU row; several nodes the Intel row {N2, N4} = {39.0, 20.4}.
constexpr std::array<double, 3> kLlMaxOneNode{39.0, 87.7, 141.0};
constexpr Row kLlMaxIntel{39.0, 39.0, 20.4};
constexpr Row kLlMaxAmd{87.7, 22.5, 19.0};

// treeCorrectionFactor, {LL, LL128, Simple} × log2(bytes / 64) = 0 … 23.
constexpr std::array<std::array<double, 24>, 3> kTreeCorrection{{
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9},
}};

// search.cc speedArrayIntra / speedArrayInter and their SM90 versions.
constexpr std::array<double, 13> kSpeedsIntra{40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0};
constexpr std::array<double, 19> kSpeedsInter{48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0,
                                              7.0,  6.0,  5.0,  4.0,  3.0,  2.4,  1.2,  0.24, 0.12};
constexpr std::array<double, 11> kSm90SpeedsIntra{60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
constexpr std::array<double, 17> kSm90SpeedsInter{48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5,
                                                  15.0, 12.0, 6.0,  3.0,  2.4,  1.2,  0.24, 0.12};

std::size_t protocol_row(Protocol p) { return p == Protocol::ll ? 0 : p == Protocol::ll128 ? 1 : 2; }

}  // namespace

double nccl_nvlink_channel_GBps(GpuGeneration g) { return g == GpuGeneration::hopper ? 20.6 : 20.0; }

std::span<const double> nccl_search_speeds_GBps(GpuGeneration g, bool inter) {
  if (g == GpuGeneration::hopper) return inter ? std::span<const double>(kSm90SpeedsInter) : std::span<const double>(kSm90SpeedsIntra);
  return inter ? std::span<const double>(kSpeedsInter) : std::span<const double>(kSpeedsIntra);
}

double nccl_gpu_nic_pcie_GBps(GpuGeneration g) {
  switch (g) {
    case GpuGeneration::volta: return 12.0;
    case GpuGeneration::ampere: return 24.0;
    case GpuGeneration::hopper: return 48.0;
  }
  return 24.0;
}

double nccl_ll_max_GBps(GpuGeneration g, int nodes, bool amd_cpu) {
  if (nodes <= 1) return kLlMaxOneNode[generation_row(g)];
  return (amd_cpu ? kLlMaxAmd : kLlMaxIntel)[node_column(nodes)];
}

int nccl_execution_channels(int search_channels, GpuGeneration g, int nodes, double ring_intra_GBps) {
  constexpr int kMaxChannels = 64;
  int n = std::min(kMaxChannels, 2 * search_channels);
  if (g == GpuGeneration::hopper && nodes > 1 && ring_intra_GBps > 45.0 && n < 16) n *= 2;
  return n;
}
double nccl_ring_ll128_channel_GBps(GpuGeneration g, int nodes) { return kPerChannelRingLl128[generation_row(g)][node_column(nodes)]; }
double nccl_tree_channel_GBps(GpuGeneration g, int nodes) { return kPerChannelTree[generation_row(g)][node_column(nodes)]; }
double nccl_tree_ll128_channel_GBps(GpuGeneration g, int nodes) { return kPerChannelTreeLl128[generation_row(g)][node_column(nodes)]; }
double nccl_nvls_tree_channel_GBps(GpuGeneration g, int nodes) { return kPerChannelNvlsTree[generation_row(g)][node_column(nodes)]; }
double nccl_nvls_efficiency(GpuGeneration g) { return g == GpuGeneration::hopper ? 0.85 : 0.0; }

double nccl_nvls_latency_s(bool tree, LinkType link) {
  if (link == LinkType::net) return (tree ? 20.9 : 18.0) * kMicrosecond;
  return 25.0 * kMicrosecond;
}

double nccl_net_overhead_s(Protocol p, bool amd_cpu) {
  return (p == Protocol::simple ? 3.0 : 1.0) * (amd_cpu ? 2.0 : 1.0) * kMicrosecond;
}

double nccl_tree_correction(Protocol p, double bytes) {
  if (bytes < 64.0) return 1.0;
  // log2i(nBytes >> 6): the floor of log2 of the size in 64-byte units.
  const int log_size = static_cast<int>(std::floor(std::log2(std::floor(bytes / 64.0))));
  if (log_size < 0 || log_size >= 23) return 1.0;
  return kTreeCorrection[protocol_row(p)][static_cast<std::size_t>(log_size)];
}

double nccl_ring_plateau_factor(GpuGeneration g) { return g == GpuGeneration::volta ? 1.9 : 1.4; }

}  // namespace parallax::models
