// File: sim/experiment/chakra_experiment.cpp
// workload.kind == chakra: reads a Chakra ET set (sim/workload/chakra_reader.h; a bad trace is an
// exit 2 naming the file, node id and field), fits it to the target GPUs and runs the step once on
// the scenario's machine (docs/chakra.md). Fitting: compute nodes with FLOPs and bytes are timed by
// the platform's kernel model on the GPU they land on; compute nodes with only a recorded duration
// are scaled by recorded peak / target peak when workload.recorded_on names the recording machine.
// summary.json: step_time_s, tflops_per_gpu (when every compute node carries FLOPs), and per rank
// the time computing, communicating while not computing (exposed), in host work and idle;
// trace.json (one process per GPU, so per rank) when the scenario asks for it.
#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "sim/engine/engine.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/policy_summary.h"
#include "sim/io/input_error.h"
#include "sim/report/report_pages.h"
#include "sim/policies/step_graph/step_graph_run.h"
#include "sim/report/run_timing.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/workload/chakra_reader.h"

namespace parallax {

namespace {


using ChakraSpan = std::pair<Time, Time>;

// Total length of the union of `spans`.
double union_s(std::vector<ChakraSpan> spans) {
  std::sort(spans.begin(), spans.end());
  double total = 0;
  Time open = Time::zero(), close = Time::zero();
  bool any = false;
  for (const auto& [a, b] : spans) {
    if (!any || a > close) {
      if (any) total += (close - open).to_seconds();
      open = a;
      close = b;
      any = true;
    } else {
      close = std::max(close, b);
    }
  }
  if (any) total += (close - open).to_seconds();
  return total;
}

// One rank's step: compute, communication not hidden under compute, host work under neither, idle.
struct ChakraRankTime {
  double compute_s = 0, exposed_comm_s = 0, host_s = 0, idle_s = 0;
};

// Like step_summary (sim/policies/step_graph/step_graph_run.h), with host work (delay tasks) apart.
std::vector<ChakraRankTime> rank_times(const StepGraph& g, const StepGraphRun& run, double step_s) {
  std::vector<std::vector<ChakraSpan>> compute(g.ranks), comm(g.ranks), host(g.ranks);
  for (size_t t = 0; t < g.tasks.size(); ++t) {
    const StepTask& task = g.tasks[t];
    const ChakraSpan span{run.task_start(static_cast<uint32_t>(t)), run.task_finish(static_cast<uint32_t>(t))};
    switch (task.kind) {
      case StepTask::Kind::compute: (task.on_comm_partition ? comm : compute)[task.rank].push_back(span); break;
      case StepTask::Kind::delay: host[task.rank].push_back(span); break;
      case StepTask::Kind::collective:
        for (const int r : task.group) comm[r].push_back(span);
        break;
      case StepTask::Kind::send:
        comm[task.rank].push_back(span);
        comm[task.peer].push_back(span);
        break;
      case StepTask::Kind::join: break;
      case StepTask::Kind::copies:  // not in a Chakra graph; counted as step_summary does
        for (const StepCopy& c : task.copies) {
          comm[c.rank].push_back(span);
          comm[c.peer].push_back(span);
        }
        break;
    }
  }
  std::vector<ChakraRankTime> out(g.ranks);
  for (int r = 0; r < g.ranks; ++r) {
    auto busy = compute[r];
    const double c = union_s(busy);
    busy.insert(busy.end(), comm[r].begin(), comm[r].end());
    const double cm = union_s(busy);
    busy.insert(busy.end(), host[r].begin(), host[r].end());
    const double all = union_s(busy);
    out[r] = {c, cm - c, all - cm, std::max(0.0, step_s - all)};
  }
  return out;
}

}  // namespace

Result run_chakra(const Scenario& sc, const ExperimentContext& ctx) {
  const WallClock clock;
  const ChakraWorkloadSpec& w = sc.chakra;
  ChakraReadStats stats;
  StepGraph graph = step_graph_of_chakra(read_chakra_dir(w.trace_dir), {.follow_ctrl_deps = w.follow_ctrl_deps}, &stats);

  Engine engine;
  const auto log = std::make_shared<ActivityLog>();
  const bool traced = ctx.outputs() && sc.output.trace;
  const std::unique_ptr<Platform> platform = ctx.make_platform(engine, sc.hardware, traced ? log.get() : nullptr);
  if (graph.ranks > platform->gpu_count())
    throw InputError({w.trace_dir, 0, 0}, "workload.trace",
                     fmt::format("the trace has {} ranks, the hardware '{}' has {} GPUs", graph.ranks, sc.hardware.name,
                                 platform->gpu_count()));

  // Fit to the target: recorded durations scaled by recorded peak / the rank's GPU's peak.
  const double recorded_peak = w.recorded_on.empty() ? 0 : load_hardware_preset(w.recorded_on).gpus.at(0).peak_flops;
  double flops = 0;
  bool flops_known = true;
  for (StepTask& t : graph.tasks) {
    if (t.kind != StepTask::Kind::compute) continue;
    if (t.kernel.solo_s > 0) {
      flops_known = false;
      if (recorded_peak > 0) {
        const GpuId gpu = graph.gpu_of_rank.empty() ? t.rank : graph.gpu_of_rank[static_cast<size_t>(t.rank)];
        t.kernel.solo_s *= recorded_peak / platform->gpu(gpu).peak_flops;
      }
    }
    flops += t.kernel.flops;
  }

  StepGraphRun run(*platform, graph);
  run.start();
  engine.run();
  if (!run.finished()) throw std::logic_error("chakra: the step graph did not finish");
  const double step_s = run.finished_at().to_seconds();
  const auto per_rank = rank_times(graph, run, step_s);

  Result r;
  nlohmann::ordered_json& summary = r.summary;
  summary = policy_summary_header(sc, "chakra");
  summary["trace"] = w.trace_dir;
  summary["ranks"] = graph.ranks;
  summary["nodes"] = stats.nodes;
  summary["host_nodes"] = stats.host_nodes;
  summary["ignored_ctrl_deps"] = stats.ignored_ctrl_deps;
  summary["tasks"] = graph.tasks.size();
  summary["recorded_on"] = w.recorded_on.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(w.recorded_on);
  summary["step_time_s"] = step_s;
  summary["flops_per_step"] = flops_known ? nlohmann::ordered_json(flops) : nlohmann::ordered_json();
  summary["tflops_per_gpu"] =
      flops_known && step_s > 0 ? nlohmann::ordered_json(flops / step_s / graph.ranks / 1e12) : nlohmann::ordered_json();
  double compute = 0, exposed = 0, host = 0, idle = 0;
  nlohmann::ordered_json& ranks = summary["per_rank"];
  ranks = nlohmann::ordered_json::array();
  ConsoleTable table{{"rank", "compute", "exposed comm", "host", "idle"}, {}, {}};
  for (int k = 0; k < graph.ranks; ++k) {
    const ChakraRankTime& t = per_rank[k];
    ranks.push_back({{"rank", k}, {"compute_s", t.compute_s}, {"exposed_comm_s", t.exposed_comm_s},
                     {"host_s", t.host_s}, {"idle_s", t.idle_s}});
    compute += t.compute_s;
    exposed += t.exposed_comm_s;
    host += t.host_s;
    idle += t.idle_s;
    if (k < 16)
      table.rows.push_back({fmt::format("{}", k), format_seconds(t.compute_s), format_seconds(t.exposed_comm_s),
                            format_seconds(t.host_s), format_seconds(t.idle_s)});
  }
  const double n = graph.ranks;
  summary["mean_compute_s"] = compute / n;
  summary["mean_exposed_comm_s"] = exposed / n;
  summary["mean_host_s"] = host / n;
  summary["mean_idle_s"] = idle / n;
  if (graph.ranks > 16) table.notes.push_back(fmt::format("ranks 0-15 of {}; summary.json has all", graph.ranks));
  table.notes.push_back(
      fmt::format("step {}; {} TFLOP/s per GPU", format_seconds(step_s),
                  flops_known ? fmt::format("{:.1f}", flops / step_s / n / 1e12) : std::string("unknown (recorded durations)")));
  r.console.push_back(std::move(table));
  if (traced) r.files.push_back(trace_file(sc, log));
  else if (ctx.outputs()) r.stale.push_back("trace.json");
  r.timing = timing_json(clock.elapsed_s());
  return r;
}

HtmlReport chakra_page(const Scenario&, const Result& r) { return generic_report_page(r.summary, "chakra"); }

}  // namespace parallax
