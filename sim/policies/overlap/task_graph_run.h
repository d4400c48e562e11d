// File: sim/policies/overlap/task_graph_run.h
// Runs a small graph of overlap tasks on any Platform: a task starts when all its dependencies
// have finished, and finishes when every platform activity it issued has completed. Three kinds:
// a delay (a timer), a compute kernel launched on every GPU of the group, and one lock-step ring
// step (a per-step handshake delay, then one copy per hop of every ring, plus an optional
// HBM-traffic kernel per GPU on the communication partition). Ownership: the run borrows the
// Platform, which must outlive it; tasks are copied in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/platform/platform.h"

namespace parallax {

struct RingShare {
  std::vector<int> order;  // GPUs in ring order; hop i goes order[i] -> order[i+1 mod P]
  double bytes = 0;        // payload of each hop's copy in this step
  std::vector<int> paths;  // per hop: the index into Platform::paths it takes (empty: path 0)
};

struct OverlapTask {
  enum class Kind : uint8_t { delay, compute, ring_step };
  Kind kind = Kind::delay;
  std::string label;
  double delay_s = 0;          // delay; ring_step: the handshake before the copies
  KernelProfile kernel;        // compute: on every GPU, whole-GPU pool (SMs not partitioned)
  std::vector<RingShare> rings;  // ring_step
  double comm_hbm_bytes = 0;   // ring_step: a copy kernel's HBM bytes per GPU on the comm partition,
                               // for hw trials on one GPU whose hops become that kernel (0: none;
                               // overlap_schedule leaves it 0: on SimPlatform copies load HBM)
  std::vector<uint32_t> deps;  // indices of earlier tasks
};

class TaskGraphRun final : public CompletionListener {
 public:
  // `comm_sms` > 0 reserves a partition of that many SMs on every group GPU at start(): the
  // communication kernels' SMs, taken from the pool the compute kernels run on.
  TaskGraphRun(Platform& platform, std::vector<int> gpus, std::vector<OverlapTask> tasks, int comm_sms);

  void start();
  void on_complete(uint64_t tag) override;

  bool finished() const { return done_tasks_ == tasks_.size(); }
  Time started_at() const { return started_at_; }
  Time finished_at() const { return finished_at_; }
  size_t task_count() const { return tasks_.size(); }

 private:
  void issue(uint32_t task);
  void issue_ring_step(uint32_t task);
  void task_done(uint32_t task);

  Platform& platform_;
  std::vector<int> gpus_;
  std::vector<OverlapTask> tasks_;
  int comm_sms_;
  std::vector<PartitionId> comm_partitions_;
  std::vector<uint32_t> waiting_on_;            // per task: unfinished dependencies
  std::vector<uint32_t> pending_;               // per task: unfinished activities
  std::vector<std::vector<uint32_t>> dependents_;
  size_t done_tasks_ = 0;
  Time started_at_;
  Time finished_at_;
};

}  // namespace parallax
