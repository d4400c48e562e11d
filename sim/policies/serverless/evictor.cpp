// File: sim/policies/serverless/evictor.cpp
#include "sim/policies/serverless/evictor.h"


namespace parallax {

namespace {

// Class of a candidate: 0 is evicted before 1 (two_class_lru: light or replicated first).
int eviction_class(EvictorKind kind, const ModelResidency& residency, uint32_t function,
                   std::span<const ModelClass> function_class) {
  if (kind != EvictorKind::two_class_lru) return 0;
  const bool heavy = function_class[function] != ModelClass::light;
  return heavy && residency.replicas(function) == 1 ? 1 : 0;
}

// Calls `take(function)` for every evictable model of `gpu` in eviction order until it returns
// true: the GPU's resident models in LRU order, once per class. O(models the GPU holds).
template <typename Take>
void walk_eviction_order(EvictorKind kind, const ModelResidency& residency, int gpu,
                         std::span<const ModelClass> function_class, Take take) {
  const int classes = kind == EvictorKind::two_class_lru ? 2 : 1;
  for (int cls = 0; cls < classes; ++cls)
    for (uint32_t f = residency.oldest(gpu); f != ModelResidency::kNone; f = residency.newer_than(f, gpu))
      if (residency.evictable(f, gpu) && eviction_class(kind, residency, f, function_class) == cls && take(f)) return;
}

}  // namespace

std::vector<uint32_t> eviction_order(EvictorKind kind, const ModelResidency& residency, int gpu,
                                     std::span<const ModelClass> function_class) {
  std::vector<uint32_t> order;
  walk_eviction_order(kind, residency, gpu, function_class, [&](uint32_t f) {
    order.push_back(f);
    return false;
  });
  return order;
}

EvictionPlan plan_eviction(EvictorKind kind, const ModelResidency& residency, int gpu, int64_t need_bytes,
                           int64_t free_bytes, std::span<const ModelClass> function_class,
                           std::span<const int64_t> footprint) {
  EvictionPlan plan;
  int64_t available = free_bytes;
  if (available >= need_bytes) {
    plan.possible = true;
    return plan;
  }
  walk_eviction_order(kind, residency, gpu, function_class, [&](uint32_t f) {
    plan.victims.push_back(f);
    available += footprint[f];
    plan.possible = available >= need_bytes;
    return plan.possible;
  });
  if (plan.possible) return plan;
  plan.victims.clear();
  return plan;
}

}  // namespace parallax
