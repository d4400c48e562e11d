// File: models/nccl_tuning_test.cpp
// NCCL's candidates, its protocol switch points on hand-computed cases, and the choice = the
// minimum over candidates (models/nccl_tuning.h).
#include "models/nccl_tuning.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "models/nccl_graph.h"
#include "models/protocol_fit.h"

namespace parallax::models {
namespace {

NcclBox nvlink_box(GpuGeneration g, double link_Bps) {
  NcclBox box;
  box.generation = g;
  box.link_Bps = link_Bps;
  return box;
}

NcclBox a100_box() { return nvlink_box(GpuGeneration::ampere, 300e9); }  // 12 NVLink3 links

const NcclCandidate& find(const std::vector<NcclCandidate>& c, std::string_view algorithm, Protocol p) {
  for (const NcclCandidate& x : c)
    if (x.algorithm == algorithm && x.protocol == p) return x;
  ADD_FAILURE() << "no " << algorithm << " " << to_string(p);
  return c.front();
}

TEST(NcclTuning, CandidatesCarryNcclLatenciesAndBandwidths) {
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_reduce, 8, a100_box());
  ASSERT_EQ(c.size(), 6u);  // ring and tree, three protocols each
  // Ring, 8 GPUs, 14 steps (REFERENCE.md §2.2): LL 6.6 + 14·0.6 = 15 µs; Simple 8.4 + 14·3.4 = 56 µs.
  EXPECT_NEAR(find(c, "ring", Protocol::ll).latency_s, 15.0e-6, 1e-12);
  EXPECT_NEAR(find(c, "ring", Protocol::ll128).latency_s, (14.0 + 14 * 1.9) * 1e-6, 1e-12);
  EXPECT_NEAR(find(c, "ring", Protocol::simple).latency_s, 56.0e-6, 1e-12);
  // NCCL plans 12 × 20 = 240 GB/s. LL: min(½·240, 87.7) GB/s on Ampere; LL128 0.92·240; Simple 240.
  EXPECT_NEAR(find(c, "ring", Protocol::ll).busbw_Bps, 87.7e9, 1.0);
  EXPECT_NEAR(find(c, "ring", Protocol::ll128).busbw_Bps, 0.92 * 240e9, 1.0);
  EXPECT_NEAR(find(c, "ring", Protocol::simple).busbw_Bps, 240e9, 1.0);
  // The search's 12 channels of 20 GB/s, run on twice as many (ncclTopoPostset).
  EXPECT_EQ(find(c, "ring", Protocol::simple).channels, 24);
  // Tree: min(0.92·240, 12·24) = 220.8 GB/s; LL 220.8/3.8 = 58.1; LL128 220.8·7/9 = 171.7 (< 12·20).
  EXPECT_NEAR(find(c, "tree", Protocol::simple).busbw_Bps, 220.8e9, 1e3);
  EXPECT_NEAR(find(c, "tree", Protocol::ll).busbw_Bps, 220.8e9 / 3.8, 1e3);
  EXPECT_NEAR(find(c, "tree", Protocol::ll128).busbw_Bps, 220.8e9 * 7.0 / 9.0, 1e3);
  // Only all-reduce has a tree; all-to-all and send/recv run as p2p with LL or Simple.
  EXPECT_EQ(nccl_candidates(CollectiveOp::all_gather, 8, a100_box()).size(), 3u);
  const std::vector<NcclCandidate> a2a = nccl_candidates(CollectiveOp::all_to_all, 8, a100_box());
  ASSERT_EQ(a2a.size(), 2u);
  EXPECT_EQ(a2a[0].algorithm, "p2p");
  EXPECT_TRUE(nccl_candidates(CollectiveOp::all_gather, 8, a100_box(), "tree").empty());
  const Protocol ll128 = Protocol::ll128;
  EXPECT_TRUE(nccl_candidates(CollectiveOp::send_recv, 2, a100_box(), {}, &ll128).empty());
}

// Switch points by hand, ring on 8 A100s, all-reduce (F = 1.75):
//   LL vs LL128: 15 + 1.75·S/87.7 = 40.6 + 1.75·S/220.8 (µs, KB/µs = GB/s·1e-3)
//     → S = 25.6e-6 / (1.75·(1/87.7e9 − 1/220.8e9)) = 2.13 MB.
//   LL128 vs Simple: 40.6 + 1.75·S/220.8 = 56 + 1.75·S/240 → S = 15.4e-6/(1.75·(1/220.8e9 − 1/240e9)) = 24.3 MB.
TEST(NcclTuning, ProtocolSwitchPointsOnHandCases) {
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_reduce, 8, a100_box(), "ring");
  auto protocol_at = [&](double bytes) { return choose_nccl(CollectiveOp::all_reduce, 8, bytes, c).candidate.protocol; };
  const double ll_ll128 = 25.6e-6 / (1.75 * (1 / 87.7e9 - 1 / (0.92 * 240e9)));
  const double ll128_simple = 15.4e-6 / (1.75 * (1 / (0.92 * 240e9) - 1 / 240e9));
  EXPECT_NEAR(ll_ll128, 2.13e6, 0.01e6);
  EXPECT_NEAR(ll128_simple, 24.3e6, 0.1e6);
  EXPECT_EQ(protocol_at(1024), Protocol::ll);
  EXPECT_EQ(protocol_at(ll_ll128 * 0.99), Protocol::ll);
  EXPECT_EQ(protocol_at(ll_ll128 * 1.01), Protocol::ll128);
  EXPECT_EQ(protocol_at(ll128_simple * 0.99), Protocol::ll128);
  EXPECT_EQ(protocol_at(ll128_simple * 1.01), Protocol::simple);
  EXPECT_EQ(protocol_at(1e9), Protocol::simple);
}

