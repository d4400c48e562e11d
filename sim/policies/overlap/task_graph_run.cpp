// File: sim/policies/overlap/task_graph_run.cpp
// Dependency counting over Platform calls (task_graph_run.h). Tags: task index << 1, low bit 1
// for a ring step's handshake timer.
#include "sim/policies/overlap/task_graph_run.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

TaskGraphRun::TaskGraphRun(Platform& platform, std::vector<int> gpus, std::vector<OverlapTask> tasks,
                           int comm_sms)
    : platform_(platform), gpus_(std::move(gpus)), tasks_(std::move(tasks)), comm_sms_(comm_sms) {
  waiting_on_.resize(tasks_.size());
  pending_.resize(tasks_.size());
  dependents_.resize(tasks_.size());
  for (uint32_t t = 0; t < tasks_.size(); ++t) {
    for (uint32_t d : tasks_[t].deps) {
      if (d >= t) throw std::invalid_argument(fmt::format("task {} depends on a later task {}", t, d));
      dependents_[d].push_back(t);
    }
    waiting_on_[t] = static_cast<uint32_t>(tasks_[t].deps.size());
  }
}

void TaskGraphRun::start() {
  started_at_ = platform_.now();
  if (comm_sms_ > 0)
    for (int g : gpus_) comm_partitions_.push_back(platform_.create_partition(g, {comm_sms_, 1.0, "comm"}));
  if (tasks_.empty()) finished_at_ = started_at_;
  for (uint32_t t = 0; t < tasks_.size(); ++t)
    if (waiting_on_[t] == 0) issue(t);
}

void TaskGraphRun::issue(uint32_t t) {
  OverlapTask& task = tasks_[t];
  switch (task.kind) {
    case OverlapTask::Kind::delay:
      pending_[t] = 1;
      platform_.call_at(platform_.now() + Time::seconds(task.delay_s), *this, uint64_t{t} << 1);
      return;
    case OverlapTask::Kind::compute:
      pending_[t] = static_cast<uint32_t>(gpus_.size());
      for (int g : gpus_) platform_.launch(g, kWholeGpu, task.kernel, *this, uint64_t{t} << 1);
      return;
    case OverlapTask::Kind::ring_step:
      pending_[t] = 1;
      platform_.call_at(platform_.now() + Time::seconds(task.delay_s), *this, (uint64_t{t} << 1) | 1);
      return;
  }
}

void TaskGraphRun::issue_ring_step(uint32_t t) {
  const OverlapTask& task = tasks_[t];
  uint32_t activities = 0;
  for (const RingShare& ring : task.rings) {
    if (ring.order.size() < 2) continue;
    for (size_t i = 0; i < ring.order.size(); ++i) {
      const int src = ring.order[i], dst = ring.order[(i + 1) % ring.order.size()];
      const int path = ring.paths.empty() ? 0 : ring.paths[i];
      if (path == 0)
        platform_.copy(Endpoint::gpu(src), Endpoint::gpu(dst), Bytes(std::llround(ring.bytes)), *this,
                       uint64_t{t} << 1, task.label);
      else
        platform_.copy_over(Endpoint::gpu(src), Endpoint::gpu(dst), path, Bytes(std::llround(ring.bytes)), *this,
                            uint64_t{t} << 1, task.label);
      ++activities;
    }
  }
  if (task.comm_hbm_bytes > 0 && !comm_partitions_.empty()) {
    KernelProfile k{task.label + ":hbm", 0.0, task.comm_hbm_bytes, 0};
    for (size_t i = 0; i < gpus_.size(); ++i) {
      platform_.launch(gpus_[i], comm_partitions_[i], k, *this, uint64_t{t} << 1);
      ++activities;
    }
  }
  pending_[t] = activities;
  if (activities == 0) task_done(t);
}

void TaskGraphRun::on_complete(uint64_t tag) {
  const auto t = static_cast<uint32_t>(tag >> 1);
  if ((tag & 1) != 0) {
    issue_ring_step(t);
    return;
  }
  if (--pending_[t] == 0) task_done(t);
}

void TaskGraphRun::task_done(uint32_t t) {
  ++done_tasks_;
  if (finished()) finished_at_ = platform_.now();
  for (uint32_t next : dependents_[t])
    if (--waiting_on_[next] == 0) issue(next);
}

}  // namespace parallax
