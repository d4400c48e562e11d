// File: sim/policies/multiplex/max_load_search_test.cpp
#include "sim/policies/multiplex/max_load_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace parallax {
namespace {

TEST(MaxLoadSearch, BisectsToWithinToleranceBelowTheCapacity) {
  // Capacity 1.37x: [0.25, 4] with tolerance 0.05 probes lo, hi, then 7 midpoints
  // (3.75 / 2^7 = 0.029 <= 0.05 < 0.059).
  const MaxLoadResult r = max_load_at_slo([](double m) { return m <= 1.37; }, {0.25, 4.0, 0.05});
  EXPECT_FALSE(r.below_bracket);
  EXPECT_FALSE(r.above_bracket);
  EXPECT_LE(r.max_load, 1.37);
  EXPECT_GT(r.max_load, 1.37 - 0.05);
  ASSERT_EQ(r.probes.size(), 9u);
  EXPECT_DOUBLE_EQ(r.probes[0].load, 0.25);
  EXPECT_DOUBLE_EQ(r.probes[1].load, 4.0);
  EXPECT_DOUBLE_EQ(r.probes[2].load, 2.125);  // first midpoint fails
  EXPECT_FALSE(r.probes[2].meets);
  EXPECT_DOUBLE_EQ(r.probes[3].load, 1.1875);  // second meets
  EXPECT_TRUE(r.probes[3].meets);
}

TEST(MaxLoadSearch, ReportsABracketThatMissesTheCapacity) {
  const MaxLoadResult low = max_load_at_slo([](double m) { return m <= 0.1; }, {0.25, 4.0, 0.05});
  EXPECT_TRUE(low.below_bracket);
  EXPECT_EQ(low.max_load, 0);
  EXPECT_EQ(low.probes.size(), 1u);
  const MaxLoadResult high = max_load_at_slo([](double m) { return m <= 9; }, {0.25, 4.0, 0.05});
  EXPECT_TRUE(high.above_bracket);
  EXPECT_EQ(high.max_load, 4.0);
  EXPECT_EQ(high.probes.size(), 2u);
}

TEST(MaxLoadSearch, RefusesAnEmptyBracket) {
  const auto yes = [](double) { return true; };
  EXPECT_THROW(max_load_at_slo(yes, {2, 1, 0.05}), std::invalid_argument);
  EXPECT_THROW(max_load_at_slo(yes, {0, 1, 0.05}), std::invalid_argument);
  EXPECT_THROW(max_load_at_slo(yes, {0.5, 1, 0}), std::invalid_argument);
}

}  // namespace
}  // namespace parallax
