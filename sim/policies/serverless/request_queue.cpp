// File: sim/policies/serverless/request_queue.cpp
#include "sim/policies/serverless/request_queue.h"

#include <algorithm>
#include <cmath>

namespace parallax {

RequestQueue::RequestQueue(QueueKind kind, int functions, double percentile)
    : kind_(kind), p_(percentile), stats_(static_cast<size_t>(functions)), high_(static_cast<size_t>(functions), true) {}

void RequestQueue::push(uint32_t request, uint32_t function, uint64_t sequence) {
  if (request >= function_of_.size()) {
    function_of_.resize(request + 1);
    sequence_of_.resize(request + 1);
    class_at_push_.resize(request + 1);
  }
  function_of_[request] = function;
  sequence_of_[request] = sequence;
  class_at_push_[request] = class_of(function);
  order_.insert({class_at_push_[request], sequence, request});
}

void RequestQueue::erase(uint32_t request) {
  order_.erase({class_at_push_[request], sequence_of_[request], request});
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

void RequestQueue::resort() {
  if (kind_ != QueueKind::rrc) return;
  std::vector<std::pair<double, uint32_t>> ranked;
  int compliant = 0;
  for (uint32_t f = 0; f < stats_.size(); ++f) {
    const Stats& s = stats_[f];
    if (s.n == 0) continue;
    ranked.push_back({s.latency_sum_s / static_cast<double>(s.n) * rrc(f), f});
    compliant += static_cast<double>(s.m) >= p_ * static_cast<double>(s.n) ? 1 : 0;
  }
  if (++resorts_ % 20 == 0 && !ranked.empty()) {
    const double fraction = compliant / static_cast<double>(ranked.size());
    if (last_compliant_ >= 0) {
      if (fraction - last_compliant_ >= 0.04) {
        alpha_ = std::min(1.0, 2 * alpha_);
      } else if (last_compliant_ - fraction > 0.04) {
        alpha_ /= 2;
      } else {
        alpha_ = std::min(1.0, 1.01 * alpha_);
      }
    }
    last_compliant_ = fraction;
  }
  std::sort(ranked.begin(), ranked.end());
  const auto high_count = static_cast<size_t>(std::ceil(alpha_ * static_cast<double>(ranked.size())));
  std::fill(high_.begin(), high_.end(), true);  // functions without history stay high
  for (size_t i = high_count; i < ranked.size(); ++i) high_[ranked[i].second] = false;
  std::set<Key> rebuilt;
  for (const Key& k : order_) {
    const uint32_t r = std::get<2>(k);
    class_at_push_[r] = class_of(function_of_[r]);
    rebuilt.insert({class_at_push_[r], sequence_of_[r], r});
  }
  order_.swap(rebuilt);
}

}  // namespace parallax
