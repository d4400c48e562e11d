// File: sim/experiment/multiplex_series_test.cpp
// multiplex's timeline.csv: each service's useful FLOPs and DRAM bytes spread over the bins its
// kernels span, the last bin cut at the window, and the time-weighted mean of the bins equal to
// the policy's utilisation over the window.
#include "sim/experiment/multiplex_series.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace parallax {
namespace {

std::vector<std::vector<std::string>> cells(const std::string& text) {
  std::vector<std::vector<std::string>> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> row;
    std::stringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) row.push_back(c);
    out.push_back(row);
  }
  return out;
}

TEST(MultiplexSeries, KernelsSpreadOverTheirBinsAndTheLastBinEndsAtTheWindow) {
  const std::vector<std::string> services{"a", "b"};
  // a: 4e12 useful FLOPs from 0.5 s to 1.5 s; b: 2e9 bytes from 0 to 2.5 s. η·peak 1e13, HBM 1e9 B/s.
  const std::vector<MultiplexKernelSpan> spans{{Time::seconds(0.5), Time::seconds(1.5), 0, 4e12, 0},
                                               {Time::seconds(0), Time::seconds(2.5), 1, 0, 2e9}};
  const auto rows = cells(multiplex_timeline_rows("elastic", services, spans, 2.5, 1.0, 1e13, 1e9));
  ASSERT_EQ(rows.size(), 6u);  // 3 bins x 2 services
  EXPECT_EQ(rows[0], (std::vector<std::string>{"elastic", "a", "0", "1", "0.200000", "0.000000"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"elastic", "b", "0", "1", "0.000000", "0.800000"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"elastic", "a", "1", "2", "0.200000", "0.000000"}));
  EXPECT_EQ(rows[4], (std::vector<std::string>{"elastic", "a", "2", "2.5", "0.000000", "0.000000"}));
  EXPECT_EQ(rows[5], (std::vector<std::string>{"elastic", "b", "2", "2.5", "0.000000", "0.800000"}));
  // Time-weighted mean over the window = Σ work / (rate × window): 4e12 / (1e13 × 2.5), 2e9 / (1e9 × 2.5).
  double sm = 0, hbm = 0;
  for (const auto& r : rows) {
    const double w = std::stod(r[3]) - std::stod(r[2]);
    sm += std::stod(r[4]) * w / 2.5;
    hbm += std::stod(r[5]) * w / 2.5;
  }
  EXPECT_NEAR(sm, 0.16, 1e-6);
  EXPECT_NEAR(hbm, 0.8, 1e-6);
}

TEST(MultiplexSeries, AWindowOfWholeBinsHasNoEmptyLastBin) {
  const std::vector<std::string> services{"a"};
  const auto rows = cells(multiplex_timeline_rows("mps", services, {}, 0.3, 0.1, 1e13, 1e9));
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2][2], "0.2");
  EXPECT_EQ(rows[2][3], "0.3");
}

}  // namespace
}  // namespace parallax
