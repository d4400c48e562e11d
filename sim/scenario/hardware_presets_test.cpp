// File: sim/scenario/hardware_presets_test.cpp
// Every embedded preset loads, names itself after its file, cites its sources, and has the
// shape the brief asks for.
#include <algorithm>

#include <gtest/gtest.h>

#include <tuple>

#include "sim/scenario/scenario_loader.h"
#include "tests/support/link_count.h"

namespace parallax {
namespace {

using test_support::count_links;

TEST(HardwarePresets, AllPresentAndEveryOneLoadsWithSources) {
  const std::vector<std::string> names = hardware_preset_names();
  const std::vector<std::string> expected{"a100x4-nvlink-pairs", "a6000x8-nvlink-pairs", "dgx-a100", "dgx-h100",
                                          "h100x4-nvlink-pairs", "h200x1", "v100x4-gn6e"};
  EXPECT_EQ(names, expected);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const HardwareSpec spec = load_hardware_preset(name);
    EXPECT_EQ(spec.name, name);
    EXPECT_FALSE(spec.description.empty());
    EXPECT_GE(spec.sources.size(), 3u);
    for (const std::string& s : spec.sources) EXPECT_TRUE(s.find("REFERENCE.md") != std::string::npos || s.find("[assumption") != std::string::npos) << s;
    ASSERT_FALSE(spec.gpus.empty());
    EXPECT_GT(spec.gpus[0].sms, 0);
    EXPECT_GT(spec.gpus[0].peak_flops, 0);
    EXPECT_EQ(spec.hosts.size(), 1u);
  }
}

TEST(HardwarePresets, DgxH100) {
  const HardwareSpec s = load_hardware_preset("dgx-h100");
  EXPECT_EQ(s.gpus.size(), 8u);
  EXPECT_EQ(s.gpus[0].sms, 132);
  EXPECT_DOUBLE_EQ(s.gpus[0].peak_flops, 989.4e12);
  EXPECT_DOUBLE_EQ(s.gpus[0].hbm_Bps, 3350e9);
  EXPECT_EQ(s.gpus[0].memory_bytes, int64_t{80} << 30);
  double GBps = 0;
  EXPECT_EQ(count_links(s, "gpu3", "nvswitch", &GBps), 1);
  EXPECT_DOUBLE_EQ(GBps, 450);
  EXPECT_EQ(count_links(s, "gpu3", "pcie_sw1", &GBps), 1);
  EXPECT_DOUBLE_EQ(GBps, 64);
  EXPECT_EQ(count_links(s, "pcie_sw1", "host0"), 1);
  EXPECT_EQ(s.switches.size(), 5u);
}

// The cluster figures: one NIC per GPU behind that GPU's PCIe switch, rail-optimized, with sources;
// one box unless a scenario sets nodes.
TEST(HardwarePresets, DgxClustersHaveTheirFabric) {
  for (const auto& [name, GBps, per_leaf] : {std::tuple{"dgx-h100", 50e9, 32}, std::tuple{"dgx-a100", 25e9, 20}}) {
    const HardwareSpec s = load_hardware_preset(name);
    EXPECT_EQ(s.fabric.nodes, 1) << name;
    EXPECT_EQ(s.fabric.shape, FabricSpec::Shape::rail_optimized);
    ASSERT_EQ(s.fabric.nics.size(), 8u) << name;
    for (size_t k = 0; k < 8; ++k) {
      EXPECT_EQ(s.fabric.nics[k].attach, "pcie_sw" + std::to_string(k / 2)) << name << " NIC " << k;
      EXPECT_DOUBLE_EQ(s.fabric.nics[k].bandwidth_Bps, GBps);
    }
    EXPECT_EQ(s.fabric.nodes_per_leaf, per_leaf);
    EXPECT_DOUBLE_EQ(s.fabric.oversubscription, 1.0);
    EXPECT_GE(s.fabric.sources.size(), 4u);
    for (const std::string& src : s.fabric.sources)
      EXPECT_TRUE(src.find("REFERENCE.md") != std::string::npos || src.find("[assumption") != std::string::npos) << src;
  }
}

TEST(HardwarePresets, A6000PairsAndTwoSwitchesViaHost) {
  const HardwareSpec s = load_hardware_preset("a6000x8-nvlink-pairs");
  double GBps = 0;
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(count_links(s, gpu_node_name(2 * k), gpu_node_name(2 * k + 1), &GBps), 1);
    EXPECT_DOUBLE_EQ(GBps, 56);
  }
  EXPECT_EQ(count_links(s, "gpu1", "gpu2"), 0);
  EXPECT_EQ(count_links(s, "gpu3", "pcie_sw0"), 1);
  EXPECT_EQ(count_links(s, "gpu4", "pcie_sw1"), 1);
  EXPECT_EQ(count_links(s, "pcie_sw0", "host0"), 1);
  EXPECT_EQ(count_links(s, "pcie_sw1", "host0"), 1);
}

TEST(HardwarePresets, V100MatchesTorporController) {
  const HardwareSpec s = load_hardware_preset("v100x4-gn6e");
  // torpor controller.hpp: {{0,1,1,2},{1,0,2,1},{1,2,0,2},{2,1,2,0}}; 1 link = 25 GB/s/dir.
  const int matrix[4][4] = {{0, 1, 1, 2}, {1, 0, 2, 1}, {1, 2, 0, 2}, {2, 1, 2, 0}};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      double GBps = 0;
      EXPECT_EQ(count_links(s, gpu_node_name(i), gpu_node_name(j), &GBps), 1);
      EXPECT_DOUBLE_EQ(GBps, 25.0 * matrix[i][j]) << i << "-" << j;
    }
  // pcie_pairs_ = {1,0,3,2}
  EXPECT_EQ(count_links(s, "gpu0", "pcie_sw0"), 1);
  EXPECT_EQ(count_links(s, "gpu1", "pcie_sw0"), 1);
  EXPECT_EQ(count_links(s, "gpu2", "pcie_sw1"), 1);
  EXPECT_EQ(count_links(s, "gpu3", "pcie_sw1"), 1);
  EXPECT_EQ(s.gpus[0].memory_bytes, int64_t{32} << 30);
}

TEST(HardwarePresets, SmallerBoxes) {
  EXPECT_EQ(load_hardware_preset("h200x1").gpus.size(), 1u);
  const HardwareSpec h100 = load_hardware_preset("h100x4-nvlink-pairs");
  EXPECT_EQ(h100.gpus.size(), 4u);
  EXPECT_EQ(h100.gpus[0].sms, 114);
  EXPECT_EQ(count_links(h100, "gpu2", "gpu3"), 1);
  const HardwareSpec a100 = load_hardware_preset("a100x4-nvlink-pairs");
  EXPECT_EQ(a100.gpus.size(), 4u);
  EXPECT_EQ(count_links(a100, "gpu0", "gpu1"), 1);
  EXPECT_EQ(load_hardware_preset("dgx-a100").gpus[0].sms, 108);
}

TEST(HardwarePresets, UnknownNameSuggests) {
  try {
    load_hardware_preset("dgx-h10");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown hardware preset 'dgx-h10' (did you mean 'dgx-h100'?); presets: a100x4-nvlink-pairs, "
                 "a6000x8-nvlink-pairs, dgx-a100, dgx-h100, h100x4-nvlink-pairs, h200x1, v100x4-gn6e");
  }
}

}  // namespace
}  // namespace parallax
