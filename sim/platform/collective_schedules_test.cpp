// File: sim/platform/collective_schedules_test.cpp
// Every collective op as flows on SimPlatform, against the closed forms of REFERENCE.md §2.1 on
// a crossbar where hops do not contend: each route is two links of latency LAT at bandwidth BW.
#include <gtest/gtest.h>

#include <numeric>

#include "sim/platform/anchor_topologies.h"
#include "sim/platform/sim_platform.h"
#include "sim/platform/tree_collective.h"

namespace parallax {
namespace {

constexpr double kBw = 300e9, kLat = 1e-6;

struct Done final : CompletionListener {
  Engine* engine = nullptr;
  std::vector<Time> at;
  void on_complete(uint64_t) override { at.push_back(engine->now()); }
};

struct Outcome {
  double seconds = 0;
  uint64_t activities = 0;
};

Outcome run(CollectiveOp op, CollectiveAlgo algo, int p, int64_t bytes) {
  Engine engine;
  SimPlatform platform(engine, anchor_crossbar(p, kBw, kLat));
  Done d;
  d.engine = &engine;
  std::vector<GpuId> group(static_cast<size_t>(p));
  std::iota(group.begin(), group.end(), 0);
  platform.collective(op, group, Bytes(bytes), algo, d, 0);
  engine.run();
  EXPECT_EQ(d.at.size(), 1u);
  return {d.at.at(0).to_seconds(), platform.activities_finished()};
}

constexpr double kHop = 2 * kLat;  // a route through the crossbar crosses two links

TEST(CollectiveSchedules, AllToAllIsPminusOneStepsOfAShare) {
  for (int p : {2, 4, 8}) {
    const int64_t s = 64ll << 20;
    const Outcome r = run(CollectiveOp::all_to_all, CollectiveAlgo::p2p, p, s);
    const double expected = (p - 1) * (kHop + static_cast<double>(s / p) / kBw);
    EXPECT_NEAR(r.seconds / expected - 1, 0, 1e-7) << "P=" << p;
    EXPECT_EQ(r.activities, static_cast<uint64_t>(p * (p - 1)) + 1);
  }
}

TEST(CollectiveSchedules, SendRecvMovesSOncePerRank) {
  const int64_t s = 8ll << 20;
  const Outcome r = run(CollectiveOp::send_recv, CollectiveAlgo::p2p, 4, s);
  EXPECT_NEAR(r.seconds / (kHop + static_cast<double>(s) / kBw) - 1, 0, 1e-7);
  EXPECT_EQ(r.activities, 4u + 1u);
}

TEST(CollectiveSchedules, RingBroadcastAndReduceArePipelinedChains) {
  for (CollectiveOp op : {CollectiveOp::broadcast, CollectiveOp::reduce}) {
    for (int p : {2, 5, 8}) {
      const int64_t s = 4ll << 20;  // 8 chunks of 512 KiB
      const int c = TreeCollective::chunk_count(Bytes(s));
      ASSERT_EQ(c, 8);
      const Outcome r = run(op, CollectiveAlgo::ring, p, s);
      const double expected = (c + p - 2) * (kHop + static_cast<double>(s / c) / kBw);
      EXPECT_NEAR(r.seconds / expected - 1, 0, 1e-7) << to_string(op) << " P=" << p;
      EXPECT_EQ(r.activities, static_cast<uint64_t>(c * (p - 1)) + 1);
    }
  }
}

// Two ranks: up 1 → 0 and down 0 → 1 use opposite directions, so nothing contends: a pipeline of
// two stages, (C + 1) chunk times.
TEST(CollectiveSchedules, TreeAllReduceOfTwoRanks) {
  const int64_t s = 16ll << 20;
  const int c = TreeCollective::chunk_count(Bytes(s));
  ASSERT_EQ(c, 32);
  const Outcome r = run(CollectiveOp::all_reduce, CollectiveAlgo::tree, 2, s);
  EXPECT_NEAR(r.seconds / ((c + 1) * (kHop + static_cast<double>(s / c) / kBw)) - 1, 0, 1e-7);
}

// Wider trees contend (a middle rank sends up and down at once); the time lies between the
// uncontended pipeline and the same pipeline at half bandwidth.
TEST(CollectiveSchedules, TreeAllReduceOfAChainContendsInTheMiddle) {
  const int p = 4;
  const int64_t s = 32ll << 20;
  const int c = TreeCollective::chunk_count(Bytes(s));
  const double stages = c + 2 * p - 3;
  const Outcome r = run(CollectiveOp::all_reduce, CollectiveAlgo::tree, p, s);
  EXPECT_GT(r.seconds, stages * (kHop + static_cast<double>(s / c) / kBw));
  EXPECT_LT(r.seconds, stages * (kHop + static_cast<double>(s / c) / (kBw / 2)));
}

TEST(CollectiveSchedules, NcclTreeChainsInsideNodesAndABinaryTreeOfNodes) {
  // 4 nodes of 2 GPUs; group in node order.
  const std::vector<GpuId> group{0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(TreeCollective::nccl_tree(group, 2), (std::vector<int>{-1, 0, 0, 2, 0, 4, 2, 6}));
  // One box: a chain.
  EXPECT_EQ(TreeCollective::nccl_tree({0, 1, 2, 3}, 8), (std::vector<int>{-1, 0, 1, 2}));
  EXPECT_EQ(TreeCollective::chain(3), (std::vector<int>{-1, 0, 1}));
}

TEST(CollectiveSchedules, AlgorithmsRefuseOpsTheyDoNotRun) {
  Engine engine;
  SimPlatform platform(engine, anchor_crossbar(4, kBw, kLat));
  Done d;
  d.engine = &engine;
  const std::vector<GpuId> group{0, 1, 2, 3};
  EXPECT_THROW(platform.collective(CollectiveOp::all_to_all, group, Bytes(1024), CollectiveAlgo::ring, d, 0), PlatformError);
  EXPECT_THROW(platform.collective(CollectiveOp::all_gather, group, Bytes(1024), CollectiveAlgo::tree, d, 0), PlatformError);
  EXPECT_THROW(platform.collective(CollectiveOp::broadcast, group, Bytes(1024), CollectiveAlgo::hierarchical, d, 0),
               PlatformError);
  EXPECT_TRUE(runs(CollectiveAlgo::p2p, CollectiveOp::send_recv));
  EXPECT_EQ(default_algo(CollectiveOp::all_to_all), CollectiveAlgo::p2p);
  EXPECT_EQ(default_algo(CollectiveOp::reduce), CollectiveAlgo::ring);
}

}  // namespace
}  // namespace parallax
