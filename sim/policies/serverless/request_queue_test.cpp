// File: sim/policies/serverless/request_queue_test.cpp
#include "sim/policies/serverless/request_queue.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

std::vector<uint32_t> order(const RequestQueue& q) {
  std::vector<uint32_t> out;
  for (const auto& k : q.order()) out.push_back(k.request);
  return out;
}

TEST(RequestQueue, FifoIsArrivalOrder) {
  RequestQueue q(QueueKind::fifo, 2, 0.98);
  q.push(0, 1, 0);
  q.push(1, 0, 1);
  q.push(2, 1, 2);
  q.resort();
  EXPECT_EQ(order(q), (std::vector<uint32_t>{0, 1, 2}));
  q.erase(1);
  EXPECT_EQ(order(q), (std::vector<uint32_t>{0, 2}));
}

TEST(RequestQueue, RrcIsTheRequiredRequestCount) {
  // n = 100, m = 97, p = 0.98: (98 - 97) / 0.02 = 50 more requests, all meeting, bring it to 98 %.
  RequestQueue q(QueueKind::rrc, 1, 0.98);
  for (int i = 0; i < 100; ++i) q.record(0, 0.01, i < 97);
  EXPECT_NEAR(q.rrc(0), 50, 1e-9);
  EXPECT_NEAR(q.metric(0), 0.01 * 1, 1e-12);  // L * (p n - m)
}

// The header's worked example: f0 (n 10, m 5, L 0.2 s): L*RRC = 48; f1 (n 10, m 10, L 0.01 s): -0.1.
RequestQueue worked_example() {
  RequestQueue q(QueueKind::rrc, 2, 0.98);
  for (int i = 0; i < 10; ++i) {
    q.record(0, 0.2, i % 2 == 0);
    q.record(1, 0.01, true);
  }
  return q;
}

TEST(RequestQueue, AtAlphaOneEveryFunctionIsHighAndTheFurthestBehindGoesFirst) {
  RequestQueue q = worked_example();
  q.push(0, 1, 0);
  q.push(1, 0, 1);
  q.push(2, 1, 2);
  q.resort();
  EXPECT_TRUE(q.high_priority(0));
  EXPECT_TRUE(q.high_priority(1));
  // High queue: larger metric first (f0: 0.2*4.8 = 0.96 > f1: 0.01*(-0.2) = -0.002), arrival order among equals.
  EXPECT_EQ(order(q), (std::vector<uint32_t>{1, 0, 2}));
}

TEST(RequestQueue, TheCumulativeThresholdDemotesTheFunctionsPastIt) {
  // alpha 0.5: threshold 0.5 * 48 = 24 < 48, so f0 is low; f1 (negative) stays high.
  RequestQueue q = worked_example();
  q.set_alpha(0.5);
  q.push(0, 0, 0);
  q.push(1, 1, 1);
  q.push(2, 0, 2);
  q.resort();
  EXPECT_FALSE(q.high_priority(0));
  EXPECT_TRUE(q.high_priority(1));
  // High first; within the low queue equal metrics go newest first (the reference's insertion).
  EXPECT_EQ(order(q), (std::vector<uint32_t>{1, 2, 0}));
}

TEST(RequestQueue, AlphaHalvesWhenTheCompliantShareFallsAndRecovers) {
  RequestQueue q(QueueKind::rrc, 2, 0.98);
  q.record(0, 0.01, true);
  q.record(1, 0.01, true);
  for (int i = 0; i < 20; ++i) q.resort();  // r = 1, r0 = 0 -> alpha = min(1, 2) = 1, r0 = 1
  EXPECT_DOUBLE_EQ(q.alpha(), 1.0);
  q.record(1, 0.5, false);                  // f1 now misses: r = 0.5, change -50 %
  for (int i = 0; i < 20; ++i) q.resort();
  EXPECT_DOUBLE_EQ(q.alpha(), 0.5);
  for (int i = 0; i < 20; ++i) q.resort();  // no change: alpha * 1.01
  EXPECT_DOUBLE_EQ(q.alpha(), 0.505);
}

}  // namespace
}  // namespace parallax
