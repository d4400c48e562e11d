// File: hw/overlap_trial.cpp
#include "hw/overlap_trial.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "hw/green_split.h"
#include "models/overlap_selector.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/overlap/overlap_schedule.h"
#include "sim/policies/step_graph/step_graph_run.h"

namespace parallax::hw {

namespace {

models::OverlapStrategy strategy_of(const OverlapTrial& t) {
  if (t.strategy == "sequential") return models::OverlapStrategy::sequential;
  if (t.strategy == "intrafusion") return models::OverlapStrategy::intrafusion_ring;
  if (t.strategy == "interdecom") return models::OverlapStrategy::interdecom;
  throw std::invalid_argument(fmt::format("unknown overlap strategy '{}'", t.strategy));
}

// The group as the graph builder sees it: the trial's GPU (its rates, the default GEMM curve)
// and the ring order of tp GPUs. Ring bandwidths are not needed: the single ring's steps carry
// the chunk whatever the hop speed, and the double ring is not run on one GPU.
OverlapGroup trial_group(const OverlapTrial& t) {
  GpuSpec g;
  g.model = "trial";
  g.sms = t.sms;
  g.peak_flops = t.flops_per_s;
  g.hbm_Bps = t.hbm_Bps;
  g.kernel_launch_s = t.launch_s;
  OverlapGroup group;
  for (int i = 0; i < t.tp; ++i) group.order.push_back(i);
  group.reverse_order.assign(group.order.rbegin(), group.order.rend());
  group.machine.gpu = overlap_gpu_params(g);
  return group;
}

}  // namespace

StepGraph overlap_trial_graph(const OverlapTrial& t) {
  models::OverlapProblem p;
  if (!models::parse_overlap_op(t.op, p.op)) throw std::invalid_argument(fmt::format("unknown overlap op '{}'", t.op));
  p.m = t.m;
  p.n = t.n;
  p.k = t.k;
  p.tp = t.tp;
  models::OverlapParams params;
  params.comm_sms = t.comm_sms;
  const StepGraph s = overlap_schedule(p, trial_group(t), params, strategy_of(t), t.d);
  // Rank 0's part of the graph: its kernels and the delays stay; a copies task becomes the copy
  // kernel of what rank 0 sends; the other ranks' kernels and rank 0's modelled comm HBM traffic
  // (the copy kernel is that traffic) go. A task waiting on a dropped one waits on what it waited on.
  StepGraph out;
  out.ranks = 1;
  out.comm_sms = s.comm_sms;
  std::vector<std::vector<uint32_t>> moved(s.tasks.size());  // old index -> the new tasks standing for it
  for (size_t i = 0; i < s.tasks.size(); ++i) {
    const StepTask& task = s.tasks[i];
    std::vector<uint32_t> deps;
    for (uint32_t d : task.deps) deps.insert(deps.end(), moved[d].begin(), moved[d].end());
    std::sort(deps.begin(), deps.end());
    deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    const bool dropped = task.kind == StepTask::Kind::compute && (task.rank != 0 || task.on_comm_partition);
    if (dropped) {
      moved[i] = std::move(deps);
      continue;
    }
    StepTask kept = task;
    kept.deps = std::move(deps);
    if (task.kind == StepTask::Kind::copies) {
      double sent = 0;  // bytes this GPU sends in the step: one hop per ring
      for (const StepCopy& c : task.copies)
        if (c.rank == 0) sent += c.bytes;
      kept.kind = StepTask::Kind::compute;
      kept.copies.clear();
      // The copy kernel reads and writes every byte: on the comm partition, or (sequential, no
      // partition) limited to comm_sms SMs of the whole GPU.
      kept.on_comm_partition = s.comm_sms > 0;
      kept.kernel = KernelProfile{task.label + ":copy", 0.0, 2 * sent, s.comm_sms > 0 ? 0 : t.comm_sms};
    }
    out.tasks.push_back(std::move(kept));
    moved[i] = {static_cast<uint32_t>(out.tasks.size() - 1)};
  }
  return out;
}

GpuPartitioning overlap_trial_rules(const OverlapTrial& t) {
  return green_rules("trial", t.sms, t.green_min_sms, t.green_multiple_sms);
}

double run_overlap_trial(Platform& platform, const OverlapTrial& t, const std::function<void()>& run) {
  const StepGraph g = overlap_trial_graph(t);
  StepGraphRun graph(platform, g);
  graph.start();
  run();
  if (!graph.finished())
    throw std::logic_error(fmt::format("overlap trial {} (d={}): the task graph did not finish", t.strategy, t.d));
  return (graph.finished_at() - graph.started_at()).to_seconds();
}

}  // namespace parallax::hw
