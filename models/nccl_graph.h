// File: models/nccl_graph.h
// What NCCL's topology search (NVIDIA/nccl src/graph/search.cc ncclTopoCompute at 5067397) hands
// its tuning model for the boxes parallax describes: the channel count and the per-channel
// bandwidths bwIntra / bwInter of the ring (and tree) graph and of the NVLS graph.
//
// The search does not try arbitrary bandwidths: it walks a per-architecture speed array from the
// top (intra-node arrays without NICs, inter-node arrays with; nccl_constants.h) and keeps, per
// speed s, as many channels as every link can carry at s. Links, as topo.cc builds them:
//   - a GPU's NVLink to the NVSwitch: links × 20.0 / 20.6 GB/s (SM80 / SM90), its PCIe link
//     width × GT/s / 80 (Gen4 x16 24, Gen5 x16 48 GB/s), a NIC its speed / 8000 (400 Gb/s: 50);
//   - ring channel: every GPU sends s to the next over NVLink (or PCIe), so n·s <= link; across
//     nodes a channel enters and leaves through a NIC (n <= u·⌊nic / s⌋, s <= min(NIC, PCIe))
//     and (ppn−1)/ppn of the channels cross each GPU's NVLink;
//   - NVLS channel: one head per channel takes 2·s, the others s: (n + 1)·s <= link for n heads.
// Pass 1 takes the first speed that yields a graph, stops when n·s reaches the GPU's total link
// bandwidth, else tries lower speeds while speed / best > 0.49 and keeps a strictly larger n·s;
// then ncclTopoDupChannels doubles the channels (halving s) when s >= 25 unless Hopper+ with
// s < 50 and more than 4 channels; pass 2 raises s (ring: both; tree: bwIntra up to 2·bwInter;
// NVLS: bwInter up to 2·bwIntra) while the graph still fits.
//
// Examples (nccl_graph_test in nccl_tuning_test.cpp): DGX A100 one node 12 × 20 GB/s; DGX H100
// one node 6 × 60 → dup → 12 × 30 (360 of 370.8 GB/s); 2 × DGX H100 (8 × 400 Gb/s NICs) 8 × 48;
// 2 × DGX A100 (8 × HDR, Gen4) 8 × 24 (tree bwIntra 30); NVLS on 8 H100 8 × 40, bwInter 60.
#pragma once

#include <cstdint>

#include "models/nccl_tuning.h"

namespace parallax::models {

struct NcclGraph {
  int channels = 0;
  double intra_Bps = 0.0;  // bwIntra per channel
  double inter_Bps = 0.0;  // bwInter per channel
  // Every channel runs the same GPU order (search.cc sameChannels): one box, or one NIC in use.
  bool same_channels = true;
};

// u: the NICs the group's ppn = ranks / nodes GPUs in one box use (NICs · ppn / GPUs per box,
// rounded, at least 1, at most the box's).
int nccl_group_nics(int64_t ranks, const NcclNet& net);

// The share of a NIC's rate left through an oversubscribed spine (nodes > nodes_per_leaf > 0,
// parallax's model, not NCCL's): a ring or tree leaves a leaf from one node only, so
// min(1, nodes_per_leaf / oversubscription); all-to-all sends most of its traffic over the spine,
// so 1 / oversubscription.
double nccl_spine_share(const NcclNet& net, bool all_to_all);

// The ring graph (NCCL_TOPO_PATTERN_RING) for `ranks` GPUs of `box` (box.net.nodes boxes);
// `tree`: the tree graph on the ring's channel count (pass 2 raises bwIntra, not bwInter).
NcclGraph nccl_ring_graph(int64_t ranks, const NcclBox& box, bool tree = false);

// The NVLS graph; channels 0 when the box has no NVLink SHARP (box.nvls on Hopper NVLink).
NcclGraph nccl_nvls_graph(int64_t ranks, const NcclBox& box);

}  // namespace parallax::models
