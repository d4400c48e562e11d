// File: sim/policies/serverless/request_queue_test.cpp
#include "sim/policies/serverless/request_queue.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

std::vector<uint32_t> order(const RequestQueue& q) {
  std::vector<uint32_t> out;
  for (const auto& k : q.order()) out.push_back(std::get<2>(k));
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
}

TEST(RequestQueue, RrcServesTheSmallestScoresFirst) {
  // f0 misses often (score large), f1 always meets (score negative). alpha = 0.5 of 2 functions:
  // f1 is high priority, f0 low, so f1's later request overtakes f0's.
  RequestQueue q(QueueKind::rrc, 2, 0.98);
  for (int i = 0; i < 10; ++i) {
    q.record(0, 0.2, i % 2 == 0);
    q.record(1, 0.01, true);
  }
  q.push(0, 0, 0);
  q.push(1, 1, 1);
  q.resort();
  EXPECT_TRUE(q.high_priority(1));
  EXPECT_FALSE(q.high_priority(0));
  EXPECT_EQ(order(q), (std::vector<uint32_t>{1, 0}));
  q.push(2, 0, 2);
  EXPECT_EQ(order(q), (std::vector<uint32_t>{1, 0, 2}));
}

}  // namespace
}  // namespace parallax
