// File: sim/experiment/training_trace.cpp
#include "sim/experiment/training_trace.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

namespace parallax {

std::shared_ptr<ActivityLog> step_activity_log(const StepGraph& graph, const StepGraphRun& run,
                                               const std::vector<int>& shown, const std::string& gpu_model) {
  const std::set<int> ranks(shown.begin(), shown.end());
  auto log = std::make_shared<ActivityLog>();
  const auto node = [&](int rank) { return fmt::format("gpu{}", run.gpu_of(rank)); };
  for (uint32_t t = 0; t < graph.tasks.size(); ++t) {
    const StepTask& task = graph.tasks[t];
    ActivityRecord r;
    r.name = task.label;
    r.issued = r.start = run.task_start(t);
    r.end = run.task_finish(t);
    switch (task.kind) {
      case StepTask::Kind::compute:
      case StepTask::Kind::delay:
        if (!ranks.contains(task.rank) || r.end == r.start) continue;
        r.kind = ActivityKind::kernel;
        r.src = r.dst = node(task.rank);
        r.flops = task.kernel.flops;
        break;
      case StepTask::Kind::send:
        if (!ranks.contains(task.rank) && !ranks.contains(task.peer)) continue;
        r.kind = ActivityKind::copy;
        r.src = node(task.rank);
        r.dst = node(task.peer);
        r.bytes = task.bytes;
        break;
      case StepTask::Kind::join:
        continue;
      case StepTask::Kind::copies: {  // one record for the set, on its first shown sender
        const auto it = std::find_if(task.copies.begin(), task.copies.end(),
                                     [&](const StepCopy& c) { return ranks.contains(c.rank) || ranks.contains(c.peer); });
        if (it == task.copies.end()) continue;
        r.kind = ActivityKind::copy;
        r.src = node(it->rank);
        r.dst = node(it->peer);
        for (const StepCopy& c : task.copies) r.bytes += c.bytes;
        break;
      }
      case StepTask::Kind::collective: {
        const auto it = std::find_if(task.group.begin(), task.group.end(), [&](int m) { return ranks.contains(m); });
        if (it == task.group.end()) continue;
        r.kind = ActivityKind::collective;
        r.src = r.dst = node(*it);
        r.bytes = task.bytes;
        break;
      }
    }
    log->records.push_back(std::move(r));
  }
  std::stable_sort(log->records.begin(), log->records.end(),
                   [](const ActivityRecord& a, const ActivityRecord& b) { return a.start < b.start; });
  for (size_t i = 0; i < log->records.size(); ++i) log->records[i].id = i + 1;
  const int gpus = graph.gpu_of_rank.empty() ? graph.ranks
                                             : *std::max_element(graph.gpu_of_rank.begin(), graph.gpu_of_rank.end()) + 1;
  log->gpu_models.assign(static_cast<size_t>(gpus), "");
  for (int r : shown) log->gpu_models[static_cast<size_t>(run.gpu_of(r))] = gpu_model;
  return log;
}

}  // namespace parallax
