// File: sim/policies/multiplex/elastic_shares_test.cpp
// The elastic rule (elastic_shares.h): hand-solved cases, and shares that always fit the device
// and always reach every service with a batch in flight.
#include "sim/policies/multiplex/elastic_shares.h"

#include <gtest/gtest.h>

#include "sim/engine/random_streams.h"

namespace parallax {
namespace {

const ElasticLimits kH200{132, 2, 2, 0.01};

TEST(ElasticShares, WorkedExampleFromTheHeader) {
  // A d = 132 w = 3, B d = 132 w = 1, C idle: 130 SMs by 3:1 = 97.5/32.5 -> 96/32, spare 2 to B.
  const std::vector<ElasticDemand> d{{true, 132, 1.0, 3}, {true, 132, 1.0, 1}, {false, 0, 0, 1}};
  const auto s = elastic_shares(d, kH200);
  EXPECT_EQ(s[0].sms, 96);
  EXPECT_EQ(s[1].sms, 34);
  EXPECT_EQ(s[2].sms, 2);
  EXPECT_DOUBLE_EQ(s[2].bandwidth_share, 0.01);
  EXPECT_NEAR(s[0].bandwidth_share + s[1].bandwidth_share, 0.99, 1e-12);
}

TEST(ElasticShares, AloneExpandsIntoTheBubbleAndShrinksWhenAnotherArrives) {
  std::vector<ElasticDemand> d{{true, 132, 0.5, 1}, {false, 0, 0, 1}};
  auto s = elastic_shares(d, kH200);
  EXPECT_EQ(s[0].sms, 130);                           // all but B's floor
  EXPECT_NEAR(s[0].bandwidth_share, 0.99, 1e-12);     // its 0.5 plus the idle bandwidth
  d[1] = {true, 132, 0.5, 1};
  s = elastic_shares(d, kH200);
  EXPECT_EQ(s[0].sms, 66);
  EXPECT_EQ(s[1].sms, 66);
  EXPECT_NEAR(s[0].bandwidth_share, 0.5, 1e-12);
}

TEST(ElasticShares, SmallDemandIsMetAndTheRestGoesToTheOther) {
  // A needs only 20 SMs (w 1), B 132 (w 1): A gets 20, B the other 112.
  const std::vector<ElasticDemand> d{{true, 20, 0.1, 1}, {true, 132, 0.9, 1}};
  const auto s = elastic_shares(d, kH200);
  EXPECT_EQ(s[0].sms, 20);
  EXPECT_EQ(s[1].sms, 112);
  EXPECT_NEAR(s[0].bandwidth_share, 0.1, 1e-12);
  EXPECT_NEAR(s[1].bandwidth_share, 0.9, 1e-12);
}

TEST(ElasticShares, RandomDemandsFitTheDeviceAndReachEveryActiveService) {
  RandomStream rng(7);
  for (int round = 0; round < 2000; ++round) {
    const int n = 1 + static_cast<int>(rng.uniform_int(7));
    std::vector<ElasticDemand> d;
    for (int i = 0; i < n; ++i)
      d.push_back({rng.uniform01() < 0.6, 1 + static_cast<int>(rng.uniform_int(140)), rng.uniform(0.001, 1.0),
                   rng.uniform(0.01, 10.0)});
    const auto s = elastic_shares(d, kH200);
    int sms = 0;
    double bw = 0;
    for (int i = 0; i < n; ++i) {
      sms += s[static_cast<size_t>(i)].sms;
      bw += s[static_cast<size_t>(i)].bandwidth_share;
      EXPECT_GE(s[static_cast<size_t>(i)].sms, 2);
      EXPECT_GT(s[static_cast<size_t>(i)].bandwidth_share, 0);
      EXPECT_LE(s[static_cast<size_t>(i)].bandwidth_share, 1.0);
      EXPECT_EQ(s[static_cast<size_t>(i)].sms % 2, 0);
    }
    EXPECT_LE(sms, 132);
    EXPECT_LE(bw, 1.0 + 1e-9);
  }
}

TEST(WaterFill, CapsAndWeights) {
  // Pool 10, caps {2, 100, 100}, weights {1, 1, 3}: 2, then 8 by 1:3 = 2 and 6.
  const std::vector<double> caps{2, 100, 100}, w{1, 1, 3};
  const auto f = water_fill(caps, w, 10);
  EXPECT_DOUBLE_EQ(f[0], 2);
  EXPECT_DOUBLE_EQ(f[1], 2);
  EXPECT_DOUBLE_EQ(f[2], 6);
}

}  // namespace
}  // namespace parallax
