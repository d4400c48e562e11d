// File: sim/policies/colocate/colocation_comparison_test.cpp
#include "sim/policies/colocate/colocation_comparison.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

// MPS has the most BE throughput but misses the SLO; among those that meet 0.99, orion has more
// than temporal, so orion is the fair baseline; ls_alone runs no BE and is no baseline.
TEST(ColocationComparison, BestBaselineIsTheBestOneMeetingTheSlo) {
  const std::vector<PolicyOutcome> in{{"ls_alone", 0.999, 0, 8000, false},
                                      {"mps", 0.75, 300, 27000, true},
                                      {"temporal", 0.995, 100, 14000, true},
                                      {"orion", 0.992, 150, 17600, true},
                                      {"sgdrc", 0.990, 200, 20800, true}};
  const auto c = compare_with_baselines(in, 0.99);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->policy, "sgdrc");
  EXPECT_TRUE(c->meets_slo);
  ASSERT_EQ(c->baselines.size(), 3u);
  EXPECT_EQ(c->baselines[0].baseline, "mps");
  EXPECT_FALSE(c->baselines[0].baseline_meets_slo);
  EXPECT_DOUBLE_EQ(c->baselines[0].be_throughput_ratio, 200.0 / 300);
  ASSERT_TRUE(c->best_meeting_slo.has_value());
  EXPECT_EQ(c->best_meeting_slo->baseline, "orion");
  EXPECT_DOUBLE_EQ(c->best_meeting_slo->be_throughput_ratio, 200.0 / 150);
  EXPECT_DOUBLE_EQ(c->best_meeting_slo->overall_throughput_ratio, 20800.0 / 17600);
  // A stricter target leaves only temporal.
  EXPECT_EQ(compare_with_baselines(in, 0.995)->best_meeting_slo->baseline, "temporal");
  EXPECT_FALSE(compare_with_baselines(in, 0.995)->meets_slo);
}

TEST(ColocationComparison, NothingToCompareWithoutAnSgdrcPolicy) {
  EXPECT_FALSE(compare_with_baselines({{"mps", 0.9, 1, 1, true}}, 0.99).has_value());
  const auto c = compare_with_baselines({{"sgdrc-block", 0.9, 1, 1, true}, {"mps", 0.5, 2, 2, true}}, 0.99);
  ASSERT_TRUE(c.has_value());
  EXPECT_FALSE(c->best_meeting_slo.has_value());
}

}  // namespace
}  // namespace parallax
