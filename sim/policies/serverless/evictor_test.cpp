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
      r.at(f, 0).state = Residency::resident;
      r.at(f, 0).last_use = Time::seconds(used[f]);
    }
    r.at(2, 1).state = Residency::resident;
    r.at(3, 0).running = true;
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
  c.r.at(2, 0).readers = 1;  // an NVLink swap reads C from GPU 0
  EXPECT_EQ(eviction_order(EvictorKind::two_class_lru, c.r, 0, c.cls), (std::vector<uint32_t>{0, 1}));
}

TEST(Evictor, ReplicaCountChangesTheClass) {
  Crafted c;
  c.r.at(2, 1).state = Residency::absent;  // C is now the only copy: class 1, LRU among B and C
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

}  // namespace
}  // namespace parallax
