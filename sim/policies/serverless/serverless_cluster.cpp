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
  const size_t functions = nodes_.front()->functions().size();
  words_ = (nodes_.size() + 63) / 64;
  held_.assign(functions * words_, 0);
  shift_ = static_cast<int>(std::bit_width(nodes_.size()));
  rank_.resize(nodes_.size());
  for (size_t n = 0; n < nodes_.size(); ++n) {
    load_changed(n, nodes_[n]->outstanding());
    for (uint32_t f = 0; f < functions; ++f)
      if (nodes_[n]->holds(f)) holds_changed(n, f, true);
    nodes_[n]->watch(this, n);
  }
}

void ServerlessCluster::holds_changed(size_t node, uint32_t function, bool holds) {
  uint64_t& word = held_[function * words_ + node / 64];
  const uint64_t bit = uint64_t{1} << (node % 64);
  word = holds ? word | bit : word & ~bit;
}

// Least loaded first, ties to the lowest index, among every node and among the holders.
size_t ServerlessCluster::route(uint32_t function) const {
  uint64_t least = UINT64_MAX, holder = UINT64_MAX;
  for (uint64_t r : rank_) least = std::min(least, r);
  for (size_t w = 0; w < words_; ++w)
    for (uint64_t bits = held_[function * words_ + w]; bits != 0; bits &= bits - 1)
      holder = std::min(holder, rank_[w * 64 + static_cast<size_t>(std::countr_zero(bits))]);
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
