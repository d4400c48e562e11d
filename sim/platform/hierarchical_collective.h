// File: sim/platform/hierarchical_collective.h
// NCCL's multi-node schedule on SimPlatform, in phases of ring collectives (ring_collective.h):
//   all_reduce:     reduce-scatter inside each node (S), all-reduce across nodes per rail (S/G),
//                   all-gather inside each node (S);
//   all_gather:     all-gather across nodes per rail (S/G), then inside each node (S);
//   reduce_scatter: reduce-scatter inside each node (S), then across nodes per rail (S/G).
// G is the group's members per node; rail k is the k-th member (in group order) of every node,
// and its ring visits the nodes in the order they first appear in the group. Every node must hold
// the same number of members. A phase starts when the whole previous phase is done (NCCL overlaps
// them chunk by chunk; this costs at most one phase's latency). With uncontended hops this is
// REFERENCE.md §2.1's hierarchical form: (G−1)(α_intra + (S/G)/β_intra) per intra-node phase and
// 2(N−1)(α_net + (S/(G·N))/β_net) for the inter-node all-reduce.
#pragma once

#include <vector>

#include "sim/platform/flow_collective.h"

namespace parallax {

class HierarchicalCollective final : public FlowCollective {
 public:
  // op: all_reduce, all_gather or reduce_scatter; box_gpus: GPUs per node. Throws PlatformError
  // when the nodes hold different numbers of members.
  HierarchicalCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group, Bytes bytes,
                         int box_gpus, CompletionListener& listener, uint64_t tag, ActivityId id);
  void start() override;
  void on_complete(uint64_t phase) override;

  struct Ring {
    CollectiveOp op;
    std::vector<GpuId> group;
    Bytes bytes;
  };
  const std::vector<std::vector<Ring>>& phases() const { return phases_; }

 private:
  const char* step_label() const override { return "ring step"; }
  void start_phase();

  std::vector<std::vector<Ring>> phases_;
  size_t phase_ = 0;
  size_t running_ = 0;
};

}  // namespace parallax
