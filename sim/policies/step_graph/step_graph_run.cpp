// File: sim/policies/step_graph/step_graph_run.cpp
// Dependency counting over Platform calls (step_graph_run.h). Tag = task index.
#include "sim/policies/step_graph/step_graph_run.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace parallax {

namespace {

void check_rank(const StepGraph& g, uint32_t t, int rank, const char* what) {
  if (rank < 0 || rank >= g.ranks)
    throw std::invalid_argument(fmt::format("step task {} ('{}'): {} {} outside 0..{}", t, g.tasks[t].label, what,
                                            rank, g.ranks - 1));
}

// Sorted, merged [begin, end) intervals.
using Intervals = std::vector<std::pair<Time, Time>>;

Intervals merged(Intervals v) {
  std::sort(v.begin(), v.end());
  Intervals out;
  for (const auto& iv : v) {
    if (!out.empty() && iv.first <= out.back().second)
      out.back().second = std::max(out.back().second, iv.second);
    else
      out.push_back(iv);
  }
  return out;
}

double length_s(const Intervals& v) {
  double s = 0;
  for (const auto& [a, b] : v) s += (b - a).to_seconds();
  return s;
}

// Length of `a` not covered by `b` (both merged).
double uncovered_s(const Intervals& a, const Intervals& b) {
  double s = 0;
  size_t j = 0;
  for (const auto& [begin, end] : a) {
    Time cursor = begin;
    while (j < b.size() && b[j].second <= cursor) ++j;
    for (size_t k = j; k < b.size() && b[k].first < end; ++k) {
      if (b[k].first > cursor) s += (b[k].first - cursor).to_seconds();
      cursor = std::max(cursor, b[k].second);
      if (cursor >= end) break;
    }
    if (cursor < end) s += (end - cursor).to_seconds();
  }
  return s;
}

}  // namespace

StepGraphRun::StepGraphRun(Platform& platform, const StepGraph& graph, CollectiveAlgo algo)
    : platform_(platform), graph_(graph), algo_(algo) {
  const auto n = static_cast<uint32_t>(graph_.tasks.size());
  if (!graph_.gpu_of_rank.empty() && graph_.gpu_of_rank.size() != static_cast<size_t>(graph_.ranks))
    throw std::invalid_argument(fmt::format("step graph: gpu_of_rank has {} entries for {} ranks",
                                            graph_.gpu_of_rank.size(), graph_.ranks));
  waiting_on_.resize(n);
  first_dependent_.assign(n + 1, 0);
  for (uint32_t t = 0; t < n; ++t) {
    const StepTask& task = graph_.tasks[t];
    for (uint32_t d : task.deps) {
      if (d >= t) throw std::invalid_argument(fmt::format("step task {} ('{}') depends on a later task {}", t, task.label, d));
      ++first_dependent_[d + 1];
    }
    waiting_on_[t] = static_cast<uint32_t>(task.deps.size());
    switch (task.kind) {
      case StepTask::Kind::compute:
        check_rank(graph_, t, task.rank, "rank");
        if (task.on_comm_partition && graph_.comm_sms <= 0)
          throw std::invalid_argument(
              fmt::format("step task {} ('{}') runs on the comm partition of a graph without one", t, task.label));
        break;
      case StepTask::Kind::delay:
        check_rank(graph_, t, task.rank, "rank");
        break;
      case StepTask::Kind::join:
        break;
      case StepTask::Kind::copies:
        for (const StepCopy& c : task.copies) {
          check_rank(graph_, t, c.rank, "copy rank");
          check_rank(graph_, t, c.peer, "copy peer");
          if (c.peer == c.rank || c.path < 0)
            throw std::invalid_argument(fmt::format("step task {} ('{}'): a copy from rank {} to rank {} over path {}",
                                                    t, task.label, c.rank, c.peer, c.path));
        }
        break;
      case StepTask::Kind::send:
        check_rank(graph_, t, task.rank, "rank");
        check_rank(graph_, t, task.peer, "peer");
        if (task.peer == task.rank)
          throw std::invalid_argument(fmt::format("step task {} ('{}') sends to its own rank", t, task.label));
        break;
      case StepTask::Kind::collective: {
        if (task.group.empty())
          throw std::invalid_argument(fmt::format("step task {} ('{}'): a collective needs a rank or more", t, task.label));
        std::vector<int> sorted = task.group;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
          throw std::invalid_argument(fmt::format("step task {} ('{}'): a rank twice in the group", t, task.label));
        for (int r : task.group) check_rank(graph_, t, r, "group rank");
        break;
      }
    }
  }
  for (uint32_t t = 0; t < n; ++t) first_dependent_[t + 1] += first_dependent_[t];
  dependents_.resize(first_dependent_[n]);
  std::vector<uint32_t> fill(first_dependent_.begin(), first_dependent_.end() - 1);
  for (uint32_t t = 0; t < n; ++t)
    for (uint32_t d : graph_.tasks[t].deps) dependents_[fill[d]++] = t;
  start_.resize(n);
  finish_.resize(n);
  pending_.assign(n, 1);
}

int StepGraphRun::gpu_of(int rank) const {
  return graph_.gpu_of_rank.empty() ? rank : graph_.gpu_of_rank[static_cast<size_t>(rank)];
}

