// File: sim/policies/multiplex/service_batcher.cpp
#include "sim/policies/multiplex/service_batcher.h"

#include <algorithm>
#include <stdexcept>

namespace parallax {

ServiceBatcher::ServiceBatcher(BatcherConfig config) : config_(config) {
  if (config_.max_batch < 1) throw std::invalid_argument("batcher: max_batch must be >= 1");
  if (config_.timeout < Time::zero()) throw std::invalid_argument("batcher: timeout must be >= 0");
}

void ServiceBatcher::push(Time arrival) {
  if (!queue_.empty() && arrival < queue_.back()) throw std::invalid_argument("batcher: arrivals out of order");
  queue_.push_back(arrival);
}

int ServiceBatcher::cap(const BatchLatencyEstimate& lat) const {
  const double slo_s = config_.slo.to_seconds();
  int best = 1;
  for (int n = 1; n <= config_.max_batch; ++n)
    if (lat(n) <= slo_s) best = n;
  return best;
}

std::optional<Time> ServiceBatcher::due(const BatchLatencyEstimate& lat) const {
  if (queue_.empty()) return std::nullopt;
  const Time oldest = queue_.front();
  const int c = cap(lat);
  if (static_cast<int>(queue_.size()) >= c) return oldest;
  const int q = static_cast<int>(queue_.size());
  const Time slack_end = oldest + config_.slo - Time::seconds(lat(q));
  return std::max(oldest, std::min(oldest + config_.timeout, slack_end));
}

std::vector<Time> ServiceBatcher::take(const BatchLatencyEstimate& lat) {
  const size_t n = std::min(queue_.size(), static_cast<size_t>(cap(lat)));
  std::vector<Time> out(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
  return out;
}

}  // namespace parallax
