// File: sim/report/time_bins_test.cpp
// Bin widths are 1-2-5 x 10^k within the bin limit and not needlessly wide; intervals spread over
// the bins they cross in proportion to the overlap.
#include "sim/report/time_bins.h"

#include <gtest/gtest.h>

#include <cmath>

namespace parallax {
namespace {

TEST(TimeBins, WidthIsOneTwoFiveWithinTheLimit) {
  EXPECT_DOUBLE_EQ(time_bin_width_s(86400, 2000), 50.0);  // 43.2 s is the least
  EXPECT_DOUBLE_EQ(time_bin_width_s(4000, 2000), 2.0);
  EXPECT_NEAR(time_bin_width_s(10, 2000), 0.005, 1e-15);
  EXPECT_DOUBLE_EQ(time_bin_width_s(0, 2000), 1.0);
  for (double horizon : {0.37, 3.0, 59.9, 1234.5, 86400.0, 1e6}) {
    const double w = time_bin_width_s(horizon);
    EXPECT_LE(std::ceil(horizon / w), static_cast<double>(kMaxTimeBins)) << horizon;
    EXPECT_GT(horizon / w, static_cast<double>(kMaxTimeBins) / 2.5 - 1) << horizon;  // the next width down overflows
  }
}

TEST(TimeBins, CountAndBinOf) {
  EXPECT_EQ(time_bin_count(3.0, 1.0), 3u);
  EXPECT_EQ(time_bin_count(3.2, 1.0), 4u);
  EXPECT_EQ(time_bin_count(0, 1.0), 1u);
  EXPECT_EQ(time_bin_of(2.5, 1.0, 3), 2u);
  EXPECT_EQ(time_bin_of(7.0, 1.0, 3), 2u);  // clamped
  EXPECT_EQ(time_bin_of(-1.0, 1.0, 3), 0u);
}

TEST(TimeBins, IntervalSpreadsByOverlap) {
  std::vector<double> bins(3, 0.0);
  add_over_interval(bins, 1.0, 0.5, 2.25, 4.0);
  EXPECT_DOUBLE_EQ(bins[0], 2.0);
  EXPECT_DOUBLE_EQ(bins[1], 4.0);
  EXPECT_DOUBLE_EQ(bins[2], 1.0);
  add_over_interval(bins, 1.0, 2.5, 9.0, 2.0);  // clipped at the last bin's end
  EXPECT_DOUBLE_EQ(bins[2], 2.0);
  add_over_interval(bins, 1.0, 1.0, 1.0, 5.0);  // empty interval
  EXPECT_DOUBLE_EQ(bins[1], 4.0);
}

}  // namespace
}  // namespace parallax
