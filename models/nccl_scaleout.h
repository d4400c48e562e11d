// File: models/nccl_scaleout.h
// NCCL's candidates beyond one plain box (used by nccl_candidates, nccl_tuning.h): the
// multi-node ring, tree and p2p of tuning.cc (NVIDIA/nccl 5067397), and NVLS.
//
// Across N nodes of ppn = P/N GPUs each (box.net), with u NICs reachable by the group's GPUs in a
// box (u = NICs · ppn / gpus_per_node, at least 1) of nic_Bps each:
//   graph     = the topology search's ring / tree graph (nccl_graph.h): one channel per NIC at
//               the speed-array step under min(NIC, PCIe) (DGX A100 8 × 24, DGX H100 8 × 48);
//   busbw     = channels × (N <= 2 ? bwIntra : bwInter)           (tuning.cc)
//   ring lat  = base + (steps − s_net)·max(intraLat, netOverhead) + s_net·interLat,
//               s_net = 2(N−1) for all-reduce, N−1 for all-gather / reduce-scatter,
//               interLat = NET hwLat (tree's when ppn = 1) + latencyInter (twice for Simple);
//               broadcast / reduce: base + one NET hwLat when every channel runs one GPU order
//               (one NIC in use), else base + P·NET hwLat (Simple: the tree's);
//               ring all-reduce Simple: × plateau (1.4 from SM80, 1.9 before) at size;
//   tree lat  = base + 2·((ppn − 1)·intraLat + ⌊log2 N⌋·interLat)      (all-reduce only)
//   tree bw   = min(0.92·tree busbw, channels · perChMaxTreeBw[N]), LL /3.8 (cap llMaxBw[N]),
//               LL128 × 120/128 (cap channels · perChMaxTreeLL128Bw[N]);
//   ring LL   = min(½·busbw, llMaxBw[N]); LL128 min(0.92·busbw, channels · 36.7 / 20 GB/s);
//               LL128 only over NVLink boxes; llMaxBw and netOverhead by CPU vendor (amd_cpu);
//   pat       = all-gather / reduce-scatter with ppn = 1: 8.0 + ⌊log2 N⌋·interLat/3.5 + 2.8·P µs,
//               tree busbw × 0.75 in bus terms;
//   p2p       = all-to-all: each rank sends (P − ppn)/P of S through its share u·nic_Bps/ppn of
//               the NICs and (ppn − 1)/P over NVLink, the slower decides; send/recv one NET hop.
// Oversubscribed spine (nodes > nodes_per_leaf > 0, nccl_spine_share): a ring or tree leaves a
// leaf from one node only, so nic_Bps × min(1, nodes_per_leaf / oversubscription); all-to-all
// sends most of its traffic over the spine, so nic_Bps / oversubscription.
// NVLS (box.nvls, Hopper): on the NVLS graph (n channels, bwIntra, bwInter; nccl_graph.h), per
// channel bwIntra·0.85·(n−1)/n, ×2 for all-reduce (the switch reduces), ×(ppn−1)/ppn for
// all-gather / reduce-scatter, at most bwInter; latency 25 µs. One node: nvls for all-reduce,
// all-gather, reduce-scatter. Several nodes (no CollNet): nvls_tree for all-reduce only, per
// channel min(NVLS intra, bwInter (×2 on 2 nodes), perChMaxNVLSTreeBw[N]), latency
// 25 µs + 2·⌊log2 N⌋·(20.9 µs + latencyInter twice). `channels` reports what NCCL runs
// (nccl_execution_channels; NVLS 16).
//
// Example, 2 × DGX A100 (8 × 25 GB/s HDR per box, latencyInter 0), all-reduce over 16 GPUs:
// 8 channels × 24 GB/s = 192 GB/s (run on 16); ring Simple latency 8.4 + 28·max(3.4, 3.0) +
// 2·14.0 = 131.6 µs (× 1.4 at size); tree Simple latency 8.4 + 2·(7·4.0 + 1·14.0) = 92.4 µs,
// bandwidth min(0.92 · 8 × 30, 8 × 23.6) = 188.8 GB/s (the tree's bwIntra, raised in pass 2).
#pragma once

#include <cstdint>
#include <vector>

#include "models/nccl_tuning.h"

namespace parallax::models {

// box.net.nodes > 1. Throws std::invalid_argument when ranks % nodes != 0, ranks / nodes exceeds
// gpus_per_node, or the net has no NIC bandwidth.
std::vector<NcclCandidate> nccl_multinode_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box);

// nvls / nvls_tree candidates; empty unless box.nvls on a Hopper NVLink box with ranks > 1.
std::vector<NcclCandidate> nccl_nvls_candidates(CollectiveOp op, int64_t ranks, const NcclBox& box);

}  // namespace parallax::models
