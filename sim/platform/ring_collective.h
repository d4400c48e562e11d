// File: sim/platform/ring_collective.h
// A ring collective executed step by step on SimPlatform, as NCCL's ring does it: the group is
// a cycle g0 → g1 → … → g0, the buffer is cut into P chunks of floor(S/P) bytes, and each step
// every GPU sends one chunk to its successor. All-reduce is reduce-scatter then all-gather:
// 2(P−1) steps; all-gather and reduce-scatter are P−1 steps.
//
// There is no global barrier: GPU i's step-s send (hop i) starts as soon as GPU i has finished
// step s−1 (its own send and its receive from i−1) and GPU i+1 has finished step s−1 (it posts
// its receive). So hop i's step s waits for hops i−1, i and i+1 to finish step s−1 — exactly the
// schedule of the SimGrid anchor (../shared/anchors/simgrid/README.md, `ring`).
#pragma once

#include <vector>

#include "sim/platform/flow_collective.h"

namespace parallax {

class RingCollective final : public FlowCollective {
 public:
  // op: all_reduce, all_gather or reduce_scatter.
  RingCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group, Bytes bytes,
                 CompletionListener& listener, uint64_t tag, ActivityId id);
  void start() override;
  void on_complete(uint64_t hop) override;

  int steps() const { return steps_; }

 private:
  const char* step_label() const override { return "ring step"; }
  // Issues hop h's next step if it may run (defined here: three calls per finished copy).
  void try_start(size_t h) {
    if (in_flight_[h] || done_[h] >= steps_) return;
    const int s = done_[h];  // the step hop h would run next
    if (gpu_steps(h) < s || gpu_steps(next(h)) < s) return;
    in_flight_[h] = 1;
    issue(hops_[h], chunk_bytes_, h);
  }
  size_t prev(size_t h) const { return h == 0 ? group_.size() - 1 : h - 1; }
  size_t next(size_t h) const { return h + 1 == group_.size() ? 0 : h + 1; }
  // Steps GPU i has completed: both its send (hop i) and its receive (hop i-1).
  int gpu_steps(size_t i) const { return std::min(done_[i], done_[prev(i)]); }

  int steps_ = 0;
  double chunk_bytes_ = 0;
  std::vector<SimPlatform::StepRoute> hops_;  // hop h: group_[h] -> group_[next(h)], every step
  std::vector<int> done_;        // per hop: transfers finished
  std::vector<char> in_flight_;  // per hop
  size_t hops_finished_ = 0;
};

}  // namespace parallax
