// File: sim/policies/multiplex/peak_rate_test.cpp
// The windowed peak rate that `mig_sizing: peak` sizes MIG instances for.
#include "sim/policies/multiplex/peak_rate.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace parallax {
namespace {

// Window w (of 10 ms) holds w arrivals, w = 0..99 over 1 s: rates 0, 100, ..., 9900 /s.
std::vector<Time> ramp() {
  std::vector<Time> a;
  for (int w = 0; w < 100; ++w)
    for (int k = 0; k < w; ++k) a.push_back(Time::seconds(0.01 * w + 0.01 * (k + 0.5) / w));
  return a;
}

TEST(PeakRate, NearestRankPercentileOfWindowRates) {
  const std::vector<Time> a = ramp();
  EXPECT_NEAR(windowed_peak_rate(a, 1.0, 0.01, 100), 9900, 1e-6);
  EXPECT_NEAR(windowed_peak_rate(a, 1.0, 0.01, 99), 9800, 1e-6);  // rank 99 of 100
  EXPECT_NEAR(windowed_peak_rate(a, 1.0, 0.01, 50), 4900, 1e-6);
  // Wider windows average the ramp: 100 ms windows hold 45 + 100·j arrivals.
  EXPECT_NEAR(windowed_peak_rate(a, 1.0, 0.1, 100), 9450, 1e-6);
}

TEST(PeakRate, OnlyWholeWindowsAndShortRunsUseTheirDuration) {
  const std::vector<Time> a{Time::seconds(0.001), Time::seconds(0.002), Time::seconds(0.0105)};
  EXPECT_NEAR(windowed_peak_rate(a, 0.015, 0.01, 100), 200, 1e-6);  // the 5 ms tail is not a window
  EXPECT_NEAR(windowed_peak_rate(a, 0.005, 0.01, 100), 400, 1e-6);  // one 5 ms window, 2 arrivals
  EXPECT_THROW(windowed_peak_rate(a, 1.0, 0.0, 99), std::invalid_argument);
  EXPECT_THROW(windowed_peak_rate(a, 1.0, 0.01, 0), std::invalid_argument);
}

}  // namespace
}  // namespace parallax
