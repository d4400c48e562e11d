// File: sim/policies/serverless/serverless_cluster.h
// Several GPU servers (ServerlessNode, one per node, each on its own Platform driven by one shared
// clock) behind a cluster router (Torpor §4.1: the cluster manager routes requests to nodes). The
// router sends each arrival, when it arrives, to:
//   1. among the nodes that hold (or are loading) the function's model, the one with the fewest
//      outstanding requests (queued + running), unless that is more than `spill` above the
//      least-loaded node's count; then
//   2. the least-loaded node (which will swap the model in).
// Ties go to the lowest node index. `spill` defaults to the GPUs of a node: a holder is preferred
// while its backlog is within one round of its GPUs of the emptiest node's. Arrivals come from an
// ArrivalFeed in time order, one pending event at a time, so a long trace is never held whole.
// The router keeps its own table, updated by the nodes as it changes (NodeWatcher): every node's
// load in one array and, per function, a bit per node that holds it; a route reads those instead of
// asking every node (docs/performance.md "Serverless at scale").
//
//   ServerlessCluster cluster(clock, nodes);
//   cluster.start(feed);  engine.run();
//   summarise_serverless(cluster.nodes());
#pragma once

#include <cstdint>
#include <vector>

#include "sim/platform/platform.h"
#include "sim/policies/serverless/serverless_node.h"

namespace parallax {

class ArrivalFeed {
 public:
  virtual bool next(ServerlessArrival& out) = 0;  // false when no arrival is left

 protected:
  ~ArrivalFeed() = default;
};

// A feed over arrivals already in memory, sorted by time.
class VectorArrivalFeed final : public ArrivalFeed {
 public:
  explicit VectorArrivalFeed(std::span<const ServerlessArrival> arrivals) : arrivals_(arrivals) {}
  bool next(ServerlessArrival& out) override {
    if (next_ >= arrivals_.size()) return false;
    out = arrivals_[next_++];
    return true;
  }

 private:
  std::span<const ServerlessArrival> arrivals_;
  size_t next_ = 0;
};

class ServerlessCluster final : public CompletionListener, public NodeWatcher {
 public:
  // `clock`: any platform on the shared engine (timers only). Nodes are not owned.
  ServerlessCluster(Platform& clock, std::vector<ServerlessNode*> nodes, uint64_t spill);
  void start(ArrivalFeed& feed);
  // The node the router picks for `function` now.
  size_t route(uint32_t function) const;
  const std::vector<const ServerlessNode*>& nodes() const { return const_nodes_; }
  uint64_t routed(size_t node) const { return routed_[node]; }
  void on_complete(uint64_t tag) override;
  void load_changed(size_t node, uint64_t outstanding) override { rank_[node] = outstanding << shift_ | node; }
  void holds_changed(size_t node, uint32_t function, bool holds) override;

 private:
  Platform& clock_;
  std::vector<ServerlessNode*> nodes_;
  std::vector<const ServerlessNode*> const_nodes_;
  std::vector<uint64_t> routed_;
  // Per node, outstanding() << shift_ | index: the smallest is the least loaded, ties to the
  // lowest index, found without a branch per node.
  std::vector<uint64_t> rank_;
  int shift_ = 0;
  // Per function, `words_` 64-bit words whose bit n says node n holds it: one bit a (function,
  // node), where each node already keeps hundreds of bytes a function.
  std::vector<uint64_t> held_;
  size_t words_ = 0;
  uint64_t spill_;
  ArrivalFeed* feed_ = nullptr;
  ServerlessArrival pending_;
  bool has_pending_ = false;
};

}  // namespace parallax
