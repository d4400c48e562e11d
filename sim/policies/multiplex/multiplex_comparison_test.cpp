// File: sim/policies/multiplex/multiplex_comparison_test.cpp
#include "sim/policies/multiplex/multiplex_comparison.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

TEST(MultiplexComparison, RatiosAgainstEveryBaselineAndBestByGoodput) {
  const std::vector<MultiplexOutcome> runs{{"timeslice", 100, 50, 0.50, 4e-3},
                                           {"mps", 100, 90, 0.90, 2e-3},
                                           {"elastic", 100, 95, 0.95, 1.5e-3},
                                           {"mig", 80, 60, 0.60, 3e-3}};
  const auto c = compare_elastic_with_baselines(runs);
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->policy, "elastic");
  ASSERT_EQ(c->baselines.size(), 3u);
  EXPECT_EQ(c->baselines[0].baseline, "timeslice");
  EXPECT_EQ(c->baselines[2].baseline, "mig");
  EXPECT_DOUBLE_EQ(c->baselines[1].goodput_ratio, 95.0 / 90.0);
  EXPECT_DOUBLE_EQ(c->baselines[2].throughput_ratio, 100.0 / 80.0);
  EXPECT_NEAR(c->baselines[0].slo_attainment_gain, 0.45, 1e-12);
  EXPECT_NEAR(c->baselines[1].mean_latency_change, -0.25, 1e-12);
  ASSERT_TRUE(c->best_baseline.has_value());
  EXPECT_EQ(c->best_baseline->baseline, "mps");
}

TEST(MultiplexComparison, NoElasticNoComparisonAndZeroBaselineGivesZeroRatio) {
  EXPECT_FALSE(compare_elastic_with_baselines({{"mps", 1, 1, 1, 1}, {"mig", 1, 1, 1, 1}}).has_value());
  const auto c = compare_elastic_with_baselines({{"elastic", 10, 5, 0.5, 1e-3}, {"mig", 0, 0, 0, 0}});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->baselines[0].goodput_ratio, 0);
  EXPECT_EQ(c->baselines[0].mean_latency_change, 0);
}

}  // namespace
}  // namespace parallax
