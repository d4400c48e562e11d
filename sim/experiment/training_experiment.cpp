// File: sim/experiment/training_experiment.cpp
// workload.kind == training: one 3D-parallel training step (sim/policies/training/training_step.h)
// simulated on the scenario's cluster. micro_batch / schedule `auto` try every candidate layout
// that fits in memory and keep the fastest; an overlap strategy rewrites the TP GEMM + collective
// pairs with the overlap models' times and is compared with the models' sequential baseline on
// the same layout. summary.json, trace.json: docs/training.md.
#include <map>
#include <memory>
#include <tuple>

#include <fmt/format.h>

#include "models/overlap_selector.h"
#include "sim/engine/engine.h"
#include "sim/experiment/experiment.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"
#include "sim/experiment/training_trace.h"
#include "sim/io/input_error.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/training/every_rank_step.h"
#include "sim/policies/training/training_step.h"
#include "sim/report/report_pages.h"
#include "sim/report/run_timing.h"
#include "sim/workload/chakra_writer.h"

namespace parallax {

namespace {

// TP collectives timed once each, alone on GPUs 0..tp-1 (stage 0's group) of the platform; the
// same platform answers the overlap models' ring questions.
class TpPrices {
 public:
  TpPrices(const ExperimentContext& ctx, const HardwareSpec& hw, int tp)
      : platform_(ctx.make_platform(engine_, hw, nullptr)), tp_(tp) {}

  double collective_s(CollectiveOp op, double bytes) {
    const auto key = std::make_pair(op, bytes);
    if (const auto it = collectives_.find(key); it != collectives_.end()) return it->second;
    StepGraph g;
    g.ranks = tp_;
    StepTask c;
    c.kind = StepTask::Kind::collective;
    c.op = op;
    c.bytes = bytes;
    for (int i = 0; i < tp_; ++i) c.group.push_back(i);
    g.tasks.push_back(c);
    StepGraphRun run(*platform_, g);
    run.start();
    engine_.run();
    const double s = (run.finished_at() - run.started_at()).to_seconds();
    collectives_.emplace(key, s);
    return s;
  }

  // The strategy's time for a GEMM + collective pair (the overlap models, docs/overlap.md).
  double pair_s(const models::OverlapProblem& p, TrainingOverlap strategy) {
    if (!group_) group_ = std::make_unique<OverlapGroup>(overlap_group(*platform_, tp_));
    const auto key = std::make_tuple(static_cast<int>(p.op), p.m, p.n, p.k);
    auto it = pairs_.find(key);
    if (it == pairs_.end()) it = pairs_.emplace(key, models::predict_overlap(p, group_->machine, params_)).first;
    const models::OverlapPrediction& pred = it->second;
    switch (strategy) {
      case TrainingOverlap::sequential: return pred.strategies[0].time_s;
      case TrainingOverlap::intrafusion: return std::min(pred.strategies[1].time_s, pred.strategies[2].time_s);
      case TrainingOverlap::interdecom: return pred.strategies[3].time_s;
      case TrainingOverlap::automatic: return pred.best_time_s;
      case TrainingOverlap::none: break;
    }
    throw std::logic_error("pair_s without an overlap strategy");
  }

  const Platform& platform() const { return *platform_; }

