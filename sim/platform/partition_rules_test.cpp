// File: sim/platform/partition_rules_test.cpp
// MIG layout legality, green-context granularity, MPS limits and channel colours, each rule by
// name, on an H200-like entry written out here (the YAML file is checked by the scenario tests).
#include <gtest/gtest.h>

#include <stdexcept>

#include "sim/platform/channel_colouring.h"
#include "sim/platform/green_context_groups.h"
#include "sim/platform/mig_layout.h"
#include "sim/platform/mig_memory.h"
#include "sim/platform/mps_thread_limit.h"
#include "sim/platform/test_machines.h"

namespace parallax {
namespace {

std::string rule_of(const std::vector<MigPlacement>& layout) {
  try {
    check_mig_layout(test_machines::h200_partitioning(), layout);
  } catch (const PartitionRuleError& e) {
    return e.rule();
  }
  return "";
}

TEST(MigLayout, LegalLayoutsGiveProfileSmsAndSliceShares) {
  const auto l = check_mig_layout(test_machines::h200_partitioning(), {{"4g.71gb", 0}, {"3g.71gb", 4}});
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].sms, 64);
  EXPECT_EQ(l[1].sms, 60);
  EXPECT_DOUBLE_EQ(l[0].bandwidth_share, 0.5);
  EXPECT_DOUBLE_EQ(l[1].bandwidth_share, 0.5);
  EXPECT_EQ(mig_partition_spec(l[1], "be").sms, 60);
  EXPECT_EQ(rule_of({{"3g.71gb", 0}, {"2g.35gb", 4}, {"1g.18gb", 6}}), "");
  std::vector<MigPlacement> seven;
  for (int i = 0; i < 7; ++i) seven.push_back({"1g.18gb", i});
  EXPECT_EQ(rule_of(seven), "");
}

TEST(MigLayout, EachBrokenRuleIsNamed) {
  EXPECT_EQ(rule_of({{"5g.99gb", 0}}), "profile");
  EXPECT_EQ(rule_of({{"3g.71gb", 2}}), "placement start");
  EXPECT_EQ(rule_of({{"4g.71gb", 0}, {"4g.71gb", 0}}), "instances of profile");
  EXPECT_EQ(rule_of({{"4g.71gb", 0}, {"3g.71gb", 0}}), "memory slices overlap");
  EXPECT_EQ(rule_of({{"7g.141gb", 0}, {"1g.18gb", 0}}), "compute slices");
  // 4g + 2g + 1g = 7 compute slices on memory slices 0-3, 4-5, 6: legal.
  EXPECT_EQ(rule_of({{"4g.71gb", 0}, {"2g.35gb", 4}, {"1g.18gb", 6}}), "");
  EXPECT_EQ(rule_of({{"2g.35gb", 0}, {"1g.18gb", 1}}), "memory slices overlap");
  std::vector<MigPlacement> eight;
  for (int i = 0; i < 7; ++i) eight.push_back({"1g.18gb", i});
  eight.push_back({"1g.18gb", 0});
  EXPECT_EQ(rule_of(eight), "instances of profile");
}

TEST(MigLayout, MessageNamesTheInstancesAndTheSlice) {
  try {
    check_mig_layout(test_machines::h200_partitioning(), {{"4g.71gb", 0}, {"3g.71gb", 0}});
    FAIL();
  } catch (const PartitionRuleError& e) {
    EXPECT_STREQ(e.what(), "H200-141GB: MIG instances 0 and 1 both use memory slice 0");
  }
}

// Weights against an instance's memory: the bound is inclusive and in whole bytes.
TEST(MigMemory, WeightsFitUpToTheProfilesBytes) {
  const GpuPartitioning g = test_machines::h200_partitioning();
  const MigProfile& small = *g.find_profile("1g.18gb");
  const int64_t bytes = mig_profile_memory_bytes(small);
  EXPECT_EQ(bytes, 17716740096);  // 16.5 GiB
  EXPECT_TRUE(weights_fit(static_cast<double>(bytes), small));
  EXPECT_FALSE(weights_fit(static_cast<double>(bytes + 1), small));
  EXPECT_EQ(largest_memory_profile(g).name, "7g.141gb");
  EXPECT_EQ(check_mig_layout(g, {{"1g.18gb", 0}})[0].memory_bytes, bytes);
  EXPECT_EQ(weights_needed("model 'm'", 1.5 * 1024 * 1024 * 1024),
            "model 'm' needs 1.5 GiB (1610612736 bytes) for its weights alone");
  EXPECT_THROW(largest_memory_profile(GpuPartitioning{}), std::invalid_argument);
}

TEST(GreenContexts, HopperGroupsAreMultiplesOfEight) {
  const GpuPartitioning g = test_machines::h200_partitioning();
  EXPECT_NO_THROW(check_green_context_groups(g, {64, 64}));
  EXPECT_NO_THROW(check_green_context_groups(g, {8, 16, 24, 80}));
  try {
    check_green_context_groups(g, {60, 72});
    FAIL();
  } catch (const PartitionRuleError& e) {
    EXPECT_EQ(e.rule(), "green-context granularity");
  }
  try {
    check_green_context_groups(g, {4});
    FAIL();
  } catch (const PartitionRuleError& e) {
    EXPECT_EQ(e.rule(), "green-context granularity");
  }
  try {
    check_green_context_groups(g, {72, 64});
    FAIL();
  } catch (const PartitionRuleError& e) {
    EXPECT_EQ(e.rule(), "green-context total");
  }
  EXPECT_EQ(round_to_green_context(g, 1), 8);
  EXPECT_EQ(round_to_green_context(g, 61), 64);
  EXPECT_EQ(round_to_green_context(g, 132), 128);
  EXPECT_EQ(round_to_tpcs(g, 13), 14);
  EXPECT_EQ(round_to_tpcs(g, 200), 132);
}

TEST(MpsThreadLimit, IsALimitRoundedUp) {
  EXPECT_EQ(mps_sm_limit(132, 50), 66);
  EXPECT_EQ(mps_sm_limit(132, 33), 44);
  EXPECT_EQ(mps_sm_limit(132, 100), 132);
  EXPECT_EQ(mps_kernel_max_sms(13, 132, 50), 13);
  EXPECT_EQ(mps_kernel_max_sms(0, 132, 50), 66);
  EXPECT_THROW(mps_sm_limit(132, 0), PartitionRuleError);
  EXPECT_THROW(mps_sm_limit(132, 101), PartitionRuleError);
}

TEST(ChannelColouring, KOfCColoursGiveThatShare) {
  const GpuPartitioning g = test_machines::h200_partitioning();
  const ColourShare s = colour_share(g, 3, 141'000'000'000);
  EXPECT_DOUBLE_EQ(s.bandwidth_share, 0.375);
  EXPECT_EQ(s.memory_bytes, 141'000'000'000 / 8 * 3);
  EXPECT_THROW(colour_share(g, 0, 1), PartitionRuleError);
  EXPECT_THROW(colour_share(g, 9, 1), PartitionRuleError);
  EXPECT_EQ(colours_for_share(g, 0.30), 3);
  EXPECT_EQ(colours_for_share(g, 0.375), 3);
  EXPECT_EQ(colours_for_share(g, 0.0), 1);
  EXPECT_EQ(colours_for_share(g, 2.0), 8);
}

}  // namespace
}  // namespace parallax
