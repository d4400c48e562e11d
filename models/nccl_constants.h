// File: models/nccl_constants.h
// NCCL's tuning-model figures that depend on the GPU generation and on how many nodes the
// communicator spans (tuning.cc's N1 / N2 / N4 columns: one node, two nodes, more), read from
// NVIDIA/nccl src/graph/tuning.cc and src/graph/topo.h at 5067397 (REFERENCE.md §2.2 summarises
// them). The per-link-kind latencies of ring and tree are nccl_latency.h's; the figures of the
// algorithms that only exist here (NVLS, NVLS tree) and of the network are below.
#pragma once

#include <span>

#include "models/collective_cost.h"
#include "models/nccl_tuning.h"

namespace parallax::models {

// The most channels a ring / tree graph may have: MAXCHANNELS / 2 = 64 / 2 (src/include/device.h,
// init.cc ringGraph->maxChannels); an NVLS graph at most NCCL_MAX_NVLS_ARITY = 32 (device.h).
inline constexpr int kNcclMaxRingChannels = 32;
inline constexpr int kNcclMaxNvlsChannels = 32;

// The per-channel speeds (GB/s) the topology search tries, fastest first (search.cc):
// without NICs speedArrayIntra {40, 30, 20, 18, 15, 12, 10, 9, 7, 6, 5, 4, 3} (SM90:
// {60, 50, 40, 30, 24, 20, 15, 12, 11, 6, 3}); with NICs speedArrayInter {48, 30, 28, 24, 20, 18,
// 15, 12, 10, 9, 7, 6, 5, 4, 3, 2.4, 1.2, 0.24, 0.12} (SM90: {48, 45, 42, 40, 30, 24, 22, 20, 17.5,
// 15, 12, 6, 3, 2.4, 1.2, 0.24, 0.12}).
std::span<const double> nccl_search_speeds_GBps(GpuGeneration g, bool inter);

// The bandwidth NCCL reads for a GPU's PCIe link to its NIC's switch, GB/s: width × GT/s / 80
// (topo.cc kvDictPciGen): x16 Gen3 12, Gen4 24, Gen5 48. [assumption: a DGX-class box whose NIC
// sits on the GPU's own PCIe switch at the GPU's generation (Volta Gen3, Ampere Gen4, Hopper
// Gen5); settle with the box's `nvidia-smi topo -m` and NCCL_TOPO_DUMP_FILE.]
double nccl_gpu_nic_pcie_GBps(GpuGeneration g);

// Bandwidth NCCL credits one channel over one NVLink link, GB/s: SM70/SM80 20.0, SM90 20.6 (topo.h).
double nccl_nvlink_channel_GBps(GpuGeneration g);

// llMaxBw, GB/s. One node: by GPU (Volta 39.0, Ampere 87.7, Hopper 141.0); several nodes: by CPU,
// Intel {39.0, 20.4}, AMD {22.5, 19.0} for 2 / more nodes.
double nccl_ll_max_GBps(GpuGeneration g, int nodes, bool amd_cpu = false);
// perChMaxRingLL128Bw (Volta, Ampere 20.0; Hopper 36.7; the same for every node count).
double nccl_ring_ll128_channel_GBps(GpuGeneration g, int nodes);
// perChMaxTreeBw: Volta {26.5, 18.5, 10.0}, Ampere {24.0, 23.6, 17.8}, Hopper {38.7, 41.4, 36.0}.
double nccl_tree_channel_GBps(GpuGeneration g, int nodes);
// perChMaxTreeLL128Bw: Volta, Ampere 20.0; Hopper {36.7, 36.7, 29.0}.
double nccl_tree_ll128_channel_GBps(GpuGeneration g, int nodes);
// perChMaxNVLSTreeBw, Hopper {-, 57.7, 45.5} (NVLS tree runs on several nodes only).
double nccl_nvls_tree_channel_GBps(GpuGeneration g, int nodes);
// nvlsEfficiency: Hopper 0.85 (0 before Hopper: no NVLS).
double nccl_nvls_efficiency(GpuGeneration g);

// hwLat of NVLS / NVLS tree, seconds (Simple only): NVLink 25 / 25 µs, NET 18 / 20.9 µs; baseLat 0.
double nccl_nvls_latency_s(bool tree, LinkType link);

// PAT (all-gather / reduce-scatter with one GPU per node, Simple; tuning.cc): baseLat 8.0 µs,
// latency += ⌊log2 N⌋ · interLat / 3.5 + nRanks · 2.8 µs, bus bandwidth × 0.75.
inline constexpr double kNcclPatBaseLatency_s = 8.0e-6;
inline constexpr double kNcclPatLogLatencyDivisor = 3.5;
inline constexpr double kNcclPatPerRankLatency_s = 2.8e-6;
inline constexpr double kNcclPatBandwidthFactor = 0.75;

// Network post overhead per inter-node ring step: 1.0 µs (x86 Intel), 2.0 µs (x86 AMD), ×3 for
// Simple (getNetOverhead).
double nccl_net_overhead_s(Protocol p, bool amd_cpu = false);

// Channels NCCL executes on: ncclTopoPostset doubles the search's min(ring, tree) channels (at
// most MAXCHANNELS = 64), and again on Hopper+ across nodes when the ring's bwIntra > 45 GB/s and
// fewer than 16 (connect.cc). NVLS runs on NCCL_NVLS_NCHANNELS = 16 (src/transport/nvls.cc).
int nccl_execution_channels(int search_channels, GpuGeneration g, int nodes, double ring_intra_GBps);
inline constexpr int kNcclNvlsExecutionChannels = 16;

// treeCorrectionFactor[protocol][log2(bytes/64)] for tree all-reduce, 64 B to 256 MB; 1 outside.
double nccl_tree_correction(Protocol p, double bytes);

// The multi-node ring all-reduce Simple "plateau" factor on latency: 1.9 before SM80, 1.4 from
// SM80 on, once bytes / (channels · ranks) >= 64 (ncclTopoGetAlgoTime).
double nccl_ring_plateau_factor(GpuGeneration g);
inline constexpr double kNcclPlateauMinBytesPerChannelRank = 64.0;

}  // namespace parallax::models
