// File: sim/policies/serverless/request_queue.h
// The node's request queue. `fifo`: arrival order. `rrc` (Torpor §5.2, torpor:scripts/router.py
// sa_schedule): per function, n requests finished so far and m that met the deadline; the
// required request count RRC = (p*n - m)/(1 - p) says how far the function is from its P(p)
// target. Every resort (2 s) functions are ranked by avg_latency * RRC, smallest first; the first
// ceil(alpha * F) functions seen so far are high priority, the rest low. Requests are served high
// before low, in arrival order within a class. alpha starts at 0.5 and adapts every 20 resorts:
// if the fraction of functions meeting the target rose by >= 4 points, alpha = min(1, 2 alpha);
// if it fell by > 4 points, alpha /= 2; else alpha = min(1, 1.01 alpha). (Torpor's boundary is a
// cumulative threshold scaled by alpha; ours is a share of the functions: our reading.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

namespace parallax {

enum class QueueKind : uint8_t { fifo, rrc };

class RequestQueue {
 public:
  using Key = std::tuple<int, uint64_t, uint32_t>;  // (class, arrival sequence, request)

  RequestQueue(QueueKind kind, int functions, double percentile);
  void push(uint32_t request, uint32_t function, uint64_t sequence);
  void erase(uint32_t request);
  size_t size() const { return order_.size(); }
  bool empty() const { return order_.empty(); }
  const std::set<Key>& order() const { return order_; }  // dispatch order

  // A finished request of `function`.
  void record(uint32_t function, double latency_s, bool met_deadline);
  void resort();
  double rrc(uint32_t function) const;  // (p*n - m)/(1 - p)
  double alpha() const { return alpha_; }
  bool high_priority(uint32_t function) const { return high_[function]; }

 private:
  struct Stats {
    uint64_t n = 0, m = 0;
    double latency_sum_s = 0;
  };
  int class_of(uint32_t function) const { return kind_ == QueueKind::rrc && !high_[function] ? 1 : 0; }

  QueueKind kind_;
  double p_;
  std::vector<Stats> stats_;
  std::vector<bool> high_;
  std::vector<uint32_t> function_of_;  // per request
  std::vector<uint64_t> sequence_of_;  // per request
  std::vector<int> class_at_push_;     // per request
  std::set<Key> order_;
  double alpha_ = 0.5;
  double last_compliant_ = -1;
  int resorts_ = 0;
};

}  // namespace parallax
