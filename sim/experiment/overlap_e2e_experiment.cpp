// File: sim/experiment/overlap_e2e_experiment.cpp
// End-to-end step times, baseline vs selector, analytic and DES (overlap_e2e_experiment.h).
#include "sim/experiment/overlap_e2e_experiment.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/layer_step_cost.h"
#include "models/megatron_layer.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/overlap/layer_schedule.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/report_pages.h"
#include "sim/report/run_timing.h"
#include "sim/experiment/overlap_des.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"
#include "sim/experiment/version.h"

namespace parallax {

namespace {

using models::LayerPass;
using models::OverlapStrategy;

struct OpDes {
  double baseline_s = 0, selected_s = 0;
};

struct E2eResult {
  models::GptLayerSpec model;
  int64_t tp = 0;
  std::vector<models::LayerOp> ops;
  models::LayerStepCost analytic;
  std::vector<OpDes> des;  // per op
  double des_fwd_baseline_s = 0, des_bwd_baseline_s = 0, des_fwd_selected_s = 0, des_bwd_selected_s = 0;
  double des_step_baseline_s = 0, des_step_selected_s = 0, des_speedup = 1;
};

// Both plans op by op; a lone kernel or a pair the selector leaves sequential runs once. With
// `log`, the baseline layer and then the selected layer are appended to it.
// With `log`, every op's baseline and selected schedule go into it, and `op_starts` (if set) gets
// the position in log->records where each of those runs begins (the baselines first).
void simulate_layer(const HardwareSpec& hw, const OverlapGroup& g, const models::OverlapParams& params,
                    E2eResult& r, ActivityLog* log, std::vector<size_t>* op_starts = nullptr) {
  const auto mark = [&] {
    if (log != nullptr && op_starts != nullptr) op_starts->push_back(log->records.size());
  };
  r.des.assign(r.ops.size(), {});
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const models::LayerOp& op = r.ops[i];
    mark();
    r.des[i].baseline_s =
        run_overlap_schedule_s(hw, layer_op_schedule(op, g, params, OverlapStrategy::sequential, 1), log);
  }
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const models::LayerOpCost& c = r.analytic.ops[i];
    const bool same = !r.ops[i].pair || c.selected == OverlapStrategy::sequential;
    mark();
    r.des[i].selected_s =
        same && log == nullptr
            ? r.des[i].baseline_s
            : run_overlap_schedule_s(hw, layer_op_schedule(r.ops[i], g, params, c.selected, std::max<int64_t>(c.degree, 1)),
                                     log);
  }
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const bool fwd = r.ops[i].pass == LayerPass::forward;
    (fwd ? r.des_fwd_baseline_s : r.des_bwd_baseline_s) += r.des[i].baseline_s;
    (fwd ? r.des_fwd_selected_s : r.des_bwd_selected_s) += r.des[i].selected_s;
  }
  const double layers = static_cast<double>(r.model.layers);
  r.des_step_baseline_s = layers * (r.des_fwd_baseline_s + r.des_bwd_baseline_s);
  r.des_step_selected_s = layers * (r.des_fwd_selected_s + r.des_bwd_selected_s);
  r.des_speedup = r.des_step_baseline_s / r.des_step_selected_s;
}

std::string e2e_fmt_s(double v) { return fmt::format("{:.9g}", v); }

