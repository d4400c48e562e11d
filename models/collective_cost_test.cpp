// File: models/collective_cost_test.cpp
// Closed forms of the collective models on cases worked by hand (arithmetic in the comments).
#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

#include "models/collective_cost.h"
#include "models/double_ring.h"
#include "models/hierarchical.h"
#include "models/nccl_latency.h"
#include "models/ring.h"
#include "models/tree.h"

namespace parallax::models {
namespace {

RingParams uniform(int64_t ranks, double bw_Bps, double lat_s, double base_s = 0.0) {
  RingParams r;
  r.base_latency_s = base_s;
  r.hops.assign(static_cast<std::size_t>(ranks), Hop{bw_Bps, lat_s, LinkType::nvlink});
  return r;
}

TEST(BusBandwidth, NcclTestsFactors) {
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::all_reduce, 8), 1.75);     // 2·7/8
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::all_gather, 4), 0.75);     // 3/4
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::reduce_scatter, 2), 0.5);  // 1/2
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::all_reduce, 1), 0.0);
  // nccl-tests doc/PERFORMANCE.md: all-to-all (n−1)/n; broadcast, reduce and send/recv 1.
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::all_to_all, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::broadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::reduce, 4), 1.0);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::send_recv, 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_bandwidth_factor(CollectiveOp::broadcast, 1), 0.0);
  EXPECT_EQ(ring_steps(CollectiveOp::send_recv, 8), 1);
  EXPECT_EQ(ring_steps(CollectiveOp::broadcast, 8), 7);
  EXPECT_EQ(ring_steps(CollectiveOp::all_to_all, 8), 7);
  for (CollectiveOp op : kAllCollectiveOps) EXPECT_EQ(parse_collective_op(to_string(op)), op);
  EXPECT_FALSE(parse_collective_op("allreduce").has_value());
  // REFERENCE.md §2.4: 8×A100 64 MiB in 0.675 ms → 67108864/0.675e-3·1.75 = 173.98 GB/s.
  EXPECT_NEAR(bus_bandwidth_Bps(CollectiveOp::all_reduce, 8, 67108864.0, 0.675e-3), 173.98e9,
              0.01e9);
  EXPECT_THROW(algorithm_bandwidth_Bps(1.0, 0.0), std::invalid_argument);
}

TEST(Ring, BusBandwidthOfIdealRingEqualsLinkBandwidth) {
  // No latency: AR time = 2(P−1)/P · S/β, so busbw = β exactly; AG: (P−1)/P · S/β, busbw = β.
  const RingParams ring = uniform(8, 100e9, 0.0);
  for (CollectiveOp op : kAllCollectiveOps) {
    const double t = ring_cost(op, 1e9, ring).time_s;
    EXPECT_NEAR(bus_bandwidth_Bps(op, 8, 1e9, t), 100e9, 1.0) << to_string(op);
  }
}

TEST(Ring, BottleneckHopDecides) {
  // ring.h example: 4 ranks, hops 50 GB/s / 1 µs except one 20 GB/s / 2 µs PCIe hop, AR 64 MB:
  // steps 6, α 2 µs, β 20 GB/s: 6·2 µs + 6·16e6/20e9 = 12 µs + 4800 µs = 4812 µs.
  RingParams ring = uniform(4, 50e9, 1e-6);
  ring.hops[2] = Hop{20e9, 2e-6, LinkType::pcie};
  const CollectiveCost c = ring_cost(CollectiveOp::all_reduce, 64e6, ring);
  EXPECT_NEAR(c.latency_s, 12e-6, 1e-12);
  EXPECT_NEAR(c.bandwidth_s, 4800e-6, 1e-12);
  EXPECT_NEAR(c.time_s, 4812e-6, 1e-12);
  // All-gather: 3 steps of 16 MB: 6 µs + 2400 µs.
  EXPECT_NEAR(ring_cost(CollectiveOp::all_gather, 64e6, ring).time_s, 2406e-6, 1e-12);
  EXPECT_EQ(ring_cost(CollectiveOp::all_reduce, 64e6, uniform(1, 1e9, 1e-6)).time_s, 0.0);
  EXPECT_THROW(ring_cost(CollectiveOp::all_reduce, 1.0, RingParams{}), std::invalid_argument);
}

