// File: sim/policies/serverless/request_queue.h
// The node's request queue. `fifo`: arrival order (Torpor's FIFO ablation). `rrc` (Torpor §5.2,
// REFERENCE.md §5.5, torpor:scripts/router.py sa_schedule), per function f with n finished
// requests, m of them within the deadline and mean latency L:
//   metric(f) = L * (p*n - m)      (0 before the first finish; RRC = (p*n - m)/(1 - p))
// Every resort (2 s) the functions with history are ranked by L * RRC, smallest first, and walked
// while the running sum of their positive values stays <= alpha * (sum of all positive values):
// those are high priority, the rest low; functions without history keep their class (high at
// the start). The high queue is served first, largest metric first (ties: arrival order); the low
// queue smallest metric first (ties: newest first, as the reference's binary insertion puts a
// request before its equals). A request's place uses its function's metric when it is pushed
// and again at every resort. alpha starts at 1 and adapts every 20 resorts on the fraction r of
// functions whose m/n >= p, relative to the last reference r0 (0 at first): d = (r - r0)/r0
// (d = 0.04 when r0 = 0); d >= 0.04: alpha = min(1, 2 alpha), r0 = r; d < -0.04: alpha /= 2,
// r0 = r; else alpha = min(1, 1.01 alpha).
//
// Worked example (p = 0.98): f0 (n 10, m 5, L 0.2 s) has L*RRC = 0.2*4.8/0.02 = 48; f1 (n 10,
// m 10, L 0.01 s) has 0.01*(-0.2)/0.02 = -0.1. With alpha = 1 both are high and f0's requests go first (larger
// metric); with alpha = 0.5 the threshold is 24 < 48, so f0 is low and f1's requests go first.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "sim/policies/serverless/node_pool.h"

namespace parallax {

enum class QueueKind : uint8_t { fifo, rrc };

class RequestQueue {
 public:
  struct Key {
    int priority_class = 0;  // 0 high, 1 low
    double score = 0;        // high: -metric, low: metric; fifo: 0
    int64_t tie = 0;         // high and fifo: arrival sequence; low: minus it
    uint32_t request = 0;
    auto operator<=>(const Key&) const = default;
  };
  // Ordered containers whose nodes come from the queue's pools (node_pool.h).
  using KeySet = std::set<Key, std::less<Key>, PoolAllocator<Key>>;
  using SequenceMap = std::map<uint64_t, uint32_t, std::less<uint64_t>, PoolAllocator<std::pair<const uint64_t, uint32_t>>>;

  RequestQueue(QueueKind kind, int functions, double percentile);
  RequestQueue(RequestQueue&&) = default;
  RequestQueue& operator=(RequestQueue&&) = delete;
  // `sequence` is unique per push (the node's arrival order): fifo tells a reused request id's
  // dead entry from its live one by it.
  void push(uint32_t request, uint32_t function, uint64_t sequence);
  void erase(uint32_t request);  // O(log n); fifo: amortised O(1)
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // The dispatch order is the merge of the functions' own orders. The queue keeps each function's
  // requests apart, with the first of each function in heads(), so that a dispatch under overload
  // looks at functions, not at every queued request (docs/performance.md "Serverless overload").
  // A resort gives all of a function's requests one class and score, so their order is their
  // sequence (high: ascending; low: descending): it re-keys functions, not requests, and costs
  // O(P log P + functions finished or queued + pushes since the last resort x log n), P the
  // functions with a positive L * RRC, instead of O(n log n).
  const KeySet& heads() const { return heads_; }
  // The function's first queued request after `after` in dispatch order (its first of all without
  // `after`), or nothing; O(log n).
  std::optional<Key> next_of(uint32_t function, const Key* after) const;
  uint32_t function_of(uint32_t request) const { return function_of_[request]; }
  // Every queued request in dispatch order (tests; O(n log n)).
  std::vector<uint32_t> dispatch_order() const;

