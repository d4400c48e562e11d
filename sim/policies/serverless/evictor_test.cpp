// File: sim/policies/serverless/evictor_test.cpp
#include "sim/policies/serverless/evictor.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

// GPU 0 holds A (light, used at 5 s), B (heavy, only copy, 1 s), C (heavy, also on GPU 1, 3 s)
// and D (median, only copy, 2 s, running: never a candidate).
struct Crafted {
  ModelResidency r{4, 2};
  std::vector<ModelClass> cls{ModelClass::light, ModelClass::heavy, ModelClass::heavy, ModelClass::median};
  std::vector<int64_t> bytes{100, 200, 300, 400};
  Crafted() {
    const double used[] = {5, 1, 3, 2};
    for (uint32_t f = 0; f < 4; ++f) {
      r.set_state(f, 0, Residency::resident);
      r.set_last_use(f, 0, Time::seconds(used[f]));
    }
    r.set_state(2, 1, Residency::resident);
    r.set_running(3, 0, true);
  }
};

TEST(Evictor, LruIsLeastRecentlyUsedFirst) {
  Crafted c;
  EXPECT_EQ(eviction_order(EvictorKind::lru, c.r, 0, c.cls), (std::vector<uint32_t>{1, 2, 0}));
}

TEST(Evictor, TwoClassEvictsLightAndReplicatedFirst) {
  Crafted c;
  EXPECT_EQ(eviction_order(EvictorKind::two_class_lru, c.r, 0, c.cls), (std::vector<uint32_t>{2, 0, 1}));
}

TEST(Evictor, SwapSourcesAreLocked) {
  Crafted c;
  c.r.add_reader(2, 0, 1);  // an NVLink swap reads C from GPU 0
  EXPECT_EQ(eviction_order(EvictorKind::two_class_lru, c.r, 0, c.cls), (std::vector<uint32_t>{0, 1}));
}

TEST(Evictor, ReplicaCountChangesTheClass) {
  Crafted c;
  c.r.set_state(2, 1, Residency::absent);  // C is now the only copy: class 1, LRU among B and C
  EXPECT_EQ(eviction_order(EvictorKind::two_class_lru, c.r, 0, c.cls), (std::vector<uint32_t>{0, 1, 2}));
}

TEST(Evictor, PlanTakesTheShortestPrefix) {
  Crafted c;
  EvictionPlan p = plan_eviction(EvictorKind::two_class_lru, c.r, 0, 350, 100, c.cls, c.bytes);
  EXPECT_TRUE(p.possible);
  EXPECT_EQ(p.victims, (std::vector<uint32_t>{2}));  // 100 free + 300
  p = plan_eviction(EvictorKind::two_class_lru, c.r, 0, 50, 100, c.cls, c.bytes);
  EXPECT_TRUE(p.possible);
  EXPECT_TRUE(p.victims.empty());
  p = plan_eviction(EvictorKind::lru, c.r, 0, 10'000, 100, c.cls, c.bytes);
  EXPECT_FALSE(p.possible);
  EXPECT_TRUE(p.victims.empty());
}

// The per-GPU LRU index follows every change: a model used again moves behind the others, one
// evicted and loaded again comes back at its new last use.
TEST(Evictor, LruOrderFollowsUseAndReload) {
  Crafted c;
  c.r.set_last_use(1, 0, Time::seconds(9));  // B used again: last
  EXPECT_EQ(eviction_order(EvictorKind::lru, c.r, 0, c.cls), (std::vector<uint32_t>{2, 0, 1}));
  c.r.set_state(2, 0, Residency::absent);
  EXPECT_EQ(eviction_order(EvictorKind::lru, c.r, 0, c.cls), (std::vector<uint32_t>{0, 1}));
  c.r.set_state(2, 0, Residency::loading);
  c.r.set_last_use(2, 0, Time::seconds(10));
  c.r.set_state(2, 0, Residency::resident);
  EXPECT_EQ(eviction_order(EvictorKind::lru, c.r, 0, c.cls), (std::vector<uint32_t>{0, 1, 2}));
  c.r.set_running(3, 0, false);  // D idle again, used at 2 s: first
  EXPECT_EQ(eviction_order(EvictorKind::lru, c.r, 0, c.cls), (std::vector<uint32_t>{3, 0, 1, 2}));
}

}  // namespace
}  // namespace parallax