TEST(NcclTuning, ChoiceIsTheMinimumOverCandidates) {
  for (CollectiveOp op : kAllCollectiveOps) {
    const int64_t ranks = op == CollectiveOp::send_recv ? 2 : 8;
    const std::vector<NcclCandidate> c = nccl_candidates(op, ranks, nvlink_box(GpuGeneration::hopper, 370e9));
    for (double bytes = 128; bytes < 1e10; bytes *= 4) {
      const NcclChoice best = choose_nccl(op, ranks, bytes, c);
      double smallest = INFINITY;
      for (const NcclCandidate& x : c) smallest = std::min(smallest, nccl_candidate_cost(op, ranks, bytes, x).time_s);
      EXPECT_DOUBLE_EQ(best.cost.time_s, smallest) << to_string(op) << " " << bytes;
    }
  }
  EXPECT_THROW(choose_nccl(CollectiveOp::all_reduce, 8, 1.0, {}), std::invalid_argument);
}

TEST(NcclTuning, GenerationFromTheGpuName) {
  EXPECT_EQ(gpu_generation("NVIDIA H100 80GB HBM3"), GpuGeneration::hopper);
  EXPECT_EQ(gpu_generation("NVIDIA H200"), GpuGeneration::hopper);
  EXPECT_EQ(gpu_generation("Tesla V100-SXM2-32GB"), GpuGeneration::volta);
  EXPECT_EQ(gpu_generation("NVIDIA A100-SXM4-80GB"), GpuGeneration::ampere);
  Protocol p{};
  EXPECT_TRUE(parse_protocol("ll128", p));
  EXPECT_EQ(p, Protocol::ll128);
  EXPECT_FALSE(parse_protocol("fast", p));
}

NcclBox two_dgx(GpuGeneration g, double nvlink_Bps, double nic_Bps) {
  NcclBox box = nvlink_box(g, nvlink_Bps);
  box.net = {2, 8, 8, nic_Bps, 0.0, 0, 1.0};
  return box;
}

