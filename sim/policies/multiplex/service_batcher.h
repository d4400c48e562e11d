// File: sim/policies/multiplex/service_batcher.h
// One inference service's request queue and its batching rule. Pure logic over Time, no engine:
// the caller pushes arrivals, asks when the next batch is due, and takes it when the service is
// free. Latency estimates come from the caller (the kernel model on the service's current share).
//
// Rule (docs/multiplex.md §batching). With queue length q, oldest arrival a0, timeout τ, SLO L and
// the estimate lat(n) of one batch of n:
//   cap        = max(1, largest n <= max_batch with lat(n) <= L)    (SLO-aware batch size)
//   due time   = a0                           if q >= cap           (a full batch waits for nobody)
//              = min(a0 + τ, a0 + L − lat(q)) otherwise             (timeout, or the last moment the
//                                                                    oldest request can still make
//                                                                    its SLO), never before a0
//   take(now)  = the min(q, cap) oldest requests, FIFO.
//
//   ServiceBatcher b({/*max_batch=*/4, Time::seconds(1e-3), Time::seconds(10e-3)});
//   b.push(t0); b.push(t0);  b.due(lat) == t0 + 1 ms  (2 < cap, timeout first)
//   b.push(t0); b.push(t0);  b.due(lat) == t0          (full)
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

struct BatcherConfig {
  int max_batch = 1;
  Time timeout;  // longest a request waits for others to join it
  Time slo;      // per-request latency target (arrival to batch end)
};

// lat(n): estimated seconds one batch of n takes on the service's current share.
using BatchLatencyEstimate = std::function<double(int)>;

class ServiceBatcher {
 public:
  explicit ServiceBatcher(BatcherConfig config);

  void push(Time arrival);
  size_t queued() const { return queue_.size(); }
  // The SLO-aware cap on the batch size (see the rule above).
  int cap(const BatchLatencyEstimate& lat) const;
  // When the next batch should start; nullopt if the queue is empty.
  std::optional<Time> due(const BatchLatencyEstimate& lat) const;
  // Removes and returns the arrival times of the next batch (min(queued, cap) oldest).
  std::vector<Time> take(const BatchLatencyEstimate& lat);
  const BatcherConfig& config() const { return config_; }

 private:
  BatcherConfig config_;
  std::deque<Time> queue_;
};

}  // namespace parallax
