// File: sim/scenario/topology_shapes_test.cpp
#include "sim/scenario/topology_shapes.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "sim/scenario/hardware_reader.h"
#include "tests/support/link_count.h"

namespace parallax {
namespace {

HardwareSpec expand(std::string_view topology_yaml, int gpus) {
  HardwareSpec spec;
  spec.gpus.resize(static_cast<size_t>(gpus));
  spec.hosts.resize(1);
  expand_topology(parse_config_tree(topology_yaml, "topo.yaml"), "topology", spec);
  return spec;
}

std::string topology_error_of(std::string_view topology_yaml, int gpus) {
  try {
    expand(topology_yaml, gpus);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

using test_support::count_links;

TEST(TopologyShapes, CrossbarOneLinkPerGpu) {
  const HardwareSpec s = expand("shape: crossbar\nlink: {GBps: 450, latency_us: 0.5}\n", 8);
  ASSERT_EQ(s.switches.size(), 1u);
  EXPECT_EQ(s.switches[0].name, "nvswitch");
  EXPECT_EQ(s.switches[0].kind, NodeKind::nvswitch);
  ASSERT_EQ(s.links.size(), 8u);
  EXPECT_EQ(s.links[3].a, "gpu3");
  EXPECT_EQ(s.links[3].b, "nvswitch");
  EXPECT_EQ(s.links[3].kind, LinkKind::nvlink);
  EXPECT_DOUBLE_EQ(s.links[3].bandwidth_Bps, 450e9);
  EXPECT_DOUBLE_EQ(s.links[3].latency_s, 0.5e-6);
  EXPECT_TRUE(s.links[3].full_duplex);
}

TEST(TopologyShapes, CrossbarWithDirectHostLinks) {
  const HardwareSpec s = expand(
      "shape: crossbar\nswitch_name: sw\nlink: {GBps: 300, duplex: half}\nhost_link: {GBps: 32, latency_us: 1}\n", 4);
  EXPECT_EQ(s.switches.size(), 1u);
  EXPECT_EQ(s.links.size(), 8u);
  EXPECT_FALSE(s.links[0].full_duplex);
  EXPECT_EQ(count_links(s, "gpu2", "host0"), 1);
  EXPECT_EQ(count_links(s, "gpu2", "sw"), 1);
  EXPECT_EQ(s.links[4].kind, LinkKind::pcie);
}

TEST(TopologyShapes, CrossbarWithPcieSwitches) {
  const HardwareSpec s = expand(
      "shape: crossbar\nlink: {GBps: 450}\nhost_link: {GBps: 64}\n"
      "pcie_switches: {gpus_per_switch: 2, uplink: {GBps: 64}}\n",
      8);
  EXPECT_EQ(s.switches.size(), 5u);  // nvswitch + pcie_sw0..3
  EXPECT_EQ(s.links.size(), 20u);    // 8 NVLink + 8 GPU-switch + 4 uplinks
  EXPECT_EQ(count_links(s, "gpu5", "pcie_sw2"), 1);
  EXPECT_EQ(count_links(s, "pcie_sw3", "host0"), 1);
  EXPECT_EQ(count_links(s, "gpu0", "host0"), 0);
}

TEST(TopologyShapes, NvlinkPairsDirectToHost) {
  const HardwareSpec s = expand("shape: nvlink_pairs\nnvlink: {GBps: 56}\npcie: {GBps: 32}\n", 8);
  EXPECT_EQ(s.switches.size(), 0u);
  EXPECT_EQ(s.links.size(), 12u);  // 4 bridges + 8 PCIe
  EXPECT_EQ(count_links(s, "gpu6", "gpu7"), 1);
  EXPECT_EQ(count_links(s, "gpu1", "gpu2"), 0);
  EXPECT_EQ(count_links(s, "gpu1", "host0"), 1);
}

TEST(TopologyShapes, NvlinkPairsSwitchesViaHost) {
  const HardwareSpec s = expand(
      "shape: nvlink_pairs\nnvlink: {GBps: 56}\npcie: {GBps: 32}\ngpus_per_pcie_switch: 4\n"
      "switch_interconnect: host\nuplink: {GBps: 32}\n",
      8);
  EXPECT_EQ(s.switches.size(), 2u);
  EXPECT_EQ(s.links.size(), 14u);  // 4 bridges + 8 GPU-switch + 2 uplinks
  EXPECT_EQ(count_links(s, "gpu4", "pcie_sw1"), 1);
  EXPECT_EQ(count_links(s, "pcie_sw1", "host0"), 1);
}

TEST(TopologyShapes, NvlinkPairsSwitchesDirect) {
  const HardwareSpec s = expand(
      "shape: nvlink_pairs\nnvlink: {GBps: 56}\npcie: {GBps: 32}\ngpus_per_pcie_switch: 2\n"
      "switch_interconnect: direct\nuplink: {GBps: 16}\n",
      8);
  EXPECT_EQ(s.switches.size(), 4u);
  EXPECT_EQ(s.links.size(), 16u);  // 4 bridges + 8 GPU-switch + 3 chain + 1 host
  EXPECT_EQ(count_links(s, "pcie_sw1", "pcie_sw2"), 1);
  EXPECT_EQ(count_links(s, "pcie_sw0", "host0"), 1);
  EXPECT_EQ(count_links(s, "pcie_sw3", "host0"), 0);
}

TEST(TopologyShapes, NvlinkPairsOddGpuStaysUnbridged) {
  const HardwareSpec s = expand("shape: nvlink_pairs\nnvlink: {GBps: 56}\npcie: {GBps: 32}\n", 5);
  EXPECT_EQ(s.links.size(), 7u);  // 2 bridges + 5 PCIe
}

TEST(TopologyShapes, LeafSpine) {
  const HardwareSpec s =
      expand("shape: leaf_spine\ngpus_per_leaf: 4\nhost_link: {GBps: 50}\nuplink: {GBps: 100, latency_us: 2}\n", 10);
  EXPECT_EQ(s.switches.size(), 4u);  // leaf0..2 + spine
  EXPECT_EQ(s.links.size(), 14u);    // 10 GPU-leaf + 3 leaf-spine + host0-spine
  EXPECT_EQ(count_links(s, "gpu9", "leaf2"), 1);
  EXPECT_EQ(count_links(s, "host0", "spine"), 1);
  for (const NodeSpec& n : s.switches) EXPECT_EQ(n.kind, NodeKind::network_switch);
  for (const LinkSpec& l : s.links) EXPECT_EQ(l.kind, LinkKind::network);
}

TEST(TopologyShapes, NoneAddsNothing) {
  const HardwareSpec s = expand("shape: none\n", 4);
  EXPECT_TRUE(s.switches.empty());
  EXPECT_TRUE(s.links.empty());
}

TEST(TopologyShapes, Errors) {
  EXPECT_EQ(topology_error_of("shape: crossbarr\n", 2),
            "topo.yaml:1:8: unknown topology shape 'crossbarr' (did you mean 'crossbar'?); shapes: crossbar, "
            "nvlink_pairs, leaf_spine, none");
  EXPECT_EQ(topology_error_of("link: {GBps: 1}\n", 2), "topo.yaml:1:1: missing required key 'topology.shape'");
  EXPECT_EQ(topology_error_of("shape: crossbar\nlink: {GBps: 0}\n", 2),
            "topo.yaml:2:14: 'topology.link.GBps' must be greater than 0, got 0");
  EXPECT_EQ(topology_error_of("shape: crossbar\nlinks: {GBps: 1}\n", 2),
            "topo.yaml:2:1: unknown key 'topology.links' (did you mean 'link'?)");
  EXPECT_EQ(topology_error_of("shape: nvlink_pairs\nnvlink: {GBps: 1, kind: pcie}\npcie: {GBps: 1}\n", 2),
            "topo.yaml:2:19: unknown key 'topology.nvlink.kind'");
  EXPECT_EQ(topology_error_of("shape: nvlink_pairs\nnvlink: {GBps: 1}\npcie: {GBps: 1}\nuplink: {GBps: 1}\n", 2),
            "topo.yaml:4:9: 'topology.uplink' needs 'topology.gpus_per_pcie_switch'");
  EXPECT_EQ(topology_error_of("shape: leaf_spine\ngpus_per_leaf: 0\nhost_link: {GBps: 1}\nuplink: {GBps: 1}\n", 2),
            "topo.yaml:2:16: 'topology.gpus_per_leaf' must be at least 1, got 0");
  EXPECT_EQ(topology_error_of("shape: crossbar\nswitch_name: gpu3\nlink: {GBps: 1}\n", 2),
            "topo.yaml:2:14: 'topology.switch_name': 'gpu3' cannot name a switch (empty, spaces, or a GPU/host name)");
}

}  // namespace
}  // namespace parallax