// nccl_scaleout.h's example: 2 × DGX A100 (8 × 25 GB/s NICs), all-reduce over 16 GPUs.
TEST(NcclScaleout, TwoDgxA100AllReduceByHand) {
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_reduce, 16, two_dgx(GpuGeneration::ampere, 300e9, 25e9));
  ASSERT_EQ(c.size(), 6u);
  const NcclCandidate& ring = find(c, "ring", Protocol::simple);
  EXPECT_EQ(ring.channels, 16);                   // searched: one per NIC at 24 GB/s (PCIe Gen4 24); run: ×2
  EXPECT_NEAR(ring.busbw_Bps, 192e9, 1.0);        // 8 channels × 24 GB/s
  // 8.4 + 28 intra steps × max(3.4, 3 × 1.0 net overhead) + 2 NET steps × 14.0 µs.
  EXPECT_NEAR(ring.latency_s, 131.6e-6, 1e-12);
  EXPECT_DOUBLE_EQ(ring.plateau_factor, 1.4);
  // LL across two Intel nodes: min(½·192, llMaxBw 39.0); LL128: min(0.92·192, 8 × 20).
  EXPECT_NEAR(find(c, "ring", Protocol::ll).busbw_Bps, 39.0e9, 1.0);
  EXPECT_NEAR(find(c, "ring", Protocol::ll128).busbw_Bps, 160e9, 1.0);  // 8 channels × 20 caps 184
  // Tree: 8.4 + 2·(7·4.0 + ⌊log2 2⌋·14.0) µs; on 2 nodes bwIntra (raised to 30 GB/s by the
  // search's pass 2): min(0.92 · 8 × 30, 8 × 23.6) = 188.8 GB/s.
  const NcclCandidate& tree = find(c, "tree", Protocol::simple);
  EXPECT_NEAR(tree.latency_s, 92.4e-6, 1e-12);
  EXPECT_NEAR(tree.busbw_Bps, 188.8e9, 1e3);
  // The plateau: ring Simple latency × 1.4 once S / (16 channels · 16 ranks) >= 64 B.
  EXPECT_NEAR(nccl_candidate_cost(CollectiveOp::all_reduce, 16, 16383, ring).latency_s, 131.6e-6, 1e-12);
  EXPECT_NEAR(nccl_candidate_cost(CollectiveOp::all_reduce, 16, 16384, ring).latency_s, 1.4 * 131.6e-6, 1e-12);
  // Tree bandwidth follows treeCorrectionFactor: Simple at 1 MiB (log2(2^20/64) = 14) × 0.5.
  EXPECT_NEAR(nccl_candidate_cost(CollectiveOp::all_reduce, 16, 1 << 20, tree).bandwidth_s, 2.0 * (1 << 20) / (0.5 * 188.8e9), 1e-12);
  // At 1 GiB the bandwidth decides: ring Simple (1.875·S / 192 GB/s) beats tree (2·S / 188.8).
  EXPECT_EQ(choose_nccl(CollectiveOp::all_reduce, 16, 1 << 30, c).candidate.algorithm, "ring");
  // Ranks must spread evenly over the boxes.
  EXPECT_THROW(nccl_candidates(CollectiveOp::all_reduce, 15, two_dgx(GpuGeneration::ampere, 300e9, 25e9)), std::invalid_argument);
  EXPECT_THROW(nccl_candidates(CollectiveOp::all_reduce, 18, two_dgx(GpuGeneration::ampere, 300e9, 25e9)), std::invalid_argument);
}

TEST(NcclScaleout, AmdHostsTakeTheAmdRows) {
  // getNetOverhead 2.0 µs (×3 Simple) and llMaxBw 22.5 GB/s on two AMD nodes (tuning.cc).
  NcclBox box = two_dgx(GpuGeneration::ampere, 300e9, 25e9);
  box.net.amd_cpu = true;
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_reduce, 16, box);
  EXPECT_NEAR(find(c, "ring", Protocol::simple).latency_s, (8.4 + 28 * 6.0 + 2 * 14.0) * 1e-6, 1e-12);
  EXPECT_NEAR(find(c, "ring", Protocol::ll).busbw_Bps, 22.5e9, 1.0);
}

TEST(NcclScaleout, OneGpuPerNodeUsesOneNicAndTheTreeNetLatency) {
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_gather, 2, two_dgx(GpuGeneration::ampere, 300e9, 25e9));
  const NcclCandidate& ring = find(c, "ring", Protocol::simple);
  EXPECT_EQ(ring.channels, 2);             // one searched, run on two
  EXPECT_NEAR(ring.busbw_Bps, 24e9, 1.0);  // one NIC, 24 GB/s on the speed array (PCIe Gen4 24)
  // 1 step, across the net; ppn = 1 takes NET tree hwLat (14.0 for Simple): 8.4 + 14.0.
  EXPECT_NEAR(ring.latency_s, 22.4e-6, 1e-12);
  EXPECT_NEAR(find(c, "ring", Protocol::ll).latency_s, (6.6 + 5.0) * 1e-6, 1e-12);
}

TEST(NcclScaleout, PatForOneGpuPerNode) {
  // 2 × 1 A100, all-gather: PAT on the tree graph (1 channel; with no NVLink in use pass 2 lifts
  // bwIntra to 48 GB/s, which 2 nodes use): latency 8.0 + ⌊log2 2⌋·14.0/3.5 + 2·2.8 µs; busBw
  // 48 × 0.75 = 36 GB/s in bus terms, so nccl-tests' busbw F·36 = 18 GB/s.
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_gather, 2, two_dgx(GpuGeneration::ampere, 300e9, 25e9), "pat");
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].latency_s, 17.6e-6, 1e-12);
  EXPECT_NEAR(c[0].busbw_Bps, 18e9, 1.0);
  // Not with several GPUs per node, nor for all-reduce.
  EXPECT_TRUE(nccl_candidates(CollectiveOp::all_gather, 16, two_dgx(GpuGeneration::ampere, 300e9, 25e9), "pat").empty());
  EXPECT_TRUE(nccl_candidates(CollectiveOp::all_reduce, 2, two_dgx(GpuGeneration::ampere, 300e9, 25e9), "pat").empty());
}

