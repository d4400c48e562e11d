// File: hw/overlap_trial.cpp
#include "hw/overlap_trial.h"

#include <stdexcept>

#include <fmt/format.h>

#include "hw/green_split.h"
#include "models/overlap_selector.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/overlap/overlap_schedule.h"

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

OverlapTrialGraph overlap_trial_graph(const OverlapTrial& t) {
  models::OverlapProblem p;
  if (!models::parse_overlap_op(t.op, p.op)) throw std::invalid_argument(fmt::format("unknown overlap op '{}'", t.op));
  p.m = t.m;
  p.n = t.n;
  p.k = t.k;
  p.tp = t.tp;
  models::OverlapParams params;
  params.comm_sms = t.comm_sms;
  const OverlapSchedule s = overlap_schedule(p, trial_group(t), params, strategy_of(t), t.d);
  // Old index -> new index: a sequential ring step becomes two tasks (handshake, copy kernel);
  // its dependents wait for the second.
  OverlapTrialGraph out;
  out.comm_sms = s.comm_sms;
  std::vector<uint32_t> moved(s.tasks.size());
  for (size_t i = 0; i < s.tasks.size(); ++i) {
    OverlapTask task = s.tasks[i];
    for (uint32_t& d : task.deps) d = moved[d];
    if (task.kind != OverlapTask::Kind::ring_step) {
      out.tasks.push_back(std::move(task));
      moved[i] = static_cast<uint32_t>(out.tasks.size() - 1);
      continue;
    }
    double sent = 0;  // bytes this GPU sends in the step: one hop per ring
    for (const RingShare& r : task.rings)
      if (r.order.size() >= 2) sent += r.bytes;
    task.rings.clear();
    if (s.comm_sms > 0) {
      task.comm_hbm_bytes = 2 * sent;  // the copy kernel reads and writes every byte
      out.tasks.push_back(std::move(task));
    } else {
      OverlapTask handshake;
      handshake.kind = OverlapTask::Kind::delay;
      handshake.label = task.label + ":handshake";
      handshake.delay_s = task.delay_s;
      handshake.deps = task.deps;
      out.tasks.push_back(std::move(handshake));
      OverlapTask copy;
      copy.kind = OverlapTask::Kind::compute;
      copy.label = task.label;
      copy.kernel = KernelProfile{task.label + ":copy", 0.0, 2 * sent, t.comm_sms};
      copy.deps = {static_cast<uint32_t>(out.tasks.size() - 1)};
      out.tasks.push_back(std::move(copy));
    }
    moved[i] = static_cast<uint32_t>(out.tasks.size() - 1);
  }
  return out;
}

GpuPartitioning overlap_trial_rules(const OverlapTrial& t) {
  return green_rules("trial", t.sms, t.green_min_sms, t.green_multiple_sms);
}

double run_overlap_trial(Platform& platform, const OverlapTrial& t, const std::function<void()>& run) {
  OverlapTrialGraph g = overlap_trial_graph(t);
  TaskGraphRun graph(platform, {0}, std::move(g.tasks), g.comm_sms);
  graph.start();
  run();
  if (!graph.finished())
    throw std::logic_error(fmt::format("overlap trial {} (d={}): the task graph did not finish", t.strategy, t.d));
  return (graph.finished_at() - graph.started_at()).to_seconds();
}

}  // namespace parallax::hw