TEST(NcclLatency, ReferenceExamples) {
  // REFERENCE.md §2.2, 8-GPU ring AR fixed cost: NVLink Simple 8.4 + 14·3.4 = 56.0 µs;
  // LL 6.6 + 14·0.6 = 15.0 µs; PCIe Simple 8.4 + 14·5.7 = 88.2 µs.
  auto fixed = [](LinkType link, Protocol proto) {
    return ring_cost(CollectiveOp::all_reduce, 0.0, nccl_uniform_ring(8, 1e9, link, proto)).time_s;
  };
  EXPECT_NEAR(fixed(LinkType::nvlink, Protocol::simple), 56.0e-6, 1e-12);
  EXPECT_NEAR(fixed(LinkType::nvlink, Protocol::ll), 15.0e-6, 1e-12);
  EXPECT_NEAR(fixed(LinkType::pcie, Protocol::simple), 88.2e-6, 1e-12);
  EXPECT_DOUBLE_EQ(nccl_base_latency_s(NcclAlgorithm::tree, Protocol::ll), 6.8e-6);
  EXPECT_DOUBLE_EQ(nccl_hw_latency_s(NcclAlgorithm::tree, LinkType::net, Protocol::ll128), 8.5e-6);
}

TEST(DoubleRing, SplitsInProportionToBottleneck) {
  // Bottlenecks 60 and 20 GB/s → x1 = 0.75; no latency, AR of 80 MB on 4 ranks:
  // ring 1: 6·(60e6/4)/60e9 = 1500 µs; ring 2: 6·(20e6/4)/20e9 = 1500 µs: both end together,
  // vs 6·(80e6/4)/60e9 = 2000 µs on the faster ring alone.
  DoubleRingParams rings{uniform(4, 60e9, 0.0), uniform(4, 20e9, 0.0)};
  const DoubleRingCost c = double_ring_cost(CollectiveOp::all_reduce, 80e6, rings);
  EXPECT_DOUBLE_EQ(c.first_share, 0.75);
  EXPECT_NEAR(c.first.time_s, 1500e-6, 1e-12);
  EXPECT_NEAR(c.second.time_s, 1500e-6, 1e-12);
  EXPECT_NEAR(c.total.time_s, 1500e-6, 1e-12);
}

TEST(DoubleRing, CounterRotatingRingsHalveBandwidthTerm) {
  // double_ring.h example: 8 ranks, 50 GB/s, 1 µs, AG of 80 MB: 707 µs vs 1407 µs on one ring.
  const RingParams ring = uniform(8, 50e9, 1e-6);
  const DoubleRingCost c = double_ring_cost(CollectiveOp::all_gather, 80e6, {ring, ring});
  EXPECT_NEAR(c.total.time_s, 707e-6, 1e-12);
  EXPECT_NEAR(ring_cost(CollectiveOp::all_gather, 80e6, ring).time_s, 1407e-6, 1e-12);
  EXPECT_THROW(double_ring_cost(CollectiveOp::all_gather, 1.0, {ring, uniform(4, 1e9, 0.0)}),
               std::invalid_argument);
}

TEST(Tree, DoubleBinaryTreeClosedForm) {
  // tree.h example: P = 16, N = 2, intra 1 µs, inter 5 µs, β 25 GB/s, base 8.4 µs, 100 MB:
  // latency 8.4 + 2·(7·1 + log2(2)·5) = 32.4 µs; bandwidth 100e6/(0.5·0.92·25e9) = 8695.652 µs.
  TreeParams tree{16, 2, Hop{100e9, 1e-6}, Hop{25e9, 5e-6}, 8.4e-6};
  const auto c = tree_cost(CollectiveOp::all_reduce, 100e6, tree);
  ASSERT_TRUE(c.has_value());
  EXPECT_NEAR(c->latency_s, 32.4e-6, 1e-12);
  EXPECT_NEAR(c->bandwidth_s, 8695.652e-6, 1e-9);
  EXPECT_FALSE(tree_cost(CollectiveOp::all_gather, 100e6, tree).has_value());
  EXPECT_THROW(tree_cost(CollectiveOp::all_reduce, 1.0, TreeParams{3, 2, {1e9, 0}, {1e9, 0}}),
               std::invalid_argument);
}

TEST(Hierarchical, IntraReduceScatterInterAllReduceIntraAllGather) {
  // hierarchical.h example: G = 8, N = 2; intra 100 GB/s / 1 µs, inter 25 GB/s / 5 µs; AR 160 MB:
  // RS_intra = 7 µs + 7·20e6/100e9 = 1407 µs = AG_intra; AR_inter(20 MB) = 10 µs + 2·10e6/25e9
  // = 810 µs; total 3624 µs.
  HierarchicalParams h{uniform(8, 100e9, 1e-6), uniform(2, 25e9, 5e-6)};
  EXPECT_NEAR(hierarchical_cost(CollectiveOp::all_reduce, 160e6, h).time_s, 3624e-6, 1e-12);
  // AG: AG_inter(20 MB) = 5 µs + 10e6/25e9 = 405 µs, + AG_intra 1407 µs = 1812 µs.
  EXPECT_NEAR(hierarchical_cost(CollectiveOp::all_gather, 160e6, h).time_s, 1812e-6, 1e-12);
  EXPECT_NEAR(hierarchical_cost(CollectiveOp::reduce_scatter, 160e6, h).time_s, 1812e-6, 1e-12);
}

}  // namespace
}  // namespace parallax::models