TEST(NcclScaleout, AllToAllIsBoundByEachGpusNic) {
  // 2 × DGX H100: half of every rank's S leaves the box through its own 50 GB/s NIC.
  const NcclBox box = two_dgx(GpuGeneration::hopper, 450e9, 50e9);
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_to_all, 16, box);
  ASSERT_EQ(c.size(), 2u);
  const NcclCandidate& simple = find(c, "p2p", Protocol::simple);
  EXPECT_EQ(simple.channels, 16);  // the ring graph's 8 (one 48 GB/s channel per 50 GB/s NIC), run ×2
  const double bytes = 1e9;
  EXPECT_NEAR(nccl_candidate_cost(CollectiveOp::all_to_all, 16, bytes, simple).bandwidth_s, 0.5 * bytes / 50e9, 1e-12);
  // 7 NVLink steps + 8 NET steps (14.0 µs each for Simple) after base 8.4.
  EXPECT_NEAR(simple.latency_s, (8.4 + 7 * 3.4 + 8 * 14.0) * 1e-6, 1e-12);
  const std::vector<NcclCandidate> sr = nccl_candidates(CollectiveOp::send_recv, 2, box);
  EXPECT_NEAR(find(sr, "p2p", Protocol::simple).busbw_Bps, 50e9, 1.0);
  // Every op answers across nodes, with its algorithm and protocol.
  for (CollectiveOp op : kAllCollectiveOps) {
    const int64_t ranks = op == CollectiveOp::send_recv ? 2 : 16;
    const NcclChoice choice = choose_nccl(op, ranks, 1 << 24, nccl_candidates(op, ranks, box));
    EXPECT_GT(choice.cost.time_s, 0) << to_string(op);
    EXPECT_FALSE(choice.candidate.algorithm.empty());
  }
}

TEST(NcclScaleout, NvlsOnHopperNvswitch) {
  NcclBox box = nvlink_box(GpuGeneration::hopper, 450e9);  // 18 NVLink4 links: NCCL plans 18 × 20.6
  EXPECT_TRUE(nccl_candidates(CollectiveOp::all_reduce, 8, box, "nvls").empty());  // not an NVLS box
  box.nvls = true;
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::all_reduce, 8, box, "nvls");
  ASSERT_EQ(c.size(), 1u);
  // NVLS graph 8 channels × 40 GB/s (9 × 40 <= 370.8), bwInter 60: 8 × min(40 · 0.85 · 7/8 · 2, 60).
  EXPECT_EQ(c[0].channels, 16);  // searched 8, run on NCCL_NVLS_NCHANNELS
  EXPECT_NEAR(c[0].busbw_Bps, 8 * 40e9 * 0.85 * 7.0 / 8.0 * 2.0, 1e3);
  EXPECT_NEAR(c[0].latency_s, 25e-6, 1e-12);
  EXPECT_EQ(c[0].protocol, Protocol::simple);
  // Large all-reduce: NVLS wins over the ring; small: LL ring.
  const std::vector<NcclCandidate> all = nccl_candidates(CollectiveOp::all_reduce, 8, box);
  EXPECT_EQ(choose_nccl(CollectiveOp::all_reduce, 8, 1 << 30, all).candidate.algorithm, "nvls");
  EXPECT_EQ(choose_nccl(CollectiveOp::all_reduce, 8, 1024, all).candidate.algorithm, "ring");
  EXPECT_TRUE(nccl_candidates(CollectiveOp::broadcast, 8, box, "nvls").empty());
  // Ampere has no NVLS, whatever the box says.
  box.generation = GpuGeneration::ampere;
  EXPECT_TRUE(nccl_candidates(CollectiveOp::all_reduce, 8, box, "nvls").empty());
  // Two H100 boxes: NVLS graph 8 × 40, bwInter 48; per channel min(59.5, 2 × 48, 57.7).
  NcclBox two = two_dgx(GpuGeneration::hopper, 450e9, 50e9);
  two.nvls = true;
  const std::vector<NcclCandidate> t = nccl_candidates(CollectiveOp::all_reduce, 16, two, "nvls_tree");
  ASSERT_EQ(t.size(), 1u);
  EXPECT_NEAR(t[0].busbw_Bps, 8 * 57.7e9, 1e3);
  EXPECT_NEAR(t[0].latency_s, (25.0 + 2.0 * 20.9) * 1e-6, 1e-12);
  EXPECT_TRUE(nccl_candidates(CollectiveOp::all_reduce, 16, two, "nvls").empty());  // NVLS alone needs CollNet
}

