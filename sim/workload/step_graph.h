// File: sim/workload/step_graph.h
// One training step (or any multi-rank program) as a dependency graph of per-rank tasks: the
// common form of a step built from a training config (sim/workload/training_*) and of a Chakra
// execution trace read from disk (sim/workload/chakra_*), run on any Platform by one runner.
//
// A rank is one GPU of the run (rank r runs on GPU `gpu_of_rank[r]`). A task starts when all its
// dependencies have finished:
//   compute     a kernel on the rank's GPU, by work (flops, dram_bytes) or by time (solo_s);
//   collective  one collective over `group` (ranks, in ring order): a single task standing for
//               the per-rank nodes of every member (a Chakra reader merges them; a writer splits it);
//               it depends on what each member's node depended on;
//   send        a point-to-point copy of `bytes` from `rank` to `peer` (Chakra's COMM_SEND with
//               its matching COMM_RECV on the peer);
//   delay       a fixed wait on `rank` (host-side work, a recorded duration with nothing to re-time).
// Plain data: no engine, no platform state. Indices in `deps` point to earlier tasks (a DAG in
// topological order), which the runner and the Chakra reader check.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/platform/platform.h"

namespace parallax {

struct StepTask {
  enum class Kind : uint8_t { compute, collective, send, delay };
  Kind kind = Kind::compute;
  std::string label;             // "stage1.mb3.layer7.fwd.qkv", a Chakra node's name
  int rank = 0;                  // compute, send, delay: the rank that runs it
  KernelProfile kernel;          // compute
  CollectiveOp op = CollectiveOp::all_reduce;  // collective
  std::vector<int> group;        // collective: member ranks in ring order
  int peer = -1;                 // send: the receiving rank
  double bytes = 0;              // collective: nccl-tests' S (Platform::collective); send: payload
  double delay_s = 0;            // delay
  std::vector<uint32_t> deps;    // indices of earlier tasks
};

struct StepGraph {
  int ranks = 0;
  std::vector<int> gpu_of_rank;  // empty: rank r on GPU r
  std::vector<StepTask> tasks;
};

}  // namespace parallax