std::string results_csv(const std::string& hw, const std::vector<E2eResult>& rs) {
  std::ostringstream o;
  o << "hardware,model,hidden,heads,layers,seq_len,micro_batch,tp,"
       "fwd_baseline_analytic_s,bwd_baseline_analytic_s,step_baseline_analytic_s,"
       "fwd_selected_analytic_s,bwd_selected_analytic_s,step_selected_analytic_s,speedup_analytic,"
       "step_baseline_des_s,step_selected_des_s,speedup_des,pairs_overlapped\n";
  for (const E2eResult& r : rs) {
    const models::LayerStepCost& a = r.analytic;
    int overlapped = 0;
    for (const models::LayerOpCost& c : a.ops) overlapped += c.op->pair && c.selected != OverlapStrategy::sequential;
    o << hw << ',' << r.model.name << ',' << r.model.hidden << ',' << r.model.heads << ',' << r.model.layers << ','
      << r.model.seq_len << ',' << r.model.micro_batch << ',' << r.tp << ',' << e2e_fmt_s(a.forward_baseline_s) << ','
      << e2e_fmt_s(a.backward_baseline_s) << ',' << e2e_fmt_s(a.step_baseline_s) << ',' << e2e_fmt_s(a.forward_selected_s) << ','
      << e2e_fmt_s(a.backward_selected_s) << ',' << e2e_fmt_s(a.step_selected_s) << ',' << e2e_fmt_s(a.speedup) << ','
      << e2e_fmt_s(r.des_step_baseline_s) << ',' << e2e_fmt_s(r.des_step_selected_s) << ',' << e2e_fmt_s(r.des_speedup) << ','
      << overlapped << '\n';
  }
  return o.str();
}

std::string ops_csv(const std::string& hw, const std::vector<E2eResult>& rs) {
  std::ostringstream o;
  o << "hardware,model,tp,op,pass,pair,collective_op,baseline_analytic_s,selected,degree,selected_analytic_s,"
       "baseline_des_s,selected_des_s\n";
  for (const E2eResult& r : rs) {
    for (size_t i = 0; i < r.ops.size(); ++i) {
      const models::LayerOp& op = r.ops[i];
      const models::LayerOpCost& c = r.analytic.ops[i];
      o << hw << ',' << r.model.name << ',' << r.tp << ',' << op.label << ','
        << (op.pass == LayerPass::forward ? "forward" : "backward") << ',' << (op.pair ? 1 : 0) << ','
        << (op.pair ? models::to_string(op.problem.op) : "none") << ',' << e2e_fmt_s(c.baseline_s) << ','
        << (op.pair ? models::to_string(c.selected) : "kernel") << ',' << c.degree << ',' << e2e_fmt_s(c.selected_s)
        << ',' << e2e_fmt_s(r.des[i].baseline_s) << ',' << e2e_fmt_s(r.des[i].selected_s) << '\n';
    }
  }
  return o.str();
}

}  // namespace

