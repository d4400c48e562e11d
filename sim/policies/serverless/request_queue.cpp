// File: sim/policies/serverless/request_queue.cpp
#include "sim/policies/serverless/request_queue.h"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <utility>

namespace parallax {

RequestQueue::RequestQueue(QueueKind kind, int functions, double percentile)
    : kind_(kind),
      p_(percentile),
      stats_(static_cast<size_t>(functions)),
      high_(static_cast<size_t>(functions), true),
      heads_(PoolAllocator<Key>(*key_nodes_)),
      recorded_since_resort_(static_cast<size_t>(functions), false),
      rekeyed_(static_cast<size_t>(functions), false),
      positive_count_(static_cast<size_t>(functions), 0.0) {
  per_function_.reserve(static_cast<size_t>(functions));
  for (int f = 0; f < functions; ++f) per_function_.emplace_back(*key_nodes_, *sequence_nodes_);
}

RequestQueue::Key RequestQueue::key_of(uint32_t request) const {
  const auto sequence = static_cast<int64_t>(sequence_of_[request]);
  if (kind_ != QueueKind::rrc) return {0, 0, sequence, request};
  const uint32_t f = function_of_[request];
  const double m = metric(f);
  return high_[f] ? Key{0, -m, sequence, request} : Key{1, m, -sequence, request};
}

void RequestQueue::push(uint32_t request, uint32_t function, uint64_t sequence) {
  if (request >= function_of_.size()) {
    const size_t grown = std::max<size_t>(request + 1, function_of_.size() * 2);
    function_of_.resize(grown);
    sequence_of_.resize(grown);
    key_at_push_.resize(grown);
    settled_.resize(grown);
    queued_.resize(grown);
  }
  function_of_[request] = function;
  sequence_of_[request] = sequence;
  queued_[request] = true;
  if (kind_ == QueueKind::fifo) {
    fifo_push(per_function_[function], sequence, request);
  } else {
    key_at_push_[request] = key_of(request);
    settled_[request] = false;
    per_function_[function].fresh.insert(key_at_push_[request]);
  }
  ++size_;
  refresh_head(function);
}

void RequestQueue::erase(uint32_t request) {
  if (request >= queued_.size() || !queued_[request]) return;
  queued_[request] = false;
  const uint32_t f = function_of_[request];
  FunctionQueue& q = per_function_[f];
  if (kind_ == QueueKind::fifo) {
    fifo_erase(q);
  } else if (settled_[request]) {
    q.settled.erase(sequence_of_[request]);
  } else {
    q.fresh.erase(key_at_push_[request]);
  }
  --size_;
  refresh_head(f);
}

// Arrivals come in sequence order, so a push is an append; a request pushed late (keep-alive
// releases the ones that waited for a container) is put in its place.
void RequestQueue::fifo_push(FunctionQueue& q, uint64_t sequence, uint32_t request) {
  const auto first = q.arrived.begin() + static_cast<std::ptrdiff_t>(q.front);
  if (first == q.arrived.end() || q.arrived.back().first < sequence) {
    q.arrived.emplace_back(sequence, request);
    return;
  }
  const auto at = std::upper_bound(first, q.arrived.end(), sequence,
                                   [](uint64_t s, const std::pair<uint64_t, uint32_t>& e) { return s < e.first; });
  q.arrived.insert(at, {sequence, request});
}

// One of q's requests was just marked erased: drop the dead ones at the front, and compact when
// the dead outnumber the live or the dropped prefix is more than half the vector (amortised O(1)).
void RequestQueue::fifo_erase(FunctionQueue& q) {
  ++q.dead;
  while (q.front < q.arrived.size() && !live(q.arrived[q.front])) {
    ++q.front;
    --q.dead;
  }
  const size_t remaining = q.arrived.size() - q.front;
  if (q.dead * 2 <= remaining && q.front * 2 <= q.arrived.size()) return;
  size_t kept = 0;
  for (size_t i = q.front; i < q.arrived.size(); ++i)
    if (live(q.arrived[i])) q.arrived[kept++] = q.arrived[i];
  q.arrived.resize(kept);
  q.front = 0;
  q.dead = 0;
}

// The first live key of q past `after` (every fifo key is (0, 0, sequence, request)).
std::optional<RequestQueue::Key> RequestQueue::fifo_after(const FunctionQueue& q, const Key* after) const {
  auto it = q.arrived.begin() + static_cast<std::ptrdiff_t>(q.front);
  if (after != nullptr) {
    const auto mine = std::make_tuple(0, 0.0);
    const auto theirs = std::tie(after->priority_class, after->score);
    if (theirs > mine) return std::nullopt;
    if (theirs == mine && after->tie >= 0) {
      const auto tie = static_cast<uint64_t>(after->tie);
      it = std::lower_bound(it, q.arrived.end(), tie,
                            [](const std::pair<uint64_t, uint32_t>& e, uint64_t s) { return e.first < s; });
      while (it != q.arrived.end() && it->first == tie && it->second <= after->request) ++it;
    }
  }
  while (it != q.arrived.end() && !live(*it)) ++it;
  if (it == q.arrived.end()) return std::nullopt;
  return Key{0, 0, static_cast<int64_t>(it->first), it->second};
}

// The settled requests' keys are (class, score, tie, request) with tie = sequence (high) or
// -sequence (low): the first one past `after` is found by sequence.
std::optional<RequestQueue::Key> RequestQueue::settled_after(const FunctionQueue& q, const Key* after) const {
  if (q.settled.empty()) return std::nullopt;
  const bool ascending = q.priority_class == 0;
  const auto key = [&](SequenceMap::const_iterator it) {
    const auto seq = static_cast<int64_t>(it->first);
    return Key{q.priority_class, q.score, ascending ? seq : -seq, it->second};
  };
  const auto first = [&] { return key(ascending ? q.settled.begin() : std::prev(q.settled.end())); };
  if (after == nullptr) return first();
  if (std::tie(q.priority_class, q.score) != std::tie(after->priority_class, after->score)) {
    if (std::tie(q.priority_class, q.score) > std::tie(after->priority_class, after->score)) return first();
    return std::nullopt;
  }
  if (ascending) {
    auto it = q.settled.lower_bound(after->tie < 0 ? 0 : static_cast<uint64_t>(after->tie));
    if (it != q.settled.end() && key(it) <= *after) ++it;
    return it == q.settled.end() ? std::nullopt : std::optional<Key>(key(it));
  }
  // Descending sequence: the largest sequence whose key is past `after`.
  auto it = q.settled.upper_bound(after->tie > 0 ? 0 : static_cast<uint64_t>(-after->tie));
  while (it != q.settled.begin()) {
    --it;
    if (key(it) > *after) return key(it);
  }
  return std::nullopt;
}

std::optional<RequestQueue::Key> RequestQueue::next_of(uint32_t function, const Key* after) const {
  const FunctionQueue& q = per_function_[function];
  if (kind_ == QueueKind::fifo) return fifo_after(q, after);
  std::optional<Key> best;
  const auto it = after == nullptr ? q.fresh.begin() : q.fresh.upper_bound(*after);
  if (it != q.fresh.end()) best = *it;
  if (const std::optional<Key> s = settled_after(q, after); s && (!best || *s < *best)) best = s;
  return best;
}

void RequestQueue::refresh_head(uint32_t function) {
  FunctionQueue& q = per_function_[function];
  std::optional<Key> head = next_of(function, nullptr);
  if (head == q.head) return;  // a push behind the head: heads_ stays as it is
  if (q.head) heads_.erase(*q.head);
  q.head = head;
  if (q.head) heads_.insert(*q.head);
}

std::vector<uint32_t> RequestQueue::dispatch_order() const {
  std::vector<Key> all;
  all.reserve(size_);
  for (uint32_t f = 0; f < per_function_.size(); ++f)
    for (std::optional<Key> k = next_of(f, nullptr); k; k = next_of(f, &*k)) all.push_back(*k);
  std::sort(all.begin(), all.end());
  std::vector<uint32_t> out;
  out.reserve(all.size());
  for (const Key& k : all) out.push_back(k.request);
  return out;
}

void RequestQueue::record(uint32_t function, double latency_s, bool met_deadline) {
  Stats& s = stats_[function];
  const auto meets = [this](const Stats& x) { return static_cast<double>(x.m) >= p_ * static_cast<double>(x.n); };
  if (s.n == 0) {
    ++with_history_;
  } else if (meets(s)) {
    --meeting_;
  }
  ++s.n;
  s.m += met_deadline ? 1 : 0;
  s.latency_sum_s += latency_s;
  meeting_ += meets(s) ? 1 : 0;
  if (!recorded_since_resort_[function]) {
    recorded_since_resort_[function] = true;
    recorded_.push_back(function);
  }
}

double RequestQueue::rrc(uint32_t function) const {
  const Stats& s = stats_[function];
  return (p_ * static_cast<double>(s.n) - static_cast<double>(s.m)) / (1 - p_);
}

double RequestQueue::metric(uint32_t function) const {
  const Stats& s = stats_[function];
  if (s.n == 0) return 0;
  return s.latency_sum_s / static_cast<double>(s.n) * (p_ * static_cast<double>(s.n) - static_cast<double>(s.m));
}

void RequestQueue::adapt_alpha() {
  ++resorts_;  // counted even before any history, as the reference does
  if (resorts_ < 20) return;
  if (with_history_ == 0) return;
  resorts_ = 0;
  const double ratio = meeting_ / static_cast<double>(with_history_);
  constexpr double kThreshold = 0.04;
  const double change = reference_ratio_ > 0 ? (ratio - reference_ratio_) / reference_ratio_ : kThreshold;
  if (change >= kThreshold) {
    alpha_ = std::min(1.0, 2 * alpha_);
    reference_ratio_ = ratio;
  } else if (change < -kThreshold) {
    alpha_ /= 2;
    reference_ratio_ = ratio;
  } else {
    alpha_ = std::min(1.0, 1.01 * alpha_);
  }
}

// Costs what changed since the last resort, not the queued functions (docs/performance.md
// "Serverless overload": under overload every function has queued requests for as long as the
// backlog drains). A function's L * RRC changes only when one of its requests finishes (record),
// and its requests' keys change only when its L * RRC or its class does; the others keep their
// keys. The ranking is kept sorted between resorts and only the recorded functions move in it;
// the sums run over the positive values in the same order as a full scan (function order for the
// total, rank order for the running sum), so the classes are bit for bit those of a full resort.
void RequestQueue::resort() {
  if (kind_ != QueueKind::rrc) return;
  // Functions with L * RRC <= 0 rank before every positive one and add nothing to the running
  // sum, so they are high whatever alpha is: only the positive ones are ranked.
  rekey_.clear();
  if (!recorded_.empty()) {
    moved_.clear();
    for (uint32_t f : recorded_) {
      recorded_since_resort_[f] = false;
      rekeyed_[f] = true;
      rekey_.push_back(f);
      const double count = metric(f) / (1 - p_);
      positive_count_[f] = count > 0 ? count : 0;
      if (count > 0) moved_.push_back({count, f});
      else high_[f] = true;
    }
    recorded_.clear();
    // Drop the recorded functions' old places, then merge their new ones in.
    std::erase_if(ranked_, [&](const std::pair<double, uint32_t>& x) { return rekeyed_[x.second]; });
    std::erase_if(positive_ids_, [&](uint32_t f) { return rekeyed_[f]; });
    const auto ids = static_cast<std::ptrdiff_t>(positive_ids_.size());
    for (const auto& [count, f] : moved_) positive_ids_.push_back(f);
    std::sort(positive_ids_.begin() + ids, positive_ids_.end());
    std::inplace_merge(positive_ids_.begin(), positive_ids_.begin() + ids, positive_ids_.end());
    std::sort(moved_.begin(), moved_.end());  // ties by function index: deterministic
    const auto middle = static_cast<std::ptrdiff_t>(ranked_.size());
    ranked_.insert(ranked_.end(), moved_.begin(), moved_.end());
    std::inplace_merge(ranked_.begin(), ranked_.begin() + middle, ranked_.end());
  }
  double positive_sum = 0;
  for (uint32_t f : positive_ids_) positive_sum += positive_count_[f];  // function order
  const double threshold = alpha_ * positive_sum;
  double running = 0;
  bool over = false;
  for (const auto& [count, f] : ranked_) {
    if (!over) {
      running += count;
      over = running > threshold;
    }
    if (high_[f] == over) {  // its class flips
      high_[f] = !over;
      if (!in_rekey(f)) rekey_.push_back(f);
    }
  }
  // The re-keyed functions' queued requests take the new key: one class and score per function,
  // so they join the settled ones, ordered by sequence.
  for (uint32_t f : rekey_) {
    rekeyed_[f] = false;
    FunctionQueue& q = per_function_[f];
    if (q.settled.empty() && q.fresh.empty()) continue;
    for (const Key& k : q.fresh) {
      q.settled.emplace(sequence_of_[k.request], k.request);
      settled_[k.request] = true;
    }
    q.fresh.clear();
    const double m = metric(f);
    q.priority_class = high_[f] ? 0 : 1;
    q.score = high_[f] ? -m : m;
    refresh_head(f);
  }
  adapt_alpha();
}

// Whether `f` is already in rekey_ (marked on first call).
bool RequestQueue::in_rekey(uint32_t f) {
  if (rekeyed_[f]) return true;
  rekeyed_[f] = true;
  return false;
}

}  // namespace parallax
