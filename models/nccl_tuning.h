// File: models/nccl_tuning.h
// NCCL's own choice of algorithm and protocol (REFERENCE.md §2.2, after NVIDIA/nccl
// src/graph/tuning.cc): every (algorithm, protocol) candidate that runs the op is costed as
//
//   time = latency + F·S / busbw        (F = bus_bandwidth_factor(op, P), collective_cost.h)
//
// and the smallest time wins (ties: the earlier candidate, in the order ring, tree, p2p, nvls,
// nvls_tree, pat and LL, LL128, Simple). Two size-dependent refinements of ncclTopoGetAlgoTime apply:
// tree all-reduce bandwidth × treeCorrectionFactor (0.4–1.0 by size) and, across nodes, ring
// all-reduce Simple latency × the "plateau" factor (NcclCandidate::plateau_factor). The candidates
// come either from NCCL's constants for a GPU generation, link kind and fabric (nccl_candidates,
// figures in nccl_constants.cpp and nccl_latency.cpp, each with its source) or from a fit to
// nccl-tests logs (models/calibration_data/nccl_tests_fit.h). Algorithms: ring for every op but
// all-to-all and send/recv, tree (double binary tree, all-reduce only), p2p for all-to-all and
// send/recv (NCCL runs those as grouped point-to-point sends, LL or Simple), nvls (NVLink
// SHARP on NVSwitch, Hopper, one node: all-reduce, all-gather, reduce-scatter) and nvls_tree
// (NVLS inside each node, a tree across nodes: all-reduce), pat (all-gather / reduce-scatter with
// one GPU per node). Channel counts and per-channel bandwidths come from an emulation of NCCL's
// topology search (models/nccl_graph.h). Across nodes (NcclNet) the candidates
// are NCCL's multi-node ones: models/nccl_scaleout.h.
//
// Example: 8 × A100 (12 NVLinks, 300 GB/s line rate; NCCL plans 12 × 20 = 240 GB/s), all-reduce
// of 1 KiB: ring LL costs 6.6 + 14·0.6 = 15 µs of latency, ring Simple 8.4 + 14·3.4 = 56 µs; LL
// wins. At 1 GiB the bandwidth term decides: Simple (240 GB/s) beats LL128 (0.92·240) and LL
// (capped at 87.7 GB/s).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "models/collective_cost.h"

namespace parallax::models {

enum class GpuGeneration { volta, ampere, hopper };

// From a GPU model name ("NVIDIA A100-SXM4-80GB", "H100", "H200", "V100"); ampere when unknown.
GpuGeneration gpu_generation(std::string_view gpu_model);
std::string_view to_string(GpuGeneration generation);

struct NcclCandidate {
  std::string_view algorithm;  // "ring", "tree" or "p2p"
  Protocol protocol = Protocol::simple;
  double latency_s = 0.0;  // size-independent part
  double busbw_Bps = 0.0;  // bus bandwidth the candidate reaches (nccl-tests' busbw at large S)
  int channels = 0;        // channels NCCL runs it on (comm->nChannels; NVLS 16); reported, and the plateau's
  // Latency × this once bytes / (channels · ranks) >= 64 (multi-node ring all-reduce Simple).
  double plateau_factor = 1.0;
};

struct NcclChoice {
  NcclCandidate candidate;
  CollectiveCost cost;
};

// The cost of one candidate for `bytes` of `op` over `ranks` (zero for one rank).
CollectiveCost nccl_candidate_cost(CollectiveOp op, int64_t ranks, double bytes, const NcclCandidate& c);

// The fastest candidate. Throws std::invalid_argument when `candidates` is empty.
NcclChoice choose_nccl(CollectiveOp op, int64_t ranks, double bytes, const std::vector<NcclCandidate>& candidates);

// How boxes connect (models-level: tools/ maps HardwareSpec::fabric into it). nodes == 1: one
// box, the other fields unused. The group's ranks are spread evenly: ranks / nodes per box.
struct NcclNet {
  int nodes = 1;
  int gpus_per_node = 0;       // GPUs in one box (they share its NICs)
  int nics_per_node = 0;
  double nic_Bps = 0.0;        // per NIC, per direction (line rate)
  double hop_latency_s = 0.0;  // tuning.cc's graph latencyInter: what one inter-node hop adds to NCCL's NET hwLat
  // Leaves of nodes_per_leaf nodes whose uplinks carry 1/oversubscription of their downlinks
  // (0: every node on one leaf, or rails that keep same-rank traffic on one switch).
  int nodes_per_leaf = 0;
  double oversubscription = 1.0;
  // The hosts' CPU vendor: across nodes NCCL takes llMaxBw and the network post overhead by it
  // (tuning.cc index1, getNetOverhead). Intel unless the preset says otherwise.
  bool amd_cpu = false;
};

// A box whose GPUs each have `link_Bps` of line rate per direction over `link`; NCCL plans with
// about 80% of it (nccl_tuning.cpp: 20 of every 25 GB/s NVLink link). `nvls`: the GPUs sit on an
// NVSwitch that can reduce (NVLink SHARP, Hopper). `net`: several such boxes.
struct NcclBox {
  GpuGeneration generation = GpuGeneration::ampere;
  LinkType link = LinkType::nvlink;
  double link_Bps = 0.0;
  bool nvls = false;
  NcclNet net;
};

// The link bandwidth NCCL's topology reads for one GPU of `box` (NVLink: 20.0 / 20.6 GB/s per
// 25 GB/s link; PCIe: 12 of 16 GB/s); the search (nccl_graph.h) fits channels into it.
double nccl_link_Bps(const NcclBox& box);

// NCCL's candidates for `op` over `ranks` GPUs of `box` (and of box.net's nodes), optionally only
// those of `algorithm` ("ring", "tree", "p2p", "nvls", "nvls_tree", "pat"; empty = all) and `protocol`
// (nullptr = all). Empty when the pin rules every candidate out (tree for anything but
// all-reduce, p2p for collectives, nvls off Hopper NVSwitch). Throws std::invalid_argument when
// ranks do not spread evenly over box.net.nodes or exceed its boxes.
std::vector<NcclCandidate> nccl_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box,
                                           std::string_view algorithm = {}, const Protocol* protocol = nullptr);

// The protocol named "LL", "LL128" or "Simple" (case-insensitive), or false.
bool parse_protocol(std::string_view name, Protocol& out);

}  // namespace parallax::models
