// File: sim/policies/multiplex/service_batcher_test.cpp
// Batch formation on crafted arrival sequences (service_batcher.h's rule).
#include "sim/policies/multiplex/service_batcher.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

// lat(n) = 1 ms + 0.5 ms · n.
double lat(int n) { return 1e-3 + 0.5e-3 * n; }

TEST(ServiceBatcher, TimeoutReleasesAPartialBatch) {
  ServiceBatcher b({4, Time::ms(2), Time::ms(20)});
  b.push(Time::ms(10));
  b.push(Time::ms(11));
  EXPECT_EQ(b.due(lat), Time::ms(12));  // 2 < cap 4: oldest + timeout
  const auto batch = b.take(lat);
  EXPECT_EQ(batch.size(), 2u);
  EXPECT_EQ(b.queued(), 0u);
  EXPECT_FALSE(b.due(lat).has_value());
}

TEST(ServiceBatcher, MaxBatchReleasesAtOnceAndLeavesTheRest) {
  ServiceBatcher b({4, Time::ms(2), Time::ms(20)});
  for (int i = 0; i < 6; ++i) b.push(Time::ms(10));
  EXPECT_EQ(b.due(lat), Time::ms(10));  // full: due at the oldest arrival
  EXPECT_EQ(b.take(lat).size(), 4u);
  EXPECT_EQ(b.queued(), 2u);
  EXPECT_EQ(b.due(lat), Time::ms(12));
}

TEST(ServiceBatcher, SloCapsTheBatchSize) {
  // SLO 3.2 ms: lat(4) = 3 ms fits, lat(5) = 3.5 ms does not -> cap 4 of max 8.
  ServiceBatcher b({8, Time::ms(2), Time::us(3200)});
  EXPECT_EQ(b.cap(lat), 4);
  for (int i = 0; i < 5; ++i) b.push(Time::zero());
  EXPECT_EQ(b.take(lat).size(), 4u);
}

TEST(ServiceBatcher, SloSlackBeatsTheTimeout) {
  // One request, SLO 3 ms, lat(1) = 1.5 ms: it must start by 1.5 ms, before the 2 ms timeout.
  ServiceBatcher b({8, Time::ms(2), Time::ms(3)});
  b.push(Time::zero());
  EXPECT_EQ(b.due(lat), Time::seconds(1.5e-3));
}

TEST(ServiceBatcher, HopelessRequestIsDueAtOnceNotBeforeArrival) {
  ServiceBatcher b({8, Time::ms(2), Time::us(100)});  // lat(1) > SLO
  EXPECT_EQ(b.cap(lat), 1);
  b.push(Time::ms(5));
  EXPECT_EQ(b.due(lat), Time::ms(5));
}

}  // namespace
}  // namespace parallax