  // A finished request of `function`.
  void record(uint32_t function, double latency_s, bool met_deadline);
  void resort();
  double rrc(uint32_t function) const;     // (p*n - m)/(1 - p)
  double metric(uint32_t function) const;  // L * (p*n - m)
  double alpha() const { return alpha_; }
  void set_alpha(double alpha) { alpha_ = alpha; }  // tests and ablations
  bool high_priority(uint32_t function) const { return high_[function]; }

 private:
  struct Stats {
    uint64_t n = 0, m = 0;
    double latency_sum_s = 0;
  };
  // One function's queued requests: those keyed at the last resort, which share one class and
  // score and so are ordered by their sequence, and those pushed since, each with its own key.
  // fifo: all of its keys are (0, 0, sequence, request), so its requests are kept in `arrived`,
  // ascending sequence, 16 B each where a set node takes 64 (docs/performance.md "Serverless
  // overload"). An erased request stays there, dead, until it reaches the front or until the dead
  // outnumber the live (then the vector is compacted): a dispatch may take a request past the head.
  struct FunctionQueue {
    FunctionQueue(NodePool& keys, NodePool& sequences)
        : settled(PoolAllocator<SequenceMap::value_type>(sequences)), fresh(PoolAllocator<Key>(keys)) {}
    SequenceMap settled;  // sequence -> request
    KeySet fresh;
    int priority_class = 0;  // of the settled ones
    double score = 0;
    std::optional<Key> head;  // its entry in heads_
    std::vector<std::pair<uint64_t, uint32_t>> arrived;  // fifo: (sequence, request)
    size_t front = 0;  // arrived[front] is live, or front == arrived.size()
    size_t dead = 0;   // erased entries past front
  };
  Key key_of(uint32_t request) const;
  bool live(const std::pair<uint64_t, uint32_t>& entry) const {
    return queued_[entry.second] && sequence_of_[entry.second] == entry.first;
  }
  void fifo_push(FunctionQueue& q, uint64_t sequence, uint32_t request);
  void fifo_erase(FunctionQueue& q);
  std::optional<Key> fifo_after(const FunctionQueue& q, const Key* after) const;
  std::optional<Key> settled_after(const FunctionQueue& q, const Key* after) const;
  void refresh_head(uint32_t function);
  void adapt_alpha();

  QueueKind kind_;
  double p_;
  std::vector<Stats> stats_;
  std::vector<bool> high_;
  std::vector<uint32_t> function_of_;  // per request
  std::vector<uint64_t> sequence_of_;  // per request
  std::vector<Key> key_at_push_;       // per request: its key among its function's fresh ones
  std::vector<bool> settled_;          // per request: among its function's settled ones
  std::vector<bool> queued_;           // per request: pushed and not erased
  // Before the containers that use them; on the heap, so that a moved queue's containers still
  // find them (a queue is move-constructed, never move-assigned).
  std::unique_ptr<NodePool> key_nodes_ = std::make_unique<NodePool>(), sequence_nodes_ = std::make_unique<NodePool>();
  std::vector<FunctionQueue> per_function_;
  KeySet heads_;                       // the first key of each function with queued requests
  size_t size_ = 0;
  // What a resort needs without scanning every queued function: the functions recorded since the
  // last one, the ranking of the positive L * RRC (kept sorted between resorts), each function's
  // positive L * RRC (0: not positive), the functions to re-key, and adapt_alpha's counts.
  std::vector<uint32_t> recorded_;
  std::vector<bool> recorded_since_resort_;
  std::vector<std::pair<double, uint32_t>> ranked_;  // (L * RRC, function), ascending
  std::vector<std::pair<double, uint32_t>> moved_;   // resort's scratch
  std::vector<uint32_t> rekey_;                      // resort's scratch
  std::vector<bool> rekeyed_;                        // per function: in rekey_
  std::vector<double> positive_count_;
  std::vector<uint32_t> positive_ids_;               // functions with a positive one, ascending
  bool in_rekey(uint32_t f);
  int with_history_ = 0, meeting_ = 0;
  double alpha_ = 1;
  double reference_ratio_ = 0;
  int resorts_ = 0;
};

}  // namespace parallax
