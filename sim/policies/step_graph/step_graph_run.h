// File: sim/policies/step_graph/step_graph_run.h
// The one task-graph runner: runs a StepGraph (sim/workload/step_graph.h) on any Platform — a
// training step, a Chakra trace's replay, an overlap strategy's schedule (SimPlatform) or a
// calibration trial (CudaPlatform). A task starts when all its dependencies have finished and
// finishes when the platform reports its activities done — a kernel on the rank's GPU, one
// collective over the group's GPUs, one GPU->GPU copy, a timer, a copies task's set of copies;
// a join finishes as it starts.
// Records every task's start and finish, from which step_summary() derives the fields the
// workload kinds that produce a StepGraph (training, chakra) report.
//
//   StepGraphRun run(platform, graph);   // borrows both: they must outlive the run
//   run.start();  engine.run();          // (SimPlatform: drive its engine until idle)
//   if (run.finished()) { StepSummary s = step_summary(graph, run); ... }
//
// Cost: O(tasks + deps + copies) bookkeeping beyond the platform's own work; one activity per
// task (a copies task: one per copy).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/platform/platform.h"
#include "sim/workload/step_graph.h"

namespace parallax {

class StepGraphRun final : public CompletionListener {
 public:
  // Checks the graph (deps point to earlier tasks, ranks and groups in range, a collective's
  // group of distinct ranks (one rank: it finishes at once, moving nothing), a send's or copy's
  // peer another rank, a copy's path >= 0, a comm-partition kernel only with comm_sms > 0) and
  // throws std::invalid_argument naming the task otherwise. `algo` is how every collective runs
  // (default_algo(op) where `algo` cannot run op).
  StepGraphRun(Platform& platform, const StepGraph& graph, CollectiveAlgo algo = CollectiveAlgo::ring);

  void start();
  void on_complete(uint64_t tag) override;

  bool finished() const { return done_tasks_ == graph_.tasks.size(); }
  Time started_at() const { return started_at_; }
  Time finished_at() const { return finished_at_; }
  // Per task, valid once it has started / finished (finished() for all of them).
  Time task_start(uint32_t task) const { return start_[task]; }
  Time task_finish(uint32_t task) const { return finish_[task]; }
  int gpu_of(int rank) const;

 private:
  void issue(uint32_t task);
  void task_done(uint32_t task);

  Platform& platform_;
  const StepGraph& graph_;
  CollectiveAlgo algo_;
  std::vector<uint32_t> waiting_on_;  // per task: unfinished dependencies
  std::vector<uint32_t> pending_;     // per task: unfinished activities (a copies task has several)
  std::vector<PartitionId> comm_partition_;  // per rank, when comm_sms > 0
  std::vector<uint32_t> dependents_;  // CSR: dependents of task t at [first_dependent_[t], first_dependent_[t+1])
  std::vector<uint32_t> first_dependent_;
  std::vector<Time> start_, finish_;
  std::vector<GpuId> group_gpus_;     // scratch for a collective's GPU list
  size_t done_tasks_ = 0;
  Time started_at_;
  Time finished_at_;
};

// What one rank did during the step, as a partition of [step start, step end]:
//   compute_s       union of the rank's compute (main pool) and delay tasks;
//   exposed_comm_s  union of the collectives it is a member of, the sends and copies it sends or
//                   receives and its comm-partition kernels,
//                   minus the time it also computes (communication hidden behind compute is not
//                   exposed);
//   idle_s          the rest: step_time_s - compute_s - exposed_comm_s (waiting on a dependency:
//                   a pipeline bubble, a peer).
struct RankTime {
  double compute_s = 0;
  double exposed_comm_s = 0;
  double idle_s = 0;
};

struct StepSummary {
  double step_time_s = 0;       // last finish - start
  std::vector<RankTime> ranks;  // per rank of the graph
};

StepSummary step_summary(const StepGraph& graph, const StepGraphRun& run);

}  // namespace parallax
