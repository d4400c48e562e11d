// File: sim/platform/flow_collective.h
// What every collective schedule on SimPlatform shares: it is started once, issues its copies
// through SimPlatform::copy_step (as a CompletionListener for them), and calls finish() exactly
// once when its last copy is done (finish() destroys it). A schedule may also run others as its
// phases (HierarchicalCollective): those are children, with no ActivityId of their own, that
// report to their parent instead of the caller.
//
// The schedules, each in its own file: ring_collective.h (ring all-reduce, all-gather,
// reduce-scatter), tree_collective.h (pipelined trees and chains: tree all-reduce, broadcast,
// reduce), pairwise_collective.h (all-to-all, send/recv), hierarchical_collective.h (NCCL's
// multi-node all-reduce, all-gather, reduce-scatter).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/platform/sim_platform.h"

namespace parallax {

class FlowCollective : public CompletionListener {
 public:
  FlowCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group, Bytes bytes,
                 CompletionListener& listener, uint64_t tag, ActivityId id)
      : platform_(platform), op_(op), group_(std::move(group)), bytes_(bytes), listener_(listener), tag_(tag), id_(id) {}
  virtual ~FlowCollective() = default;
  virtual void start() = 0;

  ActivityId id() const { return id_; }  // a child carries its parent's id (its copies' records name it)
  bool child() const { return child_; }
  void make_child() { child_ = true; }
  CollectiveOp op() const { return op_; }
  const std::vector<GpuId>& group() const { return group_; }
  Bytes bytes() const { return bytes_; }
  CompletionListener& listener() const { return listener_; }
  uint64_t tag() const { return tag_; }

 protected:
  void finish();  // destroys *this
  // One copy, tagged for on_complete; its record is labelled "ring step", "tree step" or "p2p step".
  // A schedule that repeats a hop keeps its route (SimPlatform::step_route) and issues on it.
  ActivityId issue(int src_gpu, int dst_gpu, double bytes, uint64_t tag);
  ActivityId issue(const SimPlatform::StepRoute& route, double bytes, uint64_t tag) {
    return platform_.copy_step(route, bytes, *this, tag, id_, step_label());
  }
  virtual const char* step_label() const = 0;

  SimPlatform& platform_;
  CollectiveOp op_;
  std::vector<GpuId> group_;
  Bytes bytes_;
  CompletionListener& listener_;
  uint64_t tag_;
  ActivityId id_;
  bool child_ = false;
};

}  // namespace parallax