Result run_overlap_end_to_end(const Scenario& sc, const ExperimentContext& ctx) {
  models::OverlapParams params;
  params.max_degree = sc.overlap.max_degree;
  params.default_degree = sc.overlap.default_degree;
  std::vector<E2eResult> results;
  double analytic_wall_s = 0, des_wall_s = 0;
  for (const OverlapModelSpec& m : sc.overlap.models) {
    for (int64_t tp : sc.overlap.tp) {
      E2eResult r;
      r.model = {m.name, m.hidden, m.heads, m.layers, sc.overlap.seq_len, sc.overlap.micro_batch, 2};
      r.tp = tp;
      Engine routes_engine;  // the group's rings are asked of the machine's paths
      SimPlatform machine(routes_engine, sc.hardware);
      const OverlapGroup g = overlap_group(machine, tp);
      const auto t0 = std::chrono::steady_clock::now();
      r.ops = models::megatron_layer_ops(r.model, tp, g.machine.gpu);
      r.analytic = models::layer_step_cost(r.ops, r.model.layers, g.machine, params);
      const auto t1 = std::chrono::steady_clock::now();
      simulate_layer(sc.hardware, g, params, r, nullptr);
      des_wall_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
      analytic_wall_s += std::chrono::duration<double>(t1 - t0).count();
      results.push_back(std::move(r));
      if (ctx.progress != nullptr)
        ctx.progress->report(static_cast<double>(results.size()) /
                                 static_cast<double>(sc.overlap.models.size() * sc.overlap.tp.size()));
    }
  }

  // summary.json (docs/overlap.md §End-to-end).
  double a_min = std::numeric_limits<double>::infinity(), a_max = 0, d_min = a_min, d_max = 0, err_max = 0;
  const E2eResult* best = nullptr;
  for (const E2eResult& r : results) {
    a_min = std::min(a_min, r.analytic.speedup);
    d_min = std::min(d_min, r.des_speedup);
    d_max = std::max(d_max, r.des_speedup);
    if (best == nullptr || r.analytic.speedup > a_max) {
      a_max = r.analytic.speedup;
      best = &r;
    }
    err_max = std::max({err_max, std::abs(r.des_step_baseline_s / r.analytic.step_baseline_s - 1.0),
                        std::abs(r.des_step_selected_s / r.analytic.step_selected_s - 1.0)});
  }
  Result out;
  nlohmann::ordered_json& summary = out.summary;
  summary["scenario"] = sc.name;
  summary["hardware"] = sc.hardware.name;
  summary["parallax_version"] = kParallaxVersion;
  summary["git_commit"] = kParallaxGitCommit;
  summary["mode"] = "end_to_end";
  summary["configs"] = results.size();
  summary["seq_len"] = sc.overlap.seq_len;
  summary["micro_batch"] = sc.overlap.micro_batch;
  summary["speedup_analytic_min"] = results.empty() ? 0.0 : a_min;
  summary["speedup_analytic_max"] = a_max;
  summary["speedup_analytic_max_model"] = best != nullptr ? best->model.name : "";
  summary["speedup_analytic_max_tp"] = best != nullptr ? best->tp : 0;
  summary["speedup_des_min"] = results.empty() ? 0.0 : d_min;
  summary["speedup_des_max"] = d_max;
  summary["des_vs_analytic_step_error_max"] = err_max;
  summary["paper_speedup_max"] = 1.42;  // Compass abstract: end-to-end up to 1.42× over Megatron-LM
  summary["trace_config"] = sc.overlap.trace_config;
  out.timing = timing_json(analytic_wall_s + des_wall_s);
  out.timing["analytic_wall_s"] = analytic_wall_s;
  out.timing["des_wall_s"] = des_wall_s;
  out.console.push_back(summary_console_table(summary));

  if (ctx.outputs()) {
    out.stale.push_back("trace.json");
    out.files.push_back({"results.csv", results_csv(sc.hardware.name, results), {}});
    out.files.push_back({"ops.csv", ops_csv(sc.hardware.name, results), {}});
    const auto traced = static_cast<size_t>(sc.overlap.trace_config);
    if (sc.output.trace && traced < results.size()) {
      E2eResult copy = results[traced];
      auto shared = std::make_shared<ActivityLog>();
      ActivityLog& log = *shared;
      std::vector<size_t> op_starts;  // where each (pass, op) run begins in log.records
      Engine routes_engine;
      SimPlatform machine(routes_engine, sc.hardware);
      simulate_layer(sc.hardware, overlap_group(machine, copy.tp), params, copy, &log, &op_starts);
      TraceAnnotations notes;  // a phase per op run: the baselines, then the selected strategies
      for (size_t i = 0; i < op_starts.size(); ++i) {
        const size_t op = i % copy.ops.size();
        const std::string what =
            i < copy.ops.size() ? std::string("baseline")
                                : fmt::format("selected {}", models::to_string(copy.analytic.ops[op].selected));
        notes.phases.push_back(log_phase(fmt::format("{} {}", copy.ops[op].label, what), log, op_starts[i],
                                         i + 1 < op_starts.size() ? op_starts[i + 1] : log.records.size()));
      }
      out.files.push_back(trace_file(sc, std::move(shared), std::move(notes)));
    }
  }
  return out;
}

HtmlReport overlap_e2e_page(const Scenario&, const Result& r) {
  return overlap_e2e_report_page(r.summary, r.table("results.csv"), r.table("ops.csv"));
}

}  // namespace parallax
