// File: sim/platform/fabric_topology_test.cpp
// Clusters in the Topology: routes between nodes through NICs, leaves and the spine, box routes
// shifted to every box, latencies summed by hand, and uplink sharing on SimPlatform.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "sim/platform/sim_platform.h"
#include "sim/platform/topology.h"

namespace parallax {
namespace {

constexpr double kNvlinkLat = 0.5e-6, kPcieLat = 0.75e-6, kNicLat = 1e-6, kSwitchLat = 0.3e-6;
constexpr double kNicBps = 50e9;

// A box of 2 GPUs on an NVSwitch, both behind one PCIe switch to the host, with one NIC per GPU
// behind that PCIe switch; `nodes` of them, `per_leaf` nodes per leaf group.
HardwareSpec small_cluster(int nodes, int per_leaf, FabricSpec::Shape shape, double oversub = 1) {
  HardwareSpec hw;
  hw.name = "test-cluster";
  GpuSpec g;
  g.model = "H100-SXM5";
  g.sms = 132;
  g.peak_flops = 989e12;
  g.hbm_Bps = 3.35e12;
  g.memory_bytes = 80ll << 30;
  hw.gpus.assign(2, g);
  hw.hosts.push_back({});
  hw.switches = {{"nvswitch", NodeKind::nvswitch}, {"pcie_sw0", NodeKind::pcie_switch}};
  for (int i = 0; i < 2; ++i) {
    hw.links.push_back({gpu_node_name(i), "nvswitch", LinkKind::nvlink, 450e9, kNvlinkLat, true});
    hw.links.push_back({gpu_node_name(i), "pcie_sw0", LinkKind::pcie, 64e9, kPcieLat, true});
  }
  hw.links.push_back({"pcie_sw0", "host0", LinkKind::pcie, 64e9, kPcieLat, true});
  hw.fabric.nodes = nodes;
  hw.fabric.shape = shape;
  hw.fabric.nodes_per_leaf = per_leaf;
  hw.fabric.oversubscription = oversub;
  hw.fabric.switch_latency_s = kSwitchLat;
  if (nodes > 1) hw.fabric.nics.assign(2, NicSpec{"pcie_sw0", kNicBps, kNicLat});
  return hw;
}

std::vector<std::string> names_of(const Topology& t, const Topology::Route& r) {
  std::vector<std::string> out;
  for (uint32_t d : r.directions) out.push_back(t.directions()[d].name);
  return out;
}

TEST(FabricTopology, SameRailSameLeafCrossesOneLeaf) {
  Topology t(small_cluster(4, 2, FabricSpec::Shape::rail_optimized));
  // gpu0 (node 0, local 0) to gpu2 (node 1, local 0): rail 0, both nodes in leaf group 0.
  const Topology::Route r = t.route(t.gpu_node(0), t.gpu_node(2));
  EXPECT_EQ(names_of(t, r), (std::vector<std::string>{"gpu0→n0.pcie_sw0", "n0.pcie_sw0→n0.nic0", "n0.nic0→leaf0.rail0",
                                                       "leaf0.rail0→n1.nic0", "n1.nic0→n1.pcie_sw0", "n1.pcie_sw0→gpu2"}));
  EXPECT_EQ(r.latency, Time::seconds(2 * kPcieLat) + Time::seconds(2 * kNicLat) + Time::seconds(kSwitchLat));
}

TEST(FabricTopology, OtherLeafGroupAndOtherRailGoThroughTheSpine) {
  Topology t(small_cluster(4, 2, FabricSpec::Shape::rail_optimized));
  // gpu0 (node 0) to gpu4 (node 2, local 0): rail 0 of groups 0 and 1.
  const Topology::Route far = t.route(t.gpu_node(0), t.gpu_node(4));
  EXPECT_EQ(names_of(t, far), (std::vector<std::string>{"gpu0→n0.pcie_sw0", "n0.pcie_sw0→n0.nic0", "n0.nic0→leaf0.rail0",
                                                         "leaf0.rail0→spine", "spine→leaf1.rail0", "leaf1.rail0→n2.nic0",
                                                         "n2.nic0→n2.pcie_sw0", "n2.pcie_sw0→gpu4"}));
  EXPECT_EQ(far.latency, Time::seconds(2 * kPcieLat) + Time::seconds(2 * kNicLat) + Time::seconds(kSwitchLat) * 3);
  // gpu0 to gpu3 (node 1, local 1): NIC 0 to NIC 1, rails 0 and 1 meet at the spine.
  const Topology::Route cross = t.route(t.gpu_node(0), t.gpu_node(3));
  EXPECT_EQ(names_of(t, cross)[3], "leaf0.rail0→spine");
  EXPECT_EQ(names_of(t, cross)[4], "spine→leaf0.rail1");
  EXPECT_EQ(names_of(t, cross)[6], "n1.nic1→n1.pcie_sw0");
}

TEST(FabricTopology, LeafSpinePutsEveryNicOfAGroupOnOneLeaf) {
  Topology t(small_cluster(4, 2, FabricSpec::Shape::leaf_spine));
  const Topology::Route cross = t.route(t.gpu_node(0), t.gpu_node(3));  // node 0 → node 1: one leaf
  EXPECT_EQ(names_of(t, cross)[2], "n0.nic0→leaf0");
  EXPECT_EQ(names_of(t, cross)[3], "leaf0→n1.nic1");
  const Topology::Route far = t.route(t.gpu_node(1), t.gpu_node(6));  // node 0 → node 3: the spine
  EXPECT_EQ(names_of(t, far)[3], "leaf0→spine");
  EXPECT_EQ(names_of(t, far)[4], "spine→leaf1");
}

TEST(FabricTopology, BoxRoutesAreBoxZerosShifted) {
  Topology t(small_cluster(8, 0, FabricSpec::Shape::rail_optimized));
  const Topology::Route r0 = t.route(t.gpu_node(0), t.gpu_node(1));
  const Topology::Route r5 = t.route(t.gpu_node(10), t.gpu_node(11));
  EXPECT_EQ(names_of(t, r0), (std::vector<std::string>{"gpu0→n0.nvswitch", "n0.nvswitch→gpu1"}));
  EXPECT_EQ(names_of(t, r5), (std::vector<std::string>{"gpu10→n5.nvswitch", "n5.nvswitch→gpu11"}));
  EXPECT_EQ(r0.latency, r5.latency);
  // A host reaches its own GPUs inside the box, and a remote GPU through NIC 0.
  EXPECT_EQ(names_of(t, t.route(t.host_node(5), t.gpu_node(11))),
            (std::vector<std::string>{"host5→n5.pcie_sw0", "n5.pcie_sw0→gpu11"}));
  EXPECT_EQ(names_of(t, t.route(t.host_node(5), t.gpu_node(0)))[1], "n5.pcie_sw0→n5.nic0");
  EXPECT_EQ(t.node_box(t.gpu_node(11)), 5);
  EXPECT_EQ(t.node_box(t.node_index("spine")), -1);
  EXPECT_TRUE(t.same_box(t.gpu_node(10), t.node_index("n5.nvswitch")));
  EXPECT_FALSE(t.same_box(t.gpu_node(9), t.gpu_node(10)));
}

TEST(FabricTopology, OneNodeIsTheBoxAsBefore) {
  HardwareSpec hw = small_cluster(1, 0, FabricSpec::Shape::rail_optimized);
  Topology t(hw);
  EXPECT_EQ(t.node_count(), 2 + 1 + 2);
  EXPECT_EQ(t.directions().size(), hw.links.size() * 2);
  EXPECT_EQ(t.node_name(3), "nvswitch");
  EXPECT_EQ(names_of(t, t.route(0, 1)), (std::vector<std::string>{"gpu0→nvswitch", "nvswitch→gpu1"}));
}

TEST(FabricTopology, SpineLinkCarriesTheLeafDownlinksOverOversubscription) {
  Topology t(small_cluster(4, 2, FabricSpec::Shape::leaf_spine, 4));
  const int spine = t.node_index("spine"), leaf0 = t.node_index("leaf0");
  int seen = 0;
  for (const auto& d : t.directions())
    if (d.from == leaf0 && d.to == spine) {
      EXPECT_DOUBLE_EQ(d.bandwidth_Bps, 2 * 2 * kNicBps / 4);  // 2 nodes x 2 NICs, 4:1
      ++seen;
    }
  EXPECT_EQ(seen, 1);
}

TEST(FabricTopology, BadFabricsAreRefused) {
  HardwareSpec no_nics = small_cluster(2, 0, FabricSpec::Shape::rail_optimized);
  no_nics.fabric.nics.clear();
  EXPECT_THROW(Topology{no_nics}, PlatformError);
  HardwareSpec on_gpu = small_cluster(2, 0, FabricSpec::Shape::rail_optimized);
  on_gpu.fabric.nics[0].attach = "gpu0";
  EXPECT_THROW(Topology{on_gpu}, PlatformError);
  HardwareSpec unknown = small_cluster(2, 0, FabricSpec::Shape::rail_optimized);
  unknown.fabric.nics[1].attach = "pcie_sw9";
  EXPECT_THROW(Topology{unknown}, PlatformError);
}

struct Recorder final : CompletionListener {
  Engine* engine = nullptr;
  std::vector<Time> at;
  void on_complete(uint64_t) override { at.push_back(engine->now()); }
};

// Two copies from node 0 to node 2 through a 4:1 spine: node 0's leaf has 2 nodes x 2 NICs of
// 50 GB/s down (200) and 50 GB/s up, so the two flows get 25 GB/s each (each NIC alone gives 50).
TEST(FabricPlatform, OversubscribedSpineIsShared) {
  Engine engine;
  SimPlatform p(engine, small_cluster(4, 2, FabricSpec::Shape::leaf_spine, 4));
  EXPECT_EQ(p.gpu_count(), 8);
  EXPECT_EQ(p.host_count(), 4);
  Recorder r;
  r.engine = &engine;
  const double bytes = 1e9;
  p.copy(Endpoint::gpu(0), Endpoint::gpu(4), Bytes(static_cast<int64_t>(bytes)), r, 0);
  p.copy(Endpoint::gpu(1), Endpoint::gpu(5), Bytes(static_cast<int64_t>(bytes)), r, 1);
  engine.run();
  ASSERT_EQ(r.at.size(), 2u);
  const double latency = 2 * kPcieLat + 2 * kNicLat + 3 * kSwitchLat;
  EXPECT_NEAR(r.at[1].to_seconds(), latency + bytes / 25e9, 1e-9);
  // The same two copies inside one leaf group: each gets its NIC's 50 GB/s.
  Engine engine2;
  SimPlatform q(engine2, small_cluster(4, 2, FabricSpec::Shape::leaf_spine, 4));
  Recorder r2;
  r2.engine = &engine2;
  q.copy(Endpoint::gpu(0), Endpoint::gpu(2), Bytes(static_cast<int64_t>(bytes)), r2, 0);
  q.copy(Endpoint::gpu(1), Endpoint::gpu(3), Bytes(static_cast<int64_t>(bytes)), r2, 1);
  engine2.run();
  ASSERT_EQ(r2.at.size(), 2u);
  EXPECT_NEAR(r2.at[1].to_seconds(), 2 * kPcieLat + 2 * kNicLat + kSwitchLat + bytes / kNicBps, 1e-9);
  // Both copies crossed node 0's leaf uplink; none crossed it inside the leaf group.
  const int up = [&] {
    for (size_t d = 0; d < p.topology().directions().size(); ++d)
      if (p.topology().directions()[d].name == "leaf0→spine") return static_cast<int>(d);
    return -1;
  }();
  ASSERT_GE(up, 0);
  EXPECT_EQ(p.link_usage()[static_cast<size_t>(up)].transfers, 2u);
  EXPECT_EQ(q.link_usage()[static_cast<size_t>(up)].transfers, 0u);
}

// REFERENCE.md §2.1's hierarchical all-reduce on 4 nodes x 2 GPUs, one leaf per rail: the two
// intra-node phases are 2-GPU rings over NVLink (α = 2 x 0.5 µs), the inter-node phase one ring
// of 4 per rail over the NICs (α = PCIe + NIC + leaf + NIC + PCIe), nothing shared between rails.
TEST(FabricPlatform, HierarchicalAllReduceMatchesTheClosedForm) {
  Engine engine;
  SimPlatform p(engine, small_cluster(4, 0, FabricSpec::Shape::rail_optimized));
  Recorder r;
  r.engine = &engine;
  const int64_t s = 256ll << 20;
  const std::vector<GpuId> group{0, 1, 2, 3, 4, 5, 6, 7};
  p.collective(CollectiveOp::all_reduce, group, Bytes(s), CollectiveAlgo::hierarchical, r, 0);
  engine.run();
  ASSERT_EQ(r.at.size(), 1u);
  const double intra = 1 * (2 * kNvlinkLat + static_cast<double>(s / 2) / 450e9);
  const double net_lat = 2 * kPcieLat + 2 * kNicLat + kSwitchLat;
  const double inter = 2 * 3 * (net_lat + static_cast<double>((s / 2) / 4) / kNicBps);
  EXPECT_NEAR(r.at[0].to_seconds() / (2 * intra + inter) - 1, 0, 1e-7);
  // The flat ring over the same 8 GPUs crosses the network on every step and is slower.
  Engine e2;
  SimPlatform flat(e2, small_cluster(4, 0, FabricSpec::Shape::rail_optimized));
  Recorder r2;
  r2.engine = &e2;
  flat.collective(CollectiveOp::all_reduce, group, Bytes(s), CollectiveAlgo::ring, r2, 0);
  e2.run();
  EXPECT_GT(r2.at.at(0).to_seconds(), r.at[0].to_seconds());
  // Uneven nodes are refused.
  const std::vector<GpuId> uneven{0, 1, 2};
  EXPECT_THROW(p.collective(CollectiveOp::all_reduce, uneven, Bytes(s), CollectiveAlgo::hierarchical, r, 0), PlatformError);
}

// 1,024 nodes of the small box: a route to every node from GPU 0, both ways, with nothing tabled
// per pair (the box cache holds box-local pairs only).
TEST(FabricTopology, ThousandNodesRouteWithoutPairTables) {
  Topology t(small_cluster(1024, 32, FabricSpec::Shape::rail_optimized));
  EXPECT_EQ(t.nodes(), 1024);
  size_t hops = 0;
  for (int n = 1; n < 1024; ++n) {
    hops += t.route(t.gpu_node(0), t.gpu_node(2 * n + 1)).directions.size();
    hops += t.route(t.gpu_node(2 * n), t.gpu_node(1)).directions.size();
  }
  // Cross-rail both ways: always through the spine, 8 directions.
  EXPECT_EQ(hops, 2u * 1023u * 8u);
}

// The route rule (topology.h) as a search for one pair, stopping at the destination: what
// Topology computed per pair before it searched once per source. Ties go to the first
// predecessor relaxed in (cost, node) order.
Topology::Route one_pair_route(const Topology& t, int src, int dst) {
  using Cost = std::tuple<int64_t, int, int>;
  std::vector<Cost> best(static_cast<size_t>(t.node_count()), Cost{std::numeric_limits<int64_t>::max(), 0, 0});
  std::vector<int> via(static_cast<size_t>(t.node_count()), -1);
  using Item = std::pair<Cost, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  best[src] = Cost{0, 0, 0};
  queue.push({best[src], src});
  while (!queue.empty()) {
    const auto [cost, n] = queue.top();
    queue.pop();
    if (cost != best[n]) continue;
    if (n == dst) break;
    for (size_t d = 0; d < t.directions().size(); ++d) {
      const Topology::LinkDirection& l = t.directions()[d];
      if (l.from != n || (l.to != dst && t.node_kind(l.to) == NodeKind::gpu)) continue;
      const Cost next{std::get<0>(cost) + l.latency.ps(), std::get<1>(cost) + (l.kind == LinkKind::nvlink ? 0 : 1),
                      std::get<2>(cost) + 1};
      if (next < best[l.to]) {
        best[l.to] = next;
        via[l.to] = static_cast<int>(d);
        queue.push({next, l.to});
      }
    }
  }
  Topology::Route r;
  for (int n = dst; n != src; n = t.directions()[via[n]].from) r.directions.push_back(static_cast<uint32_t>(via[n]));
  std::reverse(r.directions.begin(), r.directions.end());
  r.latency = Time::ps(std::get<0>(best[dst]));
  return r;
}

// Random boxes full of equal-cost alternatives (two latencies, NVLink and PCIe, GPUs on several
// switches): the routes read off one search per source are the per-pair ones, direction for
// direction, whatever order the pairs are asked in.
TEST(BoxRoutes, OneSearchPerSourceGivesEachPairsOwnRoute) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    HardwareSpec hw = small_cluster(1, 1, FabricSpec::Shape::rail_optimized);
    hw.gpus.resize(6, hw.gpus.front());
    hw.links.clear();
    hw.switches = {{"sw0", NodeKind::pcie_switch}, {"sw1", NodeKind::pcie_switch}, {"sw2", NodeKind::nvswitch}};
    const std::vector<std::string> forwarders{"sw0", "sw1", "sw2", "host0"};
    auto latency = [&] { return rng() % 2 == 0 ? 1e-6 : 2e-6; };
    auto kind = [&] { return rng() % 2 == 0 ? LinkKind::nvlink : LinkKind::pcie; };
    for (int g = 0; g < 6; ++g) {
      hw.links.push_back({gpu_node_name(g), forwarders[rng() % 3], kind(), 50e9, latency(), true});
      if (rng() % 2 == 0) hw.links.push_back({gpu_node_name(g), forwarders[rng() % 4], kind(), 50e9, latency(), true});
      if (rng() % 3 == 0) hw.links.push_back({gpu_node_name(g), gpu_node_name((g + 1) % 6), kind(), 50e9, latency(), true});
    }
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (b == a + 1 || rng() % 2 == 0) hw.links.push_back({forwarders[a], forwarders[b], kind(), 50e9, latency(), true});
    Topology t(hw);  // connected: the forwarders form a chain at least
    std::vector<std::pair<int, int>> pairs;
    for (int a = 0; a < t.node_count(); ++a)
      for (int b = 0; b < t.node_count(); ++b)
        if (a != b && (t.node_kind(a) == NodeKind::gpu || t.node_kind(a) == NodeKind::host) &&
            (t.node_kind(b) == NodeKind::gpu || t.node_kind(b) == NodeKind::host))
          pairs.emplace_back(a, b);
    std::shuffle(pairs.begin(), pairs.end(), rng);
    for (const auto& [a, b] : pairs) {
      const Topology::Route want = one_pair_route(t, a, b), got = t.route(a, b);
      EXPECT_EQ(names_of(t, got), names_of(t, want)) << "trial " << trial << ": " << t.node_name(a) << " to " << t.node_name(b);
      EXPECT_EQ(got.latency, want.latency);
    }
  }
}

}  // namespace
}  // namespace parallax