 private:
  Engine engine_;
  std::unique_ptr<Platform> platform_;
  int tp_;
  std::map<std::pair<CollectiveOp, double>, double> collectives_;
  std::unique_ptr<OverlapGroup> group_;
  models::OverlapParams params_;
  std::map<std::tuple<int, int64_t, int64_t, int64_t>, models::OverlapPrediction> pairs_;
};

// One simulated step, kept whole for its trace.
struct SimulatedStep {
  Engine engine;
  std::unique_ptr<Platform> platform;
  TrainingLayout layout;
  TrainingStep step;
  std::unique_ptr<StepGraphRun> run;
  TrainingMetrics metrics;
};

std::unique_ptr<SimulatedStep> simulate_training_layout(const Scenario& sc, const ExperimentContext& ctx,
                                                        const TrainingLayout& layout, const TrainingPricing& pricing) {
  auto sim = std::make_unique<SimulatedStep>();
  sim->platform = ctx.make_platform(sim->engine, sc.hardware, nullptr);
  sim->layout = layout;
  sim->step = build_training_step(sc.training.config, layout, pricing);
  sim->run = std::make_unique<StepGraphRun>(*sim->platform, sim->step.graph);
  sim->run->start();
  sim->engine.run();
  if (!sim->run->finished()) throw std::logic_error("training step: the step graph did not finish");
  sim->metrics = training_metrics(sc.training.config, sim->step, *sim->run);
  return sim;
}

std::vector<TrainingLayout> candidate_layouts(const TrainingConfig& c) {
  std::vector<int64_t> batches;
  const int64_t per_replica = c.global_batch / c.dp;
  if (c.micro_batch > 0) {
    batches.push_back(c.micro_batch);
  } else {
    for (int64_t b = 1; b <= std::min<int64_t>(per_replica, 16); ++b)
      if (per_replica % b == 0 && (c.model.seq_len * b) % c.tp == 0) batches.push_back(b);
  }
  std::vector<std::pair<PipelineSchedule, int64_t>> schedules;
  if (c.schedule == PipelineSchedule::automatic) {
    schedules.push_back({PipelineSchedule::one_f_one_b, 1});
    if (c.pp > 1) {
      schedules.push_back({PipelineSchedule::gpipe, 1});
      for (int64_t v = 2; v <= c.virtual_stages; ++v)
        if (c.model.layers % (c.pp * v) == 0 && (c.model.layers / (c.pp * v)) % c.model.moe.every == 0)
          schedules.push_back({PipelineSchedule::interleaved, v});
    }
  } else {
    schedules.push_back({c.schedule, c.schedule == PipelineSchedule::interleaved ? c.virtual_stages : 1});
  }
  std::vector<TrainingLayout> out;
  for (int64_t b : batches)
    for (const auto& [s, v] : schedules)
      if (s != PipelineSchedule::interleaved || (per_replica / b) % c.pp == 0) out.push_back({b, s, v});
  return out;
}

double peak_memory(const std::vector<StageMemory>& stages, size_t* at = nullptr) {
  double peak = 0;
  for (size_t i = 0; i < stages.size(); ++i)
    if (stages[i].total_bytes() > peak) {
      peak = stages[i].total_bytes();
      if (at != nullptr) *at = i;
    }
  return peak;
}

std::string layout_name(const TrainingLayout& l) {
  return l.schedule == PipelineSchedule::interleaved ? fmt::format("micro_batch {}, interleaved v={}", l.micro_batch, l.virtual_stages)
                                                     : fmt::format("micro_batch {}, {}", l.micro_batch, to_string(l.schedule));
}

[[noreturn]] void fail_memory(const Scenario& sc, const TrainingLayout& l, double capacity) {
  const auto mem = training_memory(sc.training.config, l.micro_batch, l.schedule, l.virtual_stages);
  size_t at = 0;
  const double peak = peak_memory(mem, &at);
  const StageMemory& m = mem[at];
  throw InputError(sc.training.micro_batch_where, "workload.micro_batch",
                   fmt::format("the layout does not fit in GPU memory: with {} stage {} needs {:.1f} GB per GPU "
                               "(weights {:.1f}, gradients {:.1f}, optimizer {:.1f}, activations {:.1f}), the GPU has "
                               "{:.1f} GB; try recompute: full or selective, a larger tp or pp, "
                               "gradient_reduce: reduce_scatter, or a smaller micro_batch",
                               layout_name(l), at, peak / 1e9, m.weights_bytes / 1e9, m.gradients_bytes / 1e9,
                               m.optimizer_bytes / 1e9, m.activations_bytes / 1e9, capacity / 1e9));
}

}  // namespace

Result run_training(const Scenario& sc, const ExperimentContext& ctx) {
  const WallClock clock;
  const TrainingConfig& c = sc.training.config;
  const auto tp = static_cast<int>(c.tp);
  TpPrices prices(ctx, sc.hardware, tp);
  const GpuSpec& gpu = prices.platform().gpu(0);
  TrainingPricing pricing;
  pricing.gpu = {prices.platform().device_rates(0), gpu_limits_for(gpu.model), data_type("bf16")};
  pricing.tp_collective_s = [&prices](CollectiveOp op, double bytes) { return prices.collective_s(op, bytes); };
  if (c.overlap != TrainingOverlap::none)
    pricing.pair_s = [&prices, &c](const models::OverlapProblem& p) { return prices.pair_s(p, c.overlap); };

  // Candidate layouts that fit, each simulated; the fastest kept (ties: the earlier candidate).
  const auto capacity = static_cast<double>(gpu.memory_bytes);
  const std::vector<TrainingLayout> candidates = candidate_layouts(c);
  if (candidates.empty())
    throw InputError(sc.training.micro_batch_where, "workload.micro_batch",
                     "no micro-batch size and schedule can run this layout (micro-batches per replica vs pp)");
  nlohmann::ordered_json search = nlohmann::ordered_json::array();
  std::unique_ptr<SimulatedStep> best;
  size_t tried = 0;
  for (const TrainingLayout& l : candidates) {
    const double need = peak_memory(training_memory(c, l.micro_batch, l.schedule, l.virtual_stages));
    nlohmann::ordered_json row;
    row["micro_batch"] = l.micro_batch;
    row["schedule"] = to_string(l.schedule);
    row["virtual_stages"] = l.virtual_stages;
    row["memory_per_gpu_bytes"] = need;
    row["fits"] = need <= capacity;
    if (need <= capacity) {
      std::unique_ptr<SimulatedStep> sim = simulate_training_layout(sc, ctx, l, pricing);
      row["step_time_s"] = sim->metrics.step_time_s;
      if (!best || sim->metrics.step_time_s < best->metrics.step_time_s) best = std::move(sim);
    }
    search.push_back(row);
    ++tried;
    if (ctx.progress != nullptr) ctx.progress->report(static_cast<double>(tried) / static_cast<double>(candidates.size() + 1));
  }
  if (!best) fail_memory(sc, candidates.front(), capacity);

  // The overlap models' own baseline on the chosen layout: every pair sequential.
  double sequential_s = 0;
  if (c.overlap != TrainingOverlap::none) {
    TrainingPricing seq = pricing;
    seq.pair_s = [&prices](const models::OverlapProblem& p) { return prices.pair_s(p, TrainingOverlap::sequential); };
    sequential_s = simulate_training_layout(sc, ctx, best->layout, seq)->metrics.step_time_s;
  }

  const TrainingMetrics& m = best->metrics;
  const std::vector<StageMemory> memory = training_memory(c, best->layout.micro_batch, best->layout.schedule,
                                                          best->layout.virtual_stages);
  Result r;
  nlohmann::ordered_json& s = r.summary;
  s = policy_summary_header(sc, "training");
  s["model"] = {{"layers", c.model.layers}, {"hidden", c.model.hidden}, {"heads", c.model.heads},
                {"seq_len", c.model.seq_len}, {"vocab", c.model.vocab}, {"parameters", model_parameters(c.model)}};
  s["parallel"] = {{"tp", c.tp}, {"pp", c.pp}, {"dp", c.dp}};
  if (c.model.moe.experts > 0) {
    s["model"]["moe"] = {{"experts", c.model.moe.experts}, {"top_k", c.model.moe.top_k}, {"every", c.model.moe.every},
                         {"capacity_factor", c.model.moe.capacity_factor}};
    s["parallel"]["ep"] = c.ep;
  }
  s["gpus"] = c.tp * c.pp * c.dp;
  s["gpu_model"] = gpu.model;
  s["global_batch"] = c.global_batch;
  s["micro_batch"] = best->layout.micro_batch;
  s["micro_batches"] = best->step.microbatches;
  s["schedule"] = to_string(best->layout.schedule);
  s["virtual_stages"] = best->layout.virtual_stages;
  s["recompute"] = to_string(c.recompute);
  s["gradient_reduce"] = to_string(c.gradient_reduce);
  s["overlap_strategy"] = to_string(c.overlap);
  s["step_time_s"] = m.step_time_s;
  s["tflops_per_gpu"] = m.tflops_per_gpu;
  s["model_tflops_per_gpu"] = m.model_tflops_per_gpu;
  s["flops_per_step"] = m.flops;
  s["bubble_fraction"] = m.bubble_fraction;
  s["memory_per_gpu_bytes"] = peak_memory(memory);
  s["gpu_memory_bytes"] = capacity;
  if (c.overlap != TrainingOverlap::none) {
    s["step_time_sequential_s"] = sequential_s;
    s["overlap_speedup"] = m.step_time_s > 0 ? sequential_s / m.step_time_s : 0.0;
  }
  s["simulated_ranks"] = "one GPU per pipeline stage (TP rank 0 of replica 0); the rest by symmetry";
  s["step_tasks"] = best->step.graph.tasks.size();
  nlohmann::ordered_json& stages = s["stages"];
  stages = nlohmann::ordered_json::array();
  for (size_t i = 0; i < m.stages.size(); ++i) {
    const StageMemory& mem = memory[i];
    stages.push_back({{"stage", i},
                      {"gpu", best->run->gpu_of(best->step.stage_ranks[i])},
                      {"compute_s", m.stages[i].compute_s},
                      {"exposed_comm_s", m.stages[i].exposed_comm_s},
                      {"idle_s", m.stages[i].idle_s},
                      {"weights_bytes", mem.weights_bytes},
                      {"gradients_bytes", mem.gradients_bytes},
                      {"optimizer_bytes", mem.optimizer_bytes},
                      {"activations_bytes", mem.activations_bytes},
                      {"memory_bytes", mem.total_bytes()}});
    if (c.model.moe.experts > 0) stages.back()["expert_parameters"] = mem.expert_parameters;
  }
  if (candidates.size() > 1) s["layout_search"] = search;
  r.timing = timing_json(clock.elapsed_s(), m.step_time_s);
  ConsoleTable table{{"stage", "GPU", "compute s", "exposed comm s", "idle s", "memory GB"}, {}, {}};
  for (size_t i = 0; i < m.stages.size(); ++i)
    table.rows.push_back({fmt::format("{}", i), fmt::format("{}", best->run->gpu_of(best->step.stage_ranks[i])),
                          fmt::format("{:.4f}", m.stages[i].compute_s), fmt::format("{:.4f}", m.stages[i].exposed_comm_s),
                          fmt::format("{:.4f}", m.stages[i].idle_s), fmt::format("{:.1f}", memory[i].total_bytes() / 1e9)});
  r.console.push_back(summary_console_table(s));
  r.console.push_back(std::move(table));
  // The chosen step's every rank, for `kind: chakra` (the cross-check in docs/chakra.md).
  if (!ctx.chakra_out.empty()) write_chakra_dir(every_rank_step(best->step, c).graph, ctx.chakra_out, "training");
  if (ctx.outputs()) {
    r.stale.push_back("trace.json");
    if (sc.output.trace)
      r.files.push_back(trace_file(sc, step_activity_log(best->step.graph, *best->run, best->step.stage_ranks, gpu.model)));
  }
  return r;
}

HtmlReport training_page(const Scenario&, const Result& r) {
  HtmlReport page = generic_report_page(r.summary, "training");
  ReportTable stages{"Stages",
                     "Per pipeline stage, on its representative GPU: compute, exposed communication and idle time "
                     "of the step, and memory per GPU (docs/training.md).",
                     {},
                     {}};
  for (const auto& st : r.summary.at("stages")) {
    std::vector<std::string> row;
    for (const auto& [key, value] : st.items()) {
      if (stages.rows.empty()) stages.header.push_back(key);
      row.push_back(format_report_value(value));
    }
    stages.rows.push_back(std::move(row));
  }
  if (!stages.rows.empty()) page.tables.push_back(std::move(stages));
  return page;
}

}  // namespace parallax
