// File: sim/scenario/fabric_reader_test.cpp
// `hardware.nodes` and `hardware.fabric` in scenarios: a cluster loads with GPUs numbered across
// nodes; bad values fail at their file:line:col with the key; every collective op is accepted
// with the algorithms that run it and refused with the others.
#include <gtest/gtest.h>

#include <string>

#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

std::string load_error(const std::string& yaml) {
  try {
    load_scenario_text(yaml, "cluster.yaml", {});
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

constexpr std::string_view kCluster = R"(name: cluster
hardware:
  preset: dgx-h100
  nodes: 4
  fabric: {oversubscription: 2, nodes_per_leaf: 2}
workload:
  kind: transfers
  transfers:
    - {src: gpu0, dst: gpu31, bytes: 1MiB}
  collectives:
    - {op: all_reduce, algo: hierarchical, bytes: 1GiB}
    - {op: all_to_all, bytes: 1GiB}
    - {op: broadcast, algo: tree, group: [8, 0, 16], bytes: 1MiB}
)";

TEST(FabricReader, ClusterLoadsWithGpusAcrossNodes) {
  const Scenario s = load_scenario_text(kCluster, "cluster.yaml");
  EXPECT_EQ(s.hardware.fabric.nodes, 4);
  EXPECT_EQ(s.hardware.gpus.size(), 8u);  // one box
  EXPECT_DOUBLE_EQ(s.hardware.fabric.oversubscription, 2.0);
  EXPECT_EQ(s.hardware.fabric.nodes_per_leaf, 2);
  EXPECT_EQ(s.hardware.fabric.nics.size(), 8u);  // from the preset, kept by the merge
  ASSERT_EQ(s.transfers.collectives.size(), 3u);
  EXPECT_EQ(s.transfers.collectives[0].group.size(), 32u);
  EXPECT_EQ(s.transfers.collectives[1].algo, "p2p");  // all_to_all's default
  EXPECT_EQ(s.transfers.collectives[2].algo, "tree");
}

TEST(FabricReader, NodesNeedAFabric) {
  const std::string e = load_error("name: c\nhardware: {preset: h200x1, nodes: 2}\nworkload: {kind: transfers}\n");
  EXPECT_NE(e.find("cluster.yaml:2:"), std::string::npos) << e;
  EXPECT_NE(e.find("'hardware.nodes' is 2 but the hardware has no fabric"), std::string::npos) << e;
}

TEST(FabricReader, BadValuesFailAtTheirKey) {
  const std::string zero = load_error("name: c\nhardware: {preset: dgx-h100, nodes: 0}\nworkload: {kind: transfers}\n");
  EXPECT_NE(zero.find("cluster.yaml:2:"), std::string::npos) << zero;
  EXPECT_NE(zero.find("hardware.nodes"), std::string::npos) << zero;
  const std::string too_many = load_error("name: c\nhardware: {preset: dgx-h100, nodes: 9000}\nworkload: {kind: transfers}\n");
  EXPECT_NE(too_many.find("hardware.nodes"), std::string::npos) << too_many;
  const std::string attach = load_error(
      "name: c\nhardware:\n  preset: dgx-h100\n  fabric:\n    nics: {count: 2, GBps: 50, attach: [pcie_sw0, pcie_sw9]}\n"
      "workload: {kind: transfers}\n");
  EXPECT_NE(attach.find("cluster.yaml:5:"), std::string::npos) << attach;
  EXPECT_NE(attach.find("'hardware.fabric.nics.attach.1' names unknown node 'pcie_sw9'"), std::string::npos) << attach;
  const std::string on_gpu = load_error(
      "name: c\nhardware:\n  preset: dgx-h100\n  fabric:\n    nics: {count: 1, GBps: 50, attach: [gpu0]}\n"
      "workload: {kind: transfers}\n");
  EXPECT_NE(on_gpu.find("cannot hang off GPU"), std::string::npos) << on_gpu;
  const std::string shape = load_error(
      "name: c\nhardware:\n  preset: dgx-h100\n  fabric: {shape: fat_tree}\nworkload: {kind: transfers}\n");
  EXPECT_NE(shape.find("cluster.yaml:4:"), std::string::npos) << shape;
  EXPECT_NE(shape.find("hardware.fabric.shape"), std::string::npos) << shape;
  const std::string oversub = load_error(
      "name: c\nhardware:\n  preset: dgx-h100\n  fabric: {oversubscription: 0.5}\nworkload: {kind: transfers}\n");
  EXPECT_NE(oversub.find("hardware.fabric.oversubscription"), std::string::npos) << oversub;
}

TEST(FabricReader, AlgorithmsMustRunTheirOp) {
  const std::string e = load_error(
      "name: c\nhardware: dgx-h100\nworkload:\n  kind: transfers\n  collectives:\n"
      "    - {op: all_to_all, algo: ring, bytes: 1MiB}\n");
  EXPECT_NE(e.find("cluster.yaml:6:"), std::string::npos) << e;
  EXPECT_NE(e.find("the ring algorithm does not run all_to_all"), std::string::npos) << e;
  const std::string gpu = load_error(
      "name: c\nhardware: {preset: dgx-h100, nodes: 2}\nworkload:\n  kind: transfers\n  transfers:\n"
      "    - {src: gpu0, dst: gpu16, bytes: 1MiB}\n");
  EXPECT_NE(gpu.find("gpu16"), std::string::npos) << gpu;  // 2 nodes: gpu0..gpu15
}

}  // namespace
}  // namespace parallax
