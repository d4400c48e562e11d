// File: sim/policies/training/every_rank_step.cpp
// The reduced step's tasks copied onto every rank (every_rank_step.h).
#include "sim/policies/training/every_rank_step.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

TrainingStep every_rank_step(const TrainingStep& reduced, const TrainingConfig& config) {
  const int t = static_cast<int>(config.tp), d = static_cast<int>(config.dp);
  const int per_stage = t * d;
  const StepGraph& in = reduced.graph;
  TrainingStep out;
  out.stage_ranks = reduced.stage_ranks;
  out.microbatches = reduced.microbatches;
  StepGraph& g = out.graph;
  g.ranks = in.ranks;
  g.gpu_of_rank = in.gpu_of_rank;
  g.comm_sms = in.comm_sms;
  // Per reduced task: its copies, by in-stage offset k = i + t·j (per_stage of them), or its one
  // task (a collective spanning the replicas) in slot 0 alone, or one per replica (slot j).
  std::vector<std::vector<uint32_t>> copies(in.tasks.size());
  std::vector<bool> per_rank(in.tasks.size(), false);
  const auto stage_of = [&](int rank) { return rank / per_stage; };
  const auto emit = [&](StepTask task, double exposed) {
    std::sort(task.deps.begin(), task.deps.end());
    task.deps.erase(std::unique(task.deps.begin(), task.deps.end()), task.deps.end());
    g.tasks.push_back(std::move(task));
    out.tp_exposed_s.push_back(exposed);
    return static_cast<uint32_t>(g.tasks.size() - 1);
  };
  // A collective copy's dependencies: per member, its own copy of each dependency on its stage.
  const auto collective_deps = [&](const StepTask& c, const std::vector<int>& members) {
    std::vector<uint32_t> deps;
    for (uint32_t dep : c.deps) {
      if (!per_rank[dep]) {
        deps.insert(deps.end(), copies[dep].begin(), copies[dep].end());
        continue;
      }
      const int dep_stage = stage_of(in.tasks[dep].rank);
      for (int m : members)
        if (stage_of(m) == dep_stage) deps.push_back(copies[dep][static_cast<size_t>(m - dep_stage * per_stage)]);
    }
    return deps;
  };
  for (size_t n = 0; n < in.tasks.size(); ++n) {
    const StepTask& task = in.tasks[n];
    const double exposed = reduced.tp_exposed_s[n];
    if (task.kind == StepTask::Kind::collective) {
      // Members in replicas 0 .. w-1 exactly (a TP group of replica 0, an EP group): run by every
      // block of w replicas on its own members; otherwise (spanning the dp or expert-dp replicas)
      // one task.
      int w = 0;
      std::vector<bool> seen(static_cast<size_t>(d), false);
      for (int m : task.group) {
        const int j = m % per_stage / t;
        seen[static_cast<size_t>(j)] = true;
        w = std::max(w, j + 1);
      }
      const bool block = d % w == 0 && std::all_of(seen.begin(), seen.begin() + w, [](bool b) { return b; });
      const int blocks = block ? d / w : 1;
      for (int q = 0; q < blocks; ++q) {
        StepTask c = task;
        if (blocks > 1) {
          for (int& m : c.group) m += t * w * q;
          c.label = fmt::format("{}.dp{}", task.label, w * q);
        }
        c.deps = collective_deps(task, c.group);
        copies[n].push_back(emit(std::move(c), exposed));
      }
      continue;
    }
    if (task.rank % per_stage != 0)
      throw std::invalid_argument(fmt::format("every_rank_step: task {} ('{}') is not on a stage's representative", n,
                                              task.label));
    per_rank[n] = true;
    const int base = stage_of(task.rank) * per_stage;
    for (int k = 0; k < per_stage; ++k) {
      StepTask c = task;
      c.rank = base + k;
      if (task.kind == StepTask::Kind::send) c.peer = stage_of(task.peer) * per_stage + k;
      c.deps.clear();
      for (uint32_t dep : task.deps) {
        if (per_rank[dep]) {
          c.deps.push_back(copies[dep][static_cast<size_t>(k)]);
          continue;
        }
        for (uint32_t id : copies[dep]) {
          const std::vector<int>& group = g.tasks[id].group;
          if (std::find(group.begin(), group.end(), c.rank) != group.end()) c.deps.push_back(id);
        }
      }
      if (k > 0) c.label = fmt::format("{}.r{}", task.label, c.rank);
      copies[n].push_back(emit(std::move(c), exposed));
    }
  }
  return out;
}

}  // namespace parallax
