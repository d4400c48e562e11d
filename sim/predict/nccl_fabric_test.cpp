// File: sim/predict/nccl_fabric_test.cpp
// HardwareSpec::fabric as NCCL's model sees it (sim/predict/nccl_fabric.h), on FabricSpecs filled by
// hand (DGX A100: 8 × HDR 200 Gb/s = 25 GB/s per GPU; DGX H100: 8 × NDR 400 Gb/s; REFERENCE.md §1.6).
#include "sim/predict/nccl_fabric.h"

#include <gtest/gtest.h>

#include "models/nccl_scaleout.h"

namespace parallax {
namespace {

HardwareSpec dgx(const std::string& gpu, double nic_Bps, int nodes) {
  HardwareSpec hw;
  hw.name = "dgx";
  GpuSpec g;
  g.model = gpu;
  hw.gpus.assign(8, g);
  hw.switches.push_back({"nvswitch", NodeKind::nvswitch});
  hw.fabric.nodes = nodes;
  for (int i = 0; i < 8; ++i) hw.fabric.nics.push_back({"pcie" + std::to_string(i / 2), nic_Bps, 1e-6});
  hw.fabric.switch_latency_s = 0.3e-6;
  return hw;
}

models::RingParams nvlink_ring(double Bps) {
  models::RingParams ring;
  ring.hops.assign(8, models::Hop{Bps, 0.0, models::LinkType::nvlink});
  return ring;
}

TEST(NcclFabric, RailOptimizedDgxA100) {
  const models::NcclBox box = nccl_box(dgx("A100-SXM4-80GB", 25e9, 4), nvlink_ring(300e9));
  EXPECT_EQ(box.generation, models::GpuGeneration::ampere);
  EXPECT_FALSE(box.nvls);  // NVLS needs Hopper
  EXPECT_EQ(box.net.nodes, 4);
  EXPECT_EQ(box.net.gpus_per_node, 8);
  EXPECT_EQ(box.net.nics_per_node, 8);
  EXPECT_DOUBLE_EQ(box.net.nic_Bps, 25e9);
  EXPECT_DOUBLE_EQ(box.net.hop_latency_s, 0.0);  // one rail switch: inside NCCL's NET hwLat
  EXPECT_EQ(box.net.nodes_per_leaf, 0);
  // 32 GPUs, 8 per node: one ring channel per NIC at 24 GB/s (NCCL's speed array under the
  // 25 GB/s NIC and the 24 GB/s PCIe Gen4 link, models/nccl_graph.h): 8 × 24.
  const auto c = models::nccl_candidates(models::CollectiveOp::all_reduce, 32, box, "ring");
  ASSERT_FALSE(c.empty());
  EXPECT_NEAR(c.back().busbw_Bps, 192e9, 1.0);
}

TEST(NcclFabric, OversubscribedLeafSpineDgxH100) {
  HardwareSpec hw = dgx("H100-SXM5", 50e9, 8);
  hw.fabric.shape = FabricSpec::Shape::leaf_spine;
  hw.fabric.nodes_per_leaf = 2;
  hw.fabric.oversubscription = 4.0;
  const models::NcclBox box = nccl_box(hw, nvlink_ring(450e9));
  EXPECT_TRUE(box.nvls);
  EXPECT_EQ(box.net.nodes_per_leaf, 2);
  EXPECT_DOUBLE_EQ(box.net.oversubscription, 4.0);
  EXPECT_NEAR(box.net.hop_latency_s, 2 * 0.3e-6, 1e-15);  // leaf, spine, leaf: two switches beyond the first
  // Ring: each NIC's 50 GB/s × min(1, 2/4) = 25 leaves one 24 GB/s channel (speed array): 8 × 24;
  // all-to-all: remote traffic at 50/4 GB/s per GPU.
  const auto ring = models::nccl_candidates(models::CollectiveOp::all_gather, 64, box, "ring");
  EXPECT_NEAR(ring.back().busbw_Bps, 192e9, 1.0);
  const auto a2a = models::nccl_candidates(models::CollectiveOp::all_to_all, 64, box);
  const double bytes = 1e9;
  const double t = models::nccl_candidate_cost(models::CollectiveOp::all_to_all, 64, bytes, a2a.back()).bandwidth_s;
  EXPECT_NEAR(t, (56.0 / 64.0) * bytes / 12.5e9, 1e-12);
}

TEST(NcclFabric, CalibratedNetworkReplacesThePresetNics) {
  const models::NcclBox preset = nccl_box(dgx("H100-SXM5", 50e9, 4), nvlink_ring(450e9));
  const models::NcclBox box = with_calibrated_network(preset, models::NetworkCalibration{4, 40e9, 8e-6, 0.0, 0.0});
  EXPECT_EQ(box.net.nodes, 4);  // the preset's node count stays
  EXPECT_EQ(box.net.nics_per_node, 4);
  EXPECT_DOUBLE_EQ(box.net.nic_Bps, 40e9);
  EXPECT_DOUBLE_EQ(box.net.hop_latency_s, 8e-6);
  // 4 NICs of 40 GB/s for 8 GPUs per node: the ring runs at 160 GB/s.
  const auto ring = models::nccl_candidates(models::CollectiveOp::all_gather, 32, box, "ring");
  EXPECT_NEAR(ring.back().busbw_Bps, 160e9, 1.0);
}

TEST(NcclFabric, OneBoxHasNoNet) {
  HardwareSpec hw = dgx("H100-SXM5", 50e9, 1);
  const models::NcclBox box = nccl_box(hw, nvlink_ring(450e9));
  EXPECT_EQ(box.net.nodes, 1);
  EXPECT_EQ(box.net.nics_per_node, 0);
}

}  // namespace
}  // namespace parallax
