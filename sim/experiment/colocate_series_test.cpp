// File: sim/experiment/colocate_series_test.cpp
// colocate's report series: SM and bandwidth shares per tenant spread over the bins a kernel
// spans, and the LS latency CDF (every request up to kMaxCdfPoints, nearest-rank points beyond).
#include "sim/experiment/colocate_series.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace parallax {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(ColocateSeries, SharesSpreadOverTheBinsAKernelSpans) {
  // LS: 66 of 132 SMs from 0.5 s to 2 s moving 6e9 bytes (4e9 B/s); BE: 132 SMs from 0 to 1 s, 1e9 bytes.
  const std::vector<ColocationKernelSpan> spans{
      {Time::seconds(0.5), Time::seconds(2.0), true, 66, 6e9}, {Time::seconds(0), Time::seconds(1), false, 132, 1e9}};
  const std::vector<std::string> rows = lines(colocate_timeline_rows("sgdrc", spans, 2.0, 1.0, 132, 8e9));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], "sgdrc,0,1,0.250000,1.000000,0.250000,0.125000");
  EXPECT_EQ(rows[1], "sgdrc,1,2,0.500000,0.000000,0.500000,0.000000");
}

TEST(ColocateSeries, LatencyCdfKeepsEveryRequestUpToTheLimit) {
  const std::vector<std::string> few = lines(ls_latency_cdf_rows("mps", {0.003, 0.001, 0.002}));
  ASSERT_EQ(few.size(), 3u);
  EXPECT_EQ(few[0], "mps,0.333333,0.001");
  EXPECT_EQ(few[2], "mps,1,0.003");
  std::vector<double> many;
  for (int i = 2500; i >= 1; --i) many.push_back(i * 1e-6);
  const std::vector<std::string> cdf = lines(ls_latency_cdf_rows("mps", many));
  ASSERT_EQ(cdf.size(), kMaxCdfPoints);
  EXPECT_EQ(cdf.front(), "mps,0.001,3e-06");  // nearest rank ceil(0.001 x 2500) = 3
  EXPECT_EQ(cdf.back(), "mps,1,0.0025");
}

}  // namespace
}  // namespace parallax
