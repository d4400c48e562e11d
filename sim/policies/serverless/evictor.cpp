// File: sim/policies/serverless/evictor.cpp
#include "sim/policies/serverless/evictor.h"

#include <algorithm>
#include <tuple>

namespace parallax {

std::vector<uint32_t> eviction_order(EvictorKind kind, const ModelResidency& residency, int gpu,
                                     std::span<const ModelClass> function_class) {
  struct Candidate {
    int cls;  // 0 = evicted first
    Time last_use;
    uint32_t function;
  };
  std::vector<Candidate> c;
  for (uint32_t f = 0; f < static_cast<uint32_t>(residency.functions()); ++f) {
    if (!residency.evictable(f, gpu)) continue;
    int cls = 0;
    if (kind == EvictorKind::two_class_lru) {
      const bool heavy = function_class[f] != ModelClass::light;
      cls = heavy && residency.replicas(f) == 1 ? 1 : 0;
    }
    c.push_back({cls, residency.at(f, gpu).last_use, f});
  }
  std::sort(c.begin(), c.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.cls, a.last_use, a.function) < std::tie(b.cls, b.last_use, b.function);
  });
  std::vector<uint32_t> order;
  order.reserve(c.size());
  for (const Candidate& x : c) order.push_back(x.function);
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
  for (uint32_t f : eviction_order(kind, residency, gpu, function_class)) {
    plan.victims.push_back(f);
    available += footprint[f];
    if (available >= need_bytes) {
      plan.possible = true;
      return plan;
    }
  }
  plan.victims.clear();
  return plan;
}

}  // namespace parallax
