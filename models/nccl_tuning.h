// File: models/nccl_tuning.h
// NCCL's own choice of algorithm and protocol (REFERENCE.md §2.2, after NVIDIA/nccl
// src/graph/tuning.cc): every (algorithm, protocol) candidate that runs the op is costed as
//
//   time = latency + F·S / busbw        (F = bus_bandwidth_factor(op, P), collective_cost.h)
//
// and the smallest time wins (ties: the earlier candidate, in the order ring, tree, p2p and LL,
// LL128, Simple). The candidates come either from NCCL's constants for a GPU generation and link
// kind (nccl_candidates, figures in nccl_tuning.cpp and nccl_latency.cpp, each with its source) or from a fit to
// nccl-tests logs (models/calibration_data/nccl_tests_fit.h). Algorithms: ring for every op but
// all-to-all and send/recv, tree (double binary tree, all-reduce only), p2p for all-to-all and
// send/recv (NCCL runs those as grouped point-to-point sends, LL or Simple).
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
  int channels = 0;        // NCCL channels it runs on (reported; already inside busbw_Bps)
};

struct NcclChoice {
  NcclCandidate candidate;
  CollectiveCost cost;
};

// The cost of one candidate for `bytes` of `op` over `ranks` (zero for one rank).
CollectiveCost nccl_candidate_cost(CollectiveOp op, int64_t ranks, double bytes, const NcclCandidate& c);

// The fastest candidate. Throws std::invalid_argument when `candidates` is empty.
NcclChoice choose_nccl(CollectiveOp op, int64_t ranks, double bytes, const std::vector<NcclCandidate>& candidates);

// A single box (one node) whose GPUs each have `link_Bps` of line rate per direction over
// `link`; NCCL plans with about 80% of it (nccl_tuning.cpp: 20 of every 25 GB/s NVLink link).
struct NcclBox {
  GpuGeneration generation = GpuGeneration::ampere;
  LinkType link = LinkType::nvlink;
  double link_Bps = 0.0;
};

// NCCL's candidates for `op` over `ranks` GPUs of `box`, optionally only those of `algorithm`
// ("ring", "tree", "p2p"; empty = all) and `protocol` (nullptr = all). Empty when the pin rules
// every candidate out (tree for anything but all-reduce, p2p for collectives).
std::vector<NcclCandidate> nccl_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box,
                                           std::string_view algorithm = {}, const Protocol* protocol = nullptr);

// The protocol named "LL", "LL128" or "Simple" (case-insensitive), or false.
bool parse_protocol(std::string_view name, Protocol& out);

}  // namespace parallax::models
