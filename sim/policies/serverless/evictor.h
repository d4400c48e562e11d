// File: sim/policies/serverless/evictor.h
// Which models to evict from one GPU so that a new one fits (models go whole; the host copy is
// kept). Candidates are resident, idle replicas that no NVLink swap is reading.
//  * lru: least recently used first.
//  * two_class_lru (Torpor §5.4, torpor:include/server/evictor.hpp): class 2 = light models and
//    replicated median/heavy ones, class 1 = median/heavy models held by this GPU only (the
//    evictor treats Median as Heavy). All of class 2 goes, LRU first, before any of class 1.
// Ties in last use break by function index, so the order is deterministic.
//
// Example: GPU 0 holds A (light, used at 5 s), B (heavy, only copy, 1 s), C (heavy, also on GPU 1,
// 3 s). lru evicts B, C, A; two_class_lru evicts C, A, B.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/policies/serverless/model_residency.h"
#include "sim/policies/serverless/served_model.h"

namespace parallax {

enum class EvictorKind : uint8_t { lru, two_class_lru };

struct EvictionPlan {
  bool possible = false;
  std::vector<uint32_t> victims;  // functions, in eviction order
};

// Every evictable function on `gpu` in the order `kind` evicts them.
std::vector<uint32_t> eviction_order(EvictorKind kind, const ModelResidency& residency, int gpu,
                                     std::span<const ModelClass> function_class);

// The shortest prefix of eviction_order whose bytes (`footprint`, per function, as the pool
// rounds them) bring `free_bytes` up to `need_bytes`; possible = false if all of them do not.
EvictionPlan plan_eviction(EvictorKind kind, const ModelResidency& residency, int gpu, int64_t need_bytes,
                           int64_t free_bytes, std::span<const ModelClass> function_class,
                           std::span<const int64_t> footprint);

}  // namespace parallax
