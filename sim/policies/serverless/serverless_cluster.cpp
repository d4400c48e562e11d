// File: sim/policies/serverless/serverless_cluster.cpp
#include "sim/policies/serverless/serverless_cluster.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace parallax {

ServerlessCluster::ServerlessCluster(Platform& clock, std::vector<ServerlessNode*> nodes, uint64_t spill)
    : clock_(clock), nodes_(std::move(nodes)), routed_(nodes_.size(), 0), spill_(spill) {
  if (nodes_.empty()) throw std::invalid_argument("ServerlessCluster: no nodes");
  const_nodes_.assign(nodes_.begin(), nodes_.end());
  holders_.resize(nodes_.front()->functions().size());
  shift_ = static_cast<int>(std::bit_width(nodes_.size()));
  rank_.resize(nodes_.size());
  for (size_t n = 0; n < nodes_.size(); ++n) {
    load_changed(n, nodes_[n]->outstanding());
    for (uint32_t f = 0; f < holders_.size(); ++f)
      if (nodes_[n]->holds(f)) holders_[f].push_back(static_cast<uint32_t>(n));
    nodes_[n]->watch(this, n);
  }
}

void ServerlessCluster::holds_changed(size_t node, uint32_t function, bool holds) {
  std::vector<uint32_t>& h = holders_[function];
  if (holds) {
    h.push_back(static_cast<uint32_t>(node));
  } else {
    *std::find(h.begin(), h.end(), node) = h.back();
    h.pop_back();
  }
}

// Least loaded first, ties to the lowest index, among every node and among the holders.
size_t ServerlessCluster::route(uint32_t function) const {
  uint64_t least = UINT64_MAX, holder = UINT64_MAX;
  for (uint64_t r : rank_) least = std::min(least, r);
  for (uint32_t n : holders_[function]) holder = std::min(holder, rank_[n]);
  const uint64_t mask = (uint64_t{1} << shift_) - 1;
  if (holder != UINT64_MAX && (holder >> shift_) <= (least >> shift_) + spill_) return holder & mask;
  return least & mask;
}

void ServerlessCluster::start(ArrivalFeed& feed) {
  feed_ = &feed;
  has_pending_ = feed_->next(pending_);
  if (has_pending_) clock_.call_at(pending_.at, *this, 0);
}

void ServerlessCluster::on_complete(uint64_t) {
  const Time now = clock_.now();
  while (has_pending_ && pending_.at <= now) {
    const size_t n = route(pending_.function);
    ++routed_[n];
    nodes_[n]->submit(pending_.function);
    has_pending_ = feed_->next(pending_);
    if (has_pending_ && pending_.at < now) throw std::invalid_argument("ServerlessCluster: arrivals out of time order");
  }
  if (has_pending_) clock_.call_at(pending_.at, *this, 0);
}

}  // namespace parallax
