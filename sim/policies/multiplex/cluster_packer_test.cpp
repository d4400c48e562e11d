// File: sim/policies/multiplex/cluster_packer_test.cpp
#include "sim/policies/multiplex/cluster_packer.h"

#include <gtest/gtest.h>

#include <random>

#include "sim/policies/multiplex/cluster_packing_replay.h"
#include "sim/policies/multiplex/multiplex_test_fixtures.h"
#include "sim/platform/test_machines.h"

namespace parallax {
namespace {

PodRequest pod(int milli, int num_gpu = 1, int64_t from = 0, int64_t to = 0, std::vector<std::string> spec = {}) {
  PodRequest p;
  p.cpu_milli = 1000;
  p.memory_mib = 1024;
  p.num_gpu = num_gpu;
  p.gpu_milli = num_gpu == 0 ? 0 : milli;
  p.gpu_spec = std::move(spec);
  p.has_times = to > 0;
  p.creation_s = from;
  p.deletion_s = to;
  return p;
}

std::vector<ClusterNode> cluster(int nodes, int gpus, const std::string& model = "T4") {
  std::vector<ClusterNode> out;
  for (int i = 0; i < nodes; ++i) {
    ClusterNode n;
    n.cpu_milli = 64000;
    n.memory_mib = 262144;
    n.gpus = gpus;
    n.model = model;
    out.push_back(n);
  }
  return out;
}

TEST(ClusterPacker, MigProfileIsTheSmallestThatCoversComputeAndMemory) {
  const GpuPartitioning h200 = test_machines::h200_partitioning();
  const auto nodes = cluster(1, 1);
  const ClusterPacker packer(nodes, PackingScheme::mig, &h200);
  EXPECT_EQ(packer.mig_profile_for(110)->name, "1g.18gb");  // 1/7 >= 0.11, 1/8 >= 0.11
  EXPECT_EQ(packer.mig_profile_for(143)->name, "2g.35gb");  // 1/7 = 0.1429 < 0.143
  EXPECT_EQ(packer.mig_profile_for(320)->name, "3g.71gb");
  EXPECT_EQ(packer.mig_profile_for(460)->name, "4g.71gb");  // 3/7 = 0.43 < 0.46
  EXPECT_EQ(packer.mig_profile_for(572)->name, "7g.141gb"); // 4/7 = 0.5714 < 0.572
  EXPECT_EQ(packer.mig_profile_for(1000)->name, "7g.141gb");
}

// Three 0.32-GPU pods: one GPU under elastic, 3g+3g then a second GPU under MIG, three under exclusive.
TEST(ClusterPacker, GranularityDecidesHowManyGpusThreeSmallPodsHold) {
  const GpuPartitioning h200 = test_machines::h200_partitioning();
  const auto nodes = cluster(1, 4);
  const std::pair<PackingScheme, int> want[] = {
      {PackingScheme::elastic, 1}, {PackingScheme::mig, 2}, {PackingScheme::exclusive, 3}};
  for (const auto& [scheme, gpus] : want) {
    ClusterPacker packer(nodes, scheme, &h200);
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(packer.place(pod(320)));
    EXPECT_EQ(packer.occupied_gpus(), gpus);
    EXPECT_EQ(packer.requested_milli(), 960);
  }
}

TEST(ClusterPacker, MultiGpuPodsTakeIdleGpusOfOneNodeAndRespectGpuSpec) {
  const GpuPartitioning h200 = test_machines::h200_partitioning();
  auto nodes = cluster(2, 4);
  nodes[1].model = "V100M32";
  ClusterPacker packer(nodes, PackingScheme::elastic, &h200);
  ASSERT_TRUE(packer.place(pod(100)));  // node 0, best fit among equals: the first GPU
  const auto four = packer.place(pod(1000, 4));
  ASSERT_TRUE(four);
  EXPECT_EQ(four->node, 1);  // node 0 has only 3 idle GPUs
  EXPECT_FALSE(packer.place(pod(1000, 4)));
  EXPECT_FALSE(packer.place(pod(500, 1, 0, 0, {"A10"})));
  const auto v100 = packer.place(pod(500, 1, 0, 0, {"A10", "T4"}));
  ASSERT_TRUE(v100);
  EXPECT_EQ(v100->node, 0);
  EXPECT_EQ(v100->gpus, std::vector<int>{0});  // best fit: the GPU already holding 100 milli
  packer.remove(pod(1000, 4), *four);
  EXPECT_EQ(packer.occupied_gpus(), 1);
}

TEST(ClusterPacker, CpuAndMemoryBoundPlacement) {
  auto nodes = cluster(1, 2);
  nodes[0].cpu_milli = 1500;
  ClusterPacker packer(nodes, PackingScheme::elastic, nullptr);
  ASSERT_TRUE(packer.place(pod(200)));
  EXPECT_FALSE(packer.place(pod(200)));  // 1000 + 1000 CPU milli > 1500
  EXPECT_TRUE(packer.place(pod(0, 0)) == std::nullopt);
}

// Random arrivals and removals: no GPU ever holds more than its capacity, every MIG layout is legal,
// exclusive GPUs hold one pod, node CPU and memory never go past their capacity.
TEST(ClusterPacker, NeverPlacesBeyondCapacityUnderRandomChurn) {
  const GpuPartitioning h200 = test_machines::h200_partitioning();
  const auto nodes = cluster(3, 4);
  for (PackingScheme scheme : {PackingScheme::exclusive, PackingScheme::mig, PackingScheme::elastic}) {
    ClusterPacker packer(nodes, scheme, &h200);
    std::mt19937_64 rng(7);
    std::vector<std::pair<PodRequest, PodPlacement>> live;
    int placed = 0, refused = 0;
    for (int step = 0; step < 4000; ++step) {
      if (!live.empty() && rng() % 3 == 0) {
        const size_t k = rng() % live.size();
        packer.remove(live[k].first, live[k].second);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      } else {
        const int kind = static_cast<int>(rng() % 10);
        PodRequest p = kind == 0 ? pod(1000, 1 + static_cast<int>(rng() % 4)) : pod(1 + static_cast<int>(rng() % 1000));
        p.cpu_milli = rng() % 8000;
        if (auto w = packer.place(p)) live.push_back({p, *w}), ++placed;
        else ++refused;
      }
      int64_t sum = 0;
      for (const PackedGpu& g : packer.gpus()) {
        ASSERT_LE(g.requested_milli, 1000);
        ASSERT_GE(g.requested_milli, 0);
        sum += g.requested_milli;
        if (scheme == PackingScheme::exclusive) {
          ASSERT_LE(g.pods, 1);
        }
        if (scheme == PackingScheme::mig) {
          ASSERT_EQ(g.mig.size(), static_cast<size_t>(g.pods));
          ASSERT_NO_THROW((void)check_mig_layout(h200, g.mig));
        }
      }
      ASSERT_EQ(sum, packer.requested_milli());
      for (const PackedNode& n : packer.nodes()) ASSERT_LE(n.cpu_free_milli, 64000u);
    }
    EXPECT_GT(placed, 500);
    EXPECT_GT(refused, 0);
  }
}

// Hand-computed replay: one node, two GPUs. t=0: A 500 and B 600 (elastic: two GPUs); t=5: C asks
// a whole GPU (refused: no idle GPU, and 500 + 400 milli free in total is too little) and D 400
// (best fit: onto B's GPU);
// t=10 everything has left, E arrives. Occupied GPUs: 2 over [0,10); requested 1100 over [0,5),
// 1500 over [5,10): fragmentation = (900·5 + 500·5) / (2000·10) = 0.35.
TEST(ClusterPackingReplay, HandComputedElasticReplay) {
  const auto nodes = cluster(1, 2);
  const std::vector<PodRequest> pods = {pod(500, 1, 0, 10), pod(600, 1, 0, 10), pod(1000, 1, 5, 10),
                                        pod(400, 1, 5, 10), pod(100, 1, 10, 12)};
  const PackingMetrics m = replay_cluster_packing(pods, nodes, PackingScheme::elastic, nullptr);
  EXPECT_EQ(m.pods, 5);
  EXPECT_EQ(m.placed_pods, 4);
  EXPECT_EQ(m.unplaced_gpu_pods, 1);
  EXPECT_EQ(m.unplaced_fragmented, 0);  // 400 + 500 < 1000
  EXPECT_EQ(m.gpus_needed, 2);
  EXPECT_DOUBLE_EQ(m.window_s, 10);
  EXPECT_DOUBLE_EQ(m.mean_gpus_occupied, 2);
  EXPECT_DOUBLE_EQ(m.fragmentation, 0.35);
  EXPECT_DOUBLE_EQ(m.gpu_allocation, (1100.0 * 5 + 1500.0 * 5) / (2000.0 * 10));
}

// The same pods in fill mode: nobody leaves, so E joins A's GPU: 1600 of 2000 milli requested.
TEST(ClusterPackingReplay, FillModeKeepsEveryPod) {
  const auto nodes = cluster(1, 2);
  const std::vector<PodRequest> pods = {pod(500, 1, 0, 10), pod(600, 1, 0, 10), pod(1000, 1, 5, 10),
                                        pod(400, 1, 5, 10), pod(100, 1, 10, 12)};
  const PackingMetrics m = replay_cluster_packing(pods, nodes, PackingScheme::elastic, nullptr, PackingReplay::fill);
  EXPECT_FALSE(m.timed);
  EXPECT_EQ(m.placed_pods, 4);
  EXPECT_EQ(m.unplaced_gpu_pods, 1);
  EXPECT_EQ(m.gpus_needed, 2);
  EXPECT_DOUBLE_EQ(m.window_s, 0);
  EXPECT_DOUBLE_EQ(m.fragmentation, 0.2);
  EXPECT_DOUBLE_EQ(m.gpu_allocation, 0.8);
}

TEST(ClusterPackingReplay, FragmentedRefusalIsCounted) {
  const auto nodes = cluster(1, 2);
  // 600 + 600 on two GPUs leaves 800 milli free in total, but no GPU has 700.
  const std::vector<PodRequest> pods = {pod(600, 1, 0, 10), pod(600, 1, 0, 10), pod(700, 1, 1, 10)};
  const PackingMetrics m = replay_cluster_packing(pods, nodes, PackingScheme::elastic, nullptr);
  EXPECT_EQ(m.unplaced_gpu_pods, 1);
  EXPECT_EQ(m.unplaced_fragmented, 1);
}

}  // namespace
}  // namespace parallax
