// File: sim/platform/pairwise_collective.h
// Point-to-point collectives on SimPlatform, in steps: at step k every rank i sends to rank
// (i + offset_k) mod P. All-to-all is the pairwise exchange, P − 1 steps of offsets 1 … P − 1, each
// moving floor(S / P) bytes (nccl-tests' S: what one rank sends, its own share included); send/recv
// is one step of offset 1 moving S (each rank sends S to the next and receives S from the previous,
// nccl-tests' sendrecv). Step k starts when every send of step k − 1 is done (bulk-synchronous).
// NCCL posts an all-to-all's sends at once, spread over its channels; steps keep P flows in flight
// instead of P(P − 1), and with equal, uncontended hops of latency α and bandwidth B take
// (P − 1)(α + S/(P·B)), REFERENCE.md §2.1's direct exchange. The barrier is what keeps 8,192 GPUs
// affordable: the P sends of a step start together, so the solver sees a few distinct finishes per
// step (one per kind of route) instead of one per copy (without it, ranks drift apart and at 256
// GPUs every copy cost a re-solve: 80 µs each, against ~1 µs here).
#pragma once

#include <vector>

#include "sim/platform/flow_collective.h"

namespace parallax {

class PairwiseCollective final : public FlowCollective {
 public:
  // op: all_to_all or send_recv.
  PairwiseCollective(SimPlatform& platform, CollectiveOp op, std::vector<GpuId> group, Bytes bytes,
                     CompletionListener& listener, uint64_t tag, ActivityId id);
  void start() override;
  void on_complete(uint64_t rank) override;

  int steps() const { return steps_; }

 private:
  const char* step_label() const override { return "p2p step"; }
  size_t peer(size_t i, int step) const;  // the rank i sends to at `step` (0-based)
  void start_step();

  int steps_ = 0;
  int step_ = 0;
  double step_bytes_ = 0;
  size_t in_step_ = 0;  // sends of the current step not yet done
};

}  // namespace parallax
