// File: sim/policies/serverless/request_queue.cpp
#include "sim/policies/serverless/request_queue.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace parallax {

RequestQueue::RequestQueue(QueueKind kind, int functions, double percentile)
    : kind_(kind),
      p_(percentile),
      stats_(static_cast<size_t>(functions)),
      high_(static_cast<size_t>(functions), true),
      per_function_(static_cast<size_t>(functions)) {}

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
  }
  function_of_[request] = function;
  sequence_of_[request] = sequence;
  key_at_push_[request] = key_of(request);
  insert(key_at_push_[request]);
  ++size_;
}

void RequestQueue::insert(const Key& key) {
  std::set<Key>& own = per_function_[function_of_[key.request]];
  const auto at = own.insert(key).first;
  if (at != own.begin()) return;
  if (std::next(at) != own.end()) heads_.erase(*std::next(at));
  heads_.insert(key);
}

void RequestQueue::erase(uint32_t request) {
  std::set<Key>& own = per_function_[function_of_[request]];
  const auto at = own.find(key_at_push_[request]);
  if (at == own.end()) return;
  if (at == own.begin()) {
    heads_.erase(*at);
    if (std::next(at) != own.end()) heads_.insert(*std::next(at));
  }
  own.erase(at);
  --size_;
}

const RequestQueue::Key* RequestQueue::next_of(uint32_t function, const Key& after) const {
  const std::set<Key>& own = per_function_[function];
  const auto at = own.upper_bound(after);
  return at == own.end() ? nullptr : &*at;
}

std::vector<uint32_t> RequestQueue::dispatch_order() const {
  std::vector<Key> all;
  all.reserve(size_);
  for (const std::set<Key>& own : per_function_) all.insert(all.end(), own.begin(), own.end());
  std::sort(all.begin(), all.end());
  std::vector<uint32_t> out;
  out.reserve(all.size());
  for (const Key& k : all) out.push_back(k.request);
  return out;
}

void RequestQueue::record(uint32_t function, double latency_s, bool met_deadline) {
  Stats& s = stats_[function];
  ++s.n;
  s.m += met_deadline ? 1 : 0;
  s.latency_sum_s += latency_s;
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
  int with_history = 0, meeting = 0;
  for (const Stats& s : stats_) {
    if (s.n == 0) continue;
    ++with_history;
    meeting += static_cast<double>(s.m) >= p_ * static_cast<double>(s.n) ? 1 : 0;
  }
  if (with_history == 0) return;
  resorts_ = 0;
  const double ratio = meeting / static_cast<double>(with_history);
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

void RequestQueue::resort() {
  if (kind_ != QueueKind::rrc) return;
  // Functions with L * RRC <= 0 rank before every positive one and add nothing to the running
  // sum, so they are high whatever alpha is: only the positive ones need sorting.
  ranked_.clear();  // (L * RRC, function)
  double positive_sum = 0;
  for (uint32_t f = 0; f < stats_.size(); ++f) {
    if (stats_[f].n == 0) continue;
    const double count = metric(f) / (1 - p_);
    if (count > 0) {
      ranked_.push_back({count, f});
      positive_sum += count;
    } else {
      high_[f] = true;
    }
  }
  std::sort(ranked_.begin(), ranked_.end());  // ties by function index: deterministic
  const double threshold = alpha_ * positive_sum;
  double running = 0;
  bool over = false;
  for (const auto& [count, f] : ranked_) {
    if (!over) {
      running += count;
      over = running > threshold;
    }
    high_[f] = !over;
  }
  // Every queued request takes its function's new key: one class and score per function, so a
  // function's order becomes its arrival order (high) or the reverse (low).
  heads_.clear();
  for (std::set<Key>& own : per_function_) {
    if (own.empty()) continue;
    std::set<Key> rebuilt;
    for (const Key& k : own) {
      key_at_push_[k.request] = key_of(k.request);
      rebuilt.insert(key_at_push_[k.request]);
    }
    own.swap(rebuilt);
    heads_.insert(*own.begin());
  }
  adapt_alpha();
}

}  // namespace parallax
