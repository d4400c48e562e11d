// File: sim/policies/serverless/serverless_cluster.cpp
#include "sim/policies/serverless/serverless_cluster.h"

#include <stdexcept>

namespace parallax {

ServerlessCluster::ServerlessCluster(Platform& clock, std::vector<ServerlessNode*> nodes, uint64_t spill)
    : clock_(clock), nodes_(std::move(nodes)), routed_(nodes_.size(), 0), spill_(spill) {
  if (nodes_.empty()) throw std::invalid_argument("ServerlessCluster: no nodes");
  const_nodes_.assign(nodes_.begin(), nodes_.end());
}

size_t ServerlessCluster::route(uint32_t function) const {
  size_t least = 0, holder = nodes_.size();
  for (size_t n = 0; n < nodes_.size(); ++n) {
    const uint64_t load = nodes_[n]->outstanding();
    if (load < nodes_[least]->outstanding()) least = n;
    if (nodes_[n]->holds(function) && (holder == nodes_.size() || load < nodes_[holder]->outstanding())) holder = n;
  }
  if (holder < nodes_.size() && nodes_[holder]->outstanding() <= nodes_[least]->outstanding() + spill_) return holder;
  return least;
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
