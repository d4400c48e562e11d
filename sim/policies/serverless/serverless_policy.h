// File: sim/policies/serverless/serverless_policy.h
// One serverless policy as a set of choices, so that a comparison changes one at a time.
// Torpor = swap + pipelined + two_class_lru + torpor selection + rrc. Baselines: native (each
// function's model pinned to a GPU, no swapping), keepalive (INFless-like containers with cold
// starts, kept warm for `keepalive`), naive (swap whole models, lru, random GPU, fifo).
#pragma once

#include <cstdint>
#include <string>

#include "models/swap_cost.h"
#include "sim/engine/sim_time.h"
#include "sim/policies/serverless/evictor.h"
#include "sim/policies/serverless/gpu_selector.h"
#include "sim/policies/serverless/request_queue.h"

namespace parallax {

enum class HostingMode : uint8_t { swap, native, keepalive };

struct ServerlessPolicy {
  std::string name = "torpor";
  HostingMode hosting = HostingMode::swap;
  bool pipelined = true;
  EvictorKind evictor = EvictorKind::two_class_lru;
  SelectorKind selector = SelectorKind::torpor;
  QueueKind queue = QueueKind::rrc;
  double percentile = 0.98;                        // Torpor §5.5
  Time resort_period = Time::seconds(2);           // Torpor §5.5
  // MEM_LIMIT_IN_GB = 25 (REFERENCE.md §5.3), which torpor's controller.hpp multiplies by 1024^3.
  int64_t reserve_bytes = int64_t{25} << 30;
  int64_t block_bytes = int64_t{128} << 20;        // physical blocks (block_manager.hpp)
  int64_t segment_bytes = int64_t{2} << 20;        // sub-allocation unit
  int64_t group_bytes = models::kSwapGroupBytes;   // BUFFER_SIZE
  Time host_group_overhead = Time::seconds(models::kHostGroupOverhead_s);
  Time peer_group_overhead = Time::seconds(models::kPeerGroupOverhead_s);
  Time host_group_overhead_contended = Time::seconds(models::kHostGroupOverheadContended_s);
  // keepalive (torpor:scripts/baseline_keepalive.py, tools/export_keepalive.py): each function's
  // container goes after idling longer than the P99 of its own inter-arrival gaps (or the fixed
  // `keepalive` when keepalive_p99_gaps is false); at most `keepalive_slots` containers per GPU
  // (max_model_num_per_server = 18); no eviction: waiting functions start, in the order they
  // first waited, only when a slot frees, at the 2 s ticks.
  bool keepalive_p99_gaps = true;
  Time keepalive = Time::seconds(60);
  int keepalive_slots = 18;
  Time cold_start = Time::seconds(8);              // models without their own (Torpor Table 1)
  // Compute resident runs and loads no other load contends with in closed form (swap_executor.h);
  // false: every copy and kernel goes through the platform (the reference for the tests).
  bool closed_form = true;
  // Record every pool change per GPU and every model load (ServerlessNode::pool_samples,
  // load_samples), for trace.json and the report's timeline (timeline.csv).
  bool record_timeline = false;
  // Keep every request's full record (ServerlessNode::requests), for trace.json and the tests;
  // otherwise a node keeps full records only while requests are live, and a 24-byte outcome per
  // request for the summary (docs/serverless.md "Scale").
  bool record_requests = false;
};

}  // namespace parallax