// The topology search's outcomes of nccl_graph.h's examples, by hand from search.cc.
TEST(NcclGraph, SpeedArraysChannelsAndDuplication) {
  // DGX A100: 6 × 40 fills 240 GB/s; duplicated to 12 × 20.
  NcclGraph g = nccl_ring_graph(8, a100_box());
  EXPECT_EQ(g.channels, 12);
  EXPECT_NEAR(g.intra_Bps, 20e9, 1.0);
  // DGX H100 (370.8 GB/s): 6 × 60 (350 at 50, 360 at 40 and 30 are no better); duplicated (60 >= 50).
  const NcclBox h100 = nvlink_box(GpuGeneration::hopper, 450e9);
  g = nccl_ring_graph(8, h100);
  EXPECT_EQ(g.channels, 12);
  EXPECT_NEAR(g.intra_Bps, 30e9, 1.0);
  // 2 × DGX H100: 48 GB/s (min(NIC 50, PCIe Gen5 48)), one channel per NIC; no dup (Hopper, < 50, > 4).
  g = nccl_ring_graph(16, two_dgx(GpuGeneration::hopper, 450e9, 50e9));
  EXPECT_EQ(g.channels, 8);
  EXPECT_NEAR(g.intra_Bps, 48e9, 1.0);
  EXPECT_FALSE(g.same_channels);
  // 2 × DGX A100: ring 8 × 24; the tree raises bwIntra to 30 (8 × 28 and 8 × 30 fit in 240 · 8/7).
  g = nccl_ring_graph(16, two_dgx(GpuGeneration::ampere, 300e9, 25e9), true);
  EXPECT_EQ(g.channels, 8);
  EXPECT_NEAR(g.intra_Bps, 30e9, 1.0);
  EXPECT_NEAR(g.inter_Bps, 24e9, 1.0);
  // A PCIe Gen4 box (24 GB/s plan): 1 × 20 < 2 × 12.
  NcclBox pcie = nvlink_box(GpuGeneration::ampere, 32e9);
  pcie.link = LinkType::pcie;
  g = nccl_ring_graph(4, pcie);
  EXPECT_EQ(g.channels, 2);
  EXPECT_NEAR(g.intra_Bps, 12e9, 1.0);
  // ...and no LL128 there (tuning.cc: typeIntra <= PATH_NVB).
  const Protocol ll128 = Protocol::ll128;
  EXPECT_TRUE(nccl_candidates(CollectiveOp::all_reduce, 4, pcie, {}, &ll128).empty());
  // NVLS on 8 H100s: every GPU heads a channel, 9 × 40 <= 370.8; bwInter raised to 60.
  NcclBox nvls = h100;
  nvls.nvls = true;
  g = nccl_nvls_graph(8, nvls);
  EXPECT_EQ(g.channels, 8);
  EXPECT_NEAR(g.intra_Bps, 40e9, 1.0);
  EXPECT_NEAR(g.inter_Bps, 60e9, 1.0);
}

TEST(NcclTuning, RootedOpsOnOneBoxPayOneHop) {
  // tuning.cc: broadcast / reduce on channels of one GPU order add one hwLat to baseLat.
  const std::vector<NcclCandidate> c = nccl_candidates(CollectiveOp::broadcast, 8, a100_box());
  EXPECT_NEAR(find(c, "ring", Protocol::simple).latency_s, (8.4 + 3.4) * 1e-6, 1e-12);
  EXPECT_NEAR(find(c, "ring", Protocol::ll).latency_s, (6.6 + 0.6) * 1e-6, 1e-12);
}

TEST(ProtocolFit, TwoProtocolsFromAKnee) {
  // LL below, Simple above: 10 µs + S/50 GB/s and 40 µs + S/300 GB/s (broadcast, F = 1).
  std::vector<TimedSize> rows;
  for (double s = 256; s < 4e9; s *= 2)
    rows.push_back({s, std::min(10e-6 + s / 50e9, 40e-6 + s / 300e9)});
  const std::vector<NcclCandidate> fit = fit_protocols(CollectiveOp::broadcast, 8, rows, "ring");
  ASSERT_GE(fit.size(), 2u);
  EXPECT_NEAR(fit.front().latency_s, 10e-6, 0.5e-6);
  EXPECT_NEAR(fit.back().busbw_Bps, 300e9, 3e9);
  for (const TimedSize& r : rows)
    EXPECT_NEAR(choose_nccl(CollectiveOp::broadcast, 8, r.bytes, fit).cost.time_s / r.measured_s, 1.0, 0.01) << r.bytes;
}

}  // namespace
}  // namespace parallax::models
