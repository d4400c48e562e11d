// File: sim/experiment/serverless_timeline_test.cpp
// timeline.csv's binning: loads counted in the bin they start in by path, pool bytes as a
// time-weighted mean across bin edges, one row per bin per policy over the longest run.
#include "sim/experiment/serverless_timeline.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

TEST(ServerlessTimeline, LoadsByPathAndMemoryTimeWeighted) {
  ServerlessTimelineSamples s;
  s.policy = "torpor";
  s.loads = {{Time::seconds(0.5), SwapSource::peer, 7}, {Time::seconds(2.2), SwapSource::host, 3}};
  s.pools = {{{Time::seconds(0), 10, 0}, {Time::seconds(1.5), 20, 0}}, {{Time::seconds(2.5), 4, 0}}};
  const std::vector<TimelineBin> bins = bin_timeline(s, 3.0, 1.0);
  ASSERT_EQ(bins.size(), 3u);
  EXPECT_EQ(bins[0].swaps_nvlink, 1u);
  EXPECT_EQ(bins[0].swaps_pcie, 0u);
  EXPECT_DOUBLE_EQ(bins[0].bytes_nvlink, 7);
  EXPECT_EQ(bins[2].swaps_pcie, 1u);
  EXPECT_DOUBLE_EQ(bins[2].bytes_pcie, 3);
  EXPECT_EQ(bins[1].swaps_pcie + bins[1].swaps_nvlink, 0u);
  EXPECT_DOUBLE_EQ(bins[0].memory_bytes, 10);
  EXPECT_DOUBLE_EQ(bins[1].memory_bytes, 15);      // half at 10, half at 20
  EXPECT_DOUBLE_EQ(bins[2].memory_bytes, 20 + 2);  // second GPU: 4 bytes for half the bin
}

TEST(ServerlessTimeline, CsvHasOneRowPerBinPerPolicyOverTheLongestRun) {
  ServerlessTimelineSamples a, b;
  a.policy = "torpor";
  a.end_s = 3.0;
  b.policy = "native";
  b.end_s = 1.2;
  const std::vector<ServerlessTimelineSamples> both{a, b};
  const std::string csv = timeline_csv(both);
  EXPECT_EQ(csv.rfind("policy,start_s,end_s,swaps_pcie,swaps_nvlink,swap_bytes_pcie,swap_bytes_nvlink,"
                      "gpu_memory_used_bytes\n", 0),
            0u);
  // 3 s in 2000 bins: 0.002 s wide, 1500 bins for each policy.
  size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 2 * 1500);
  EXPECT_NE(csv.find("\nnative,2.998,3,0,0,0,0,0\n"), std::string::npos);
}

}  // namespace
}  // namespace parallax
