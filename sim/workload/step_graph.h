// File: sim/workload/step_graph.h
// One training step (or any multi-rank program) as a dependency graph of per-rank tasks: the
// common form of a step built from a training config (sim/policies/training), of a Chakra
// execution trace read from disk (sim/workload/chakra_*) and of an overlap strategy's schedule
// (sim/policies/overlap), run on any Platform by one runner (sim/policies/step_graph).
//
// A rank is one GPU of the run (rank r runs on GPU `gpu_of_rank[r]`). A task starts when all its
// dependencies have finished:
//   compute     a kernel on the rank's GPU, by work (flops, dram_bytes) or by time (solo_s), on
//               the GPU's main pool or, `on_comm_partition`, on the rank's communication
//               partition (StepGraph::comm_sms SMs: a communication kernel's own SMs);
//   collective  one collective over `group` (ranks, in ring order): a single task standing for
//               the per-rank nodes of every member (a Chakra reader merges them; a writer splits it);
//               it depends on what each member's node depended on;
//   send        a point-to-point copy of `bytes` from `rank` to `peer` (Chakra's COMM_SEND with
//               its matching COMM_RECV on the peer);
//   delay       a fixed wait on `rank` (host-side work, a recorded duration with nothing to re-time);
//   copies      GPU->GPU copies all issued at once, each over a chosen path (one lock-step ring
//               step: a copy per hop); it finishes when the last one does;
//   join        no work: finishes the moment it starts, so that n tasks waiting on m others take
//               n + m deps rather than n·m (a barrier of an overlap schedule).
// Plain data: no engine, no platform state. Indices in `deps` point to earlier tasks (a DAG in
// topological order), which the runner and the Chakra reader check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/platform/platform.h"

namespace parallax {

// One copy of a copies task: `bytes` from `rank`'s GPU to `peer`'s over Platform::paths(src,
// dst)[path] (0: the platform's own route, Platform::copy).
struct StepCopy {
  int rank = 0;
  int peer = 0;
  double bytes = 0;
  int path = 0;
};

struct StepTask {
  enum class Kind : uint8_t { compute, collective, send, delay, copies, join };
  Kind kind = Kind::compute;
  std::string label;             // "stage1.mb3.layer7.fwd.qkv", a Chakra node's name
  int rank = 0;                  // compute, send, delay: the rank that runs it
  KernelProfile kernel;          // compute
  bool on_comm_partition = false;  // compute: on the rank's comm partition (needs comm_sms > 0)
  CollectiveOp op = CollectiveOp::all_reduce;  // collective
  std::vector<int> group;        // collective: member ranks in ring order
  int peer = -1;                 // send: the receiving rank
  double bytes = 0;              // collective: nccl-tests' S (Platform::collective); send: payload
  double delay_s = 0;            // delay
  std::vector<StepCopy> copies;  // copies
  std::vector<uint32_t> deps;    // indices of earlier tasks
};

struct StepGraph {
  int ranks = 0;
  std::vector<int> gpu_of_rank;  // empty: rank r on GPU r
  // > 0: the runner reserves a partition of that many SMs on every rank's GPU when it starts
  // (in rank order), taken from the pool the other compute tasks run on; the partition is not
  // given back (a CudaPlatform run gets a fresh platform).
  int comm_sms = 0;
  std::vector<StepTask> tasks;
};

}  // namespace parallax
