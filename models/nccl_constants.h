// File: models/nccl_constants.h
// NCCL's tuning-model figures that depend on the GPU generation and on how many nodes the
// communicator spans (tuning.cc's N1 / N2 / N4 columns: one node, two nodes, more), read from
// NVIDIA/nccl src/graph/tuning.cc and src/graph/topo.h at 5067397 (REFERENCE.md §2.2 summarises
// them). The per-link-kind latencies of ring and tree are nccl_latency.h's; the figures of the
// algorithms that only exist here (NVLS, NVLS tree) and of the network are below.
#pragma once

#include "models/collective_cost.h"
#include "models/nccl_tuning.h"

namespace parallax::models {

// MAXCHANNELS (src/include/device.h) and the NVLS channel count on SM90 (src/transport/nvls.cc).
inline constexpr int kNcclMaxChannels = 32;
inline constexpr int kNcclNvlsChannels = 16;

// Bandwidth NCCL credits one channel over one NVLink link, GB/s: SM70/SM80 20.0, SM90 20.6 (topo.h).
double nccl_nvlink_channel_GBps(GpuGeneration g);

// llMaxBw, GB/s. One node: by GPU (Volta 39.0, Ampere 87.7, Hopper 141.0); several nodes: by CPU,
// the Intel row {39.0, 20.4} for 2 / more nodes (the CPU vendor is not in the hardware spec).
double nccl_ll_max_GBps(GpuGeneration g, int nodes);
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

// Network post overhead per inter-node ring step: 1.0 µs (x86 Intel; AMD 2.0), ×3 for Simple
// (getNetOverhead; the CPU vendor is not in the hardware spec, so Intel's).
double nccl_net_overhead_s(Protocol p);

// treeCorrectionFactor[protocol][log2(bytes/64)] for tree all-reduce, 64 B to 256 MB; 1 outside.
double nccl_tree_correction(Protocol p, double bytes);

// The multi-node ring all-reduce Simple "plateau" factor on latency: 1.9 before SM80, 1.4 from
// SM80 on, once bytes / (channels · ranks) >= 64 (ncclTopoGetAlgoTime).
double nccl_ring_plateau_factor(GpuGeneration g);
inline constexpr double kNcclPlateauMinBytesPerChannelRank = 64.0;

}  // namespace parallax::models