void StepGraphRun::start() {
  started_at_ = platform_.now();
  finished_at_ = started_at_;
  if (graph_.comm_sms > 0)
    for (int r = 0; r < graph_.ranks; ++r)
      comm_partition_.push_back(platform_.create_partition(gpu_of(r), {graph_.comm_sms, 1.0, "comm"}));
  for (uint32_t t = 0; t < graph_.tasks.size(); ++t)
    if (waiting_on_[t] == 0) issue(t);
}

void StepGraphRun::issue(uint32_t t) {
  const StepTask& task = graph_.tasks[t];
  start_[t] = platform_.now();
  switch (task.kind) {
    case StepTask::Kind::compute:
      platform_.launch(gpu_of(task.rank),
                       task.on_comm_partition ? comm_partition_[static_cast<size_t>(task.rank)] : kWholeGpu,
                       task.kernel, *this, t);
      return;
    case StepTask::Kind::join:  // done now: its dependents are issued in this same step
      task_done(t);
      return;
    case StepTask::Kind::copies:
      if (task.copies.empty()) {  // nothing to move: done at once
        platform_.call_at(platform_.now(), *this, t);
        return;
      }
      pending_[t] = static_cast<uint32_t>(task.copies.size());
      for (const StepCopy& c : task.copies) {
        const Endpoint src = Endpoint::gpu(gpu_of(c.rank)), dst = Endpoint::gpu(gpu_of(c.peer));
        if (c.path == 0)
          platform_.copy(src, dst, Bytes(std::llround(c.bytes)), *this, t, task.label);
        else
          platform_.copy_over(src, dst, c.path, Bytes(std::llround(c.bytes)), *this, t, task.label);
      }
      return;
    case StepTask::Kind::delay:
      platform_.call_at(platform_.now() + Time::seconds(task.delay_s), *this, t);
      return;
    case StepTask::Kind::send:
      platform_.copy(Endpoint::gpu(gpu_of(task.rank)), Endpoint::gpu(gpu_of(task.peer)), Bytes(std::llround(task.bytes)),
                     *this, t, task.label);
      return;
    case StepTask::Kind::collective: {
      if (task.group.size() == 1) {  // one rank moves nothing (a Chakra trace of one rank has them)
        platform_.call_at(platform_.now(), *this, t);
        return;
      }
      group_gpus_.clear();
      for (int r : task.group) group_gpus_.push_back(gpu_of(r));
      const CollectiveAlgo algo = runs(algo_, task.op) ? algo_ : default_algo(task.op);
      platform_.collective(task.op, group_gpus_, Bytes(std::llround(task.bytes)), algo, *this, t, task.label);
      return;
    }
  }
}

void StepGraphRun::on_complete(uint64_t tag) {
  const auto t = static_cast<uint32_t>(tag);
  if (--pending_[t] == 0) task_done(t);
}

void StepGraphRun::task_done(uint32_t t) {
  finish_[t] = platform_.now();
  ++done_tasks_;
  if (finished()) finished_at_ = platform_.now();
  for (uint32_t i = first_dependent_[t]; i < first_dependent_[t + 1]; ++i)
    if (--waiting_on_[dependents_[i]] == 0) issue(dependents_[i]);
}

StepSummary step_summary(const StepGraph& graph, const StepGraphRun& run) {
  if (!run.finished()) throw std::logic_error("step_summary of an unfinished run");
  StepSummary s;
  s.step_time_s = (run.finished_at() - run.started_at()).to_seconds();
  std::vector<Intervals> compute(static_cast<size_t>(graph.ranks)), comm(static_cast<size_t>(graph.ranks));
  for (uint32_t t = 0; t < graph.tasks.size(); ++t) {
    const StepTask& task = graph.tasks[t];
    const std::pair<Time, Time> iv{run.task_start(t), run.task_finish(t)};
    switch (task.kind) {
      case StepTask::Kind::compute:
        (task.on_comm_partition ? comm : compute)[static_cast<size_t>(task.rank)].push_back(iv);
        break;
      case StepTask::Kind::delay:
        compute[static_cast<size_t>(task.rank)].push_back(iv);
        break;
      case StepTask::Kind::copies:
        for (const StepCopy& c : task.copies) {
          comm[static_cast<size_t>(c.rank)].push_back(iv);
          comm[static_cast<size_t>(c.peer)].push_back(iv);
        }
        break;
      case StepTask::Kind::join:
        break;
      case StepTask::Kind::send:
        comm[static_cast<size_t>(task.rank)].push_back(iv);
        comm[static_cast<size_t>(task.peer)].push_back(iv);
        break;
      case StepTask::Kind::collective:
        for (int r : task.group) comm[static_cast<size_t>(r)].push_back(iv);
        break;
    }
  }
  s.ranks.resize(static_cast<size_t>(graph.ranks));
  for (size_t r = 0; r < s.ranks.size(); ++r) {
    const Intervals c = merged(std::move(compute[r]));
    const Intervals m = merged(std::move(comm[r]));
    RankTime& rt = s.ranks[r];
    rt.compute_s = length_s(c);
    rt.exposed_comm_s = uncovered_s(m, c);
    rt.idle_s = std::max(0.0, s.step_time_s - rt.compute_s - rt.exposed_comm_s);
  }
  return s;
}

}  // namespace parallax
