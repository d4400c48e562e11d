// File: sim/platform/tree_collective.h
// A pipelined tree on SimPlatform: the buffer is cut into C chunks, and each edge of the tree
// carries them one after another. Reduce sends every chunk up (child → parent) once the child has
// its children's part of that chunk; broadcast sends it down (parent → child) once the parent has
// it; all-reduce does both, the root turning chunk c around as soon as it has reduced it. A chain
// is the tree where every rank has one child: NCCL's ring broadcast and reduce, and its tree
// inside a node.
//
// With equal, uncontended hops of time t per chunk, a chain of P ranks broadcasts or reduces in
// (C + P − 2)·t and all-reduces (up then down the chain) in (C + 2P − 3)·t.
#pragma once

#include <vector>

#include "sim/platform/flow_collective.h"

namespace parallax {

class TreeCollective final : public FlowCollective {
 public:
  // parent[r]: the rank (index into group) rank r sends up to; -1 for the root (exactly one).
  // op: all_reduce, broadcast (from the root) or reduce (to the root).
  TreeCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group, Bytes bytes,
                 std::vector<int> parent, CompletionListener& listener, uint64_t tag, ActivityId id);
  void start() override;
  void on_complete(uint64_t edge) override;

  int chunks() const { return chunks_; }

  // Chunks of a pipelined tree: one per 512 KiB, 1 to 64 [assumption: NCCL's Simple protocol
  // moves a 4 MiB buffer in 8 steps of 512 KiB].
  static int chunk_count(Bytes bytes);
  // The chain group[0] ← group[1] ← … (root group[0]).
  static std::vector<int> chain(size_t ranks);
  // NCCL's tree: a chain inside each node (its first member leads), and the nodes' leaders in a
  // binary tree in order of appearance (leader j under leader (j − 1) / 2). box_gpus: GPUs per
  // node (hardware_spec.h: GPU g is on node g / box_gpus).
  static std::vector<int> nccl_tree(const std::vector<GpuId>& group, int box_gpus);

 private:
  const char* step_label() const override { return "tree step"; }
  bool up() const { return op_ != CollectiveOp::broadcast; }
  bool down() const { return op_ != CollectiveOp::reduce; }
  bool has_chunk(int rank, int c) const;  // the data of chunk c to send down is at rank
  void try_up(int r);
  void try_down(int r);
  void edge_done();

  std::vector<int> parent_;
  std::vector<std::vector<int>> children_;
  int root_ = 0;
  int chunks_ = 1;
  double chunk_bytes_ = 0;
  std::vector<int> up_done_, down_done_;       // per rank: chunks its edge to/from the parent finished
  std::vector<char> up_busy_, down_busy_;
  size_t edges_left_ = 0;                       // edge-phases with chunks still to move
};

}  // namespace parallax
