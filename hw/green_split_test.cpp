// File: hw/green_split_test.cpp
#include "hw/green_split.h"

#include <gtest/gtest.h>

namespace parallax::hw {
namespace {

const GpuPartitioning h200 = green_rules("H200", 132, 8, 8);

TEST(GreenSplit, RoundsUpToTheGranularityAndChainsTheRemainder) {
  const GreenSplit s = split_green_groups(h200, {30, 64});
  EXPECT_EQ(s.groups, (std::vector<int>{32, 64}));
  EXPECT_EQ(s.remaining, 36);
  EXPECT_EQ(split_green_groups(h200, {1}).groups[0], 8);  // the minimum
  EXPECT_EQ(split_green_groups(h200, {128}).remaining, 4);
}

TEST(GreenSplit, SixteenGroupsOfEightLeaveFour) {
  const GreenSplit s = split_green_groups(h200, std::vector<int>(16, 8));
  EXPECT_EQ(s.remaining, 4);
  EXPECT_THROW(split_green_groups(h200, std::vector<int>(17, 8)), PartitionRuleError);
}

TEST(GreenSplit, RefusesWhatDoesNotFit) {
  try {
    split_green_groups(h200, {64, 64, 8});
    FAIL();
  } catch (const PartitionRuleError& e) {
    EXPECT_EQ(e.rule(), "green-context total");
    EXPECT_NE(std::string(e.what()).find("4 of 132 are left"), std::string::npos) << e.what();
  }
  EXPECT_THROW(split_green_groups(h200, {0}), PartitionRuleError);
  EXPECT_THROW(split_green_groups(h200, {133}), PartitionRuleError);
}

TEST(GreenSplit, AmpereRules) {
  const GpuPartitioning a100 = green_rules("A100", 108, 4, 2);
  const GreenSplit s = split_green_groups(a100, {3, 5});
  EXPECT_EQ(s.groups, (std::vector<int>{4, 6}));
  EXPECT_EQ(s.remaining, 98);
}

}  // namespace
}  // namespace parallax::hw
