// File: sim/experiment/colocate_experiment.cpp
// workload.kind == colocate: runs the LS service and the BE job on the scenario's first GPU once per
// listed policy; summary.json has every policy under `policies.<name>` (docs/colocate.md), trace.json
// and kernels.csv the kernels of `trace_policy`, each on its partition's track.
#include "sim/experiment/experiment.h"
#include "sim/report/report_pages.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/colocate/colocation_comparison.h"
#include "sim/policies/colocate/colocation_kernels.h"
#include "sim/policies/colocate/colocation_node.h"
#include "sim/policies/colocate/colocation_presets.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/time_bins.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/scenario/model_catalog_reader.h"
#include "sim/workload/arrival_process.h"
#include "sim/experiment/colocate_series.h"
#include "sim/report/run_timing.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"

namespace parallax {

namespace {

// kernels.csv: every kernel of the traced policy with its partition, SMs, isolated time and
// slowdown (actual / isolated on the whole GPU), in launch order.
std::string kernels_csv(const ColocationNode& node, const ActivityLog& log) {
  std::unordered_map<uint64_t, const ActivityRecord*> by_id;
  for (const ActivityRecord& r : log.records) by_id.emplace(r.id, &r);
  std::string out = "id,tenant,kernel,partition,sms,start_s,end_s,solo_s,slowdown,alpha,eviction_wait_s\n";
  for (const ColocationKernelNote& n : node.kernel_notes()) {
    const auto it = by_id.find(n.activity);
    if (it == by_id.end()) continue;
    const ActivityRecord& r = *it->second;
    const double d = (r.end - r.start).to_seconds();
    out += fmt::format("{},{},{},{},{},{:.9f},{:.9f},{:.9f},{:.4f},{:.4f},{:.9f}\n", r.id, n.ls ? "ls" : "be", r.name,
                       r.partition.empty() ? "gpu" : r.partition, n.sms, r.start.to_seconds(), r.end.to_seconds(),
                       n.solo_s, n.solo_s > 0 ? d / n.solo_s : 0.0, n.alpha, n.wait_s);
  }
  return out;
}

// trace.json's additions for the traced policy: each LS request as a slice with arrows to its
// kernels, and counters on gpu0 stepping at every kernel start: the SMs it was given and its
// slowdown (actual / isolated on the whole GPU, as in kernels.csv), for LS and BE apart. Every
// kernel goes on gpu0's "LS kernels" or "BE kernels" thread, whatever partitions the policy made,
// and its slice carries its partition (the platform's arg) and, from here, the kernels.csv
// columns: sms, solo_s, slowdown, alpha and eviction_wait_s (docs/colocate.md, Timeline).
TraceAnnotations annotations_of(const ColocationNode& node, const ActivityLog& log) {
  TraceAnnotations a;
  const std::span<const Time> arrivals = node.arrivals();
  for (size_t i = 0; i < arrivals.size(); ++i) {
    if (node.finish_s()[i] < 0) continue;
    a.requests.push_back({"LS requests", fmt::format("req {}", i), arrivals[i], Time::seconds(node.finish_s()[i]),
                          node.request_activities()[i]});
  }
  std::unordered_map<uint64_t, const ActivityRecord*> by_id;
  for (const ActivityRecord& r : log.records) by_id.emplace(r.id, &r);
  TraceCounter sms[2] = {{"gpu0", "BE kernel SMs", "SMs", {}}, {"gpu0", "LS kernel SMs", "SMs", {}}};
  TraceCounter slow[2] = {{"gpu0", "BE kernel slowdown", "x", {}}, {"gpu0", "LS kernel slowdown", "x", {}}};
  for (const ColocationKernelNote& n : node.kernel_notes()) {
    const auto it = by_id.find(n.activity);
    if (it == by_id.end()) continue;
    const ActivityRecord& r = *it->second;
    const double slowdown = n.solo_s > 0 ? (r.end - r.start).to_seconds() / n.solo_s : 0;
    sms[n.ls].samples.push_back({r.start, static_cast<double>(n.sms)});
    slow[n.ls].samples.push_back({r.start, slowdown});
    a.activity_args.push_back({n.activity,
                               {{"sms", static_cast<double>(n.sms)}, {"solo_s", n.solo_s}, {"slowdown", slowdown}, {"alpha", n.alpha},
                                {"eviction_wait_s", n.wait_s}},
                               n.ls ? "LS kernels" : "BE kernels"});
  }
  for (TraceCounter* c : {&sms[1], &slow[1], &sms[0], &slow[0]}) {
    std::stable_sort(c->samples.begin(), c->samples.end(),
                     [](const TraceCounterSample& x, const TraceCounterSample& y) { return x.at < y.at; });
    if (!c->samples.empty()) a.counters.push_back(std::move(*c));
  }
  return a;
}

nlohmann::ordered_json to_json(const ColocationMetrics& m, double ls_solo_s, const PolicyOutcome& o, double slo_target) {
  nlohmann::ordered_json j;
  j["ls_requests_arrived"] = m.ls_arrived;
  j["ls_requests_finished"] = m.ls_finished;
  j["ls_slo_attainment"] = m.ls_slo_attainment;
  j["meets_slo_target"] = m.ls_slo_attainment >= slo_target;
  j["ls_p50_latency_s"] = m.ls_p50_latency_s;
  j["ls_p99_latency_s"] = m.ls_p99_latency_s;
  j["ls_mean_latency_s"] = m.ls_mean_latency_s;
  j["ls_solo_latency_s"] = ls_solo_s;
  j["be_throughput"] = m.be_throughput;
  j["be_work_units"] = m.be_work_units;
  j["be_kernels"] = m.be_kernels;
  j["overall_throughput"] = o.overall_throughput;
  j["sm_utilisation"] = m.sm_utilisation;
  j["hbm_utilisation"] = m.hbm_utilisation;
  j["makespan_s"] = m.makespan_s;
  return j;
}

nlohmann::ordered_json to_json(const BaselineRatio& r) {
  nlohmann::ordered_json j;
  j["baseline"] = r.baseline;
  j["baseline_meets_slo_target"] = r.baseline_meets_slo;
  j["be_throughput_ratio"] = r.be_throughput_ratio;
  j["overall_throughput_ratio"] = r.overall_throughput_ratio;
  return j;
}

nlohmann::ordered_json to_json(const ColocationComparison& c) {
  nlohmann::ordered_json j;
  j["policy"] = c.policy;
  j["meets_slo_target"] = c.meets_slo;
  j["best_baseline_meeting_slo"] = c.best_meeting_slo ? to_json(*c.best_meeting_slo) : nlohmann::ordered_json();
  nlohmann::ordered_json& all = j["vs"];
  all = nlohmann::ordered_json::array();
  for (const BaselineRatio& r : c.baselines) all.push_back(to_json(r));
  return j;
}

// The paper's headline (SGDRC, REFERENCE.md §6.6), printed beside the pairs table.
constexpr const char* kSgdrcHeadline =
    "SGDRC paper: 99.0% LS SLO attainment, up to 1.47x overall and 2.36x BE throughput over the best baseline";

// One pair's policy outcome, for summary.json's `pairs` and the pairs table.
nlohmann::ordered_json pair_policy_json(const PolicyOutcome& o) {
  nlohmann::ordered_json j;
  j["ls_slo_attainment"] = o.ls_slo_attainment;
  j["be_throughput"] = o.be_throughput;
  j["overall_throughput"] = o.overall_throughput;
  return j;
}

}  // namespace

Result run_colocate(const Scenario& sc, const ExperimentContext& ctx) {
  const WallClock clock;
  const ColocateWorkloadSpec& w = sc.colocate;
  const GpuSpec& gpu = sc.hardware.gpus.at(0);
  const GpuPartitioning& parts = gpu_partitioning_for(gpu.model);
  RandomStreams streams(sc.seed);
  // The GPU's rates as the platform reports them (its per-SM bandwidth cap and η_c included).
  const DeviceRates rates = device_rates_of(gpu);
  const GpuLimits limits = gpu_limits_for(gpu.model);

  ColocationPolicyOptions o;
  o.static_ls_sms = w.static_ls_sms;
  o.mig_ls = {w.mig_ls_profile, w.mig_ls_start};
  o.mig_be = {w.mig_be_profile, w.mig_be_start};
  o.mps_be_percentage = w.mps_be_percentage;
  o.sgdrc_eviction = w.sgdrc_eviction == "block" ? SgdrcEviction::block : SgdrcEviction::kernel;

  Result out;
  nlohmann::ordered_json& summary = out.summary;
  summary = policy_summary_header(sc, "colocate");
  summary["ls_model"] = w.ls_model;
  summary["ls_batch"] = w.ls_batch;
  summary["ls_arrivals_kind"] = w.ls_arrivals.kind;
  summary["ls_slo_s"] = w.ls_slo_s;
  summary["be_model"] = w.be_model;
  summary["be_batch"] = w.be_batch;
  summary["duration_s"] = w.duration_s;
  summary["slo_target"] = w.slo_target;
  summary["sgdrc_eviction"] = w.sgdrc_eviction;
  summary["bw_per_sm_GBps"] = rates.bw_per_sm_Bps * 1e-9;
  summary["kernel_dtype"] = "fp16";
  summary["overall_throughput_unit"] = "samples per second (LS requests x LS batch + BE batches x BE batch)";
  summary["be_throughput_unit"] = "BE batches per second";
  const auto shared_log = std::make_shared<ActivityLog>();
  ActivityLog& trace_log = *shared_log;
  // timeline.csv and ls_latency.csv (sim/experiment/colocate_series.h): every policy, the same bins.
  const bool series = ctx.outputs();
  const double bin_s = time_bin_width_s(w.duration_s, kColocateTimelineBins);
  std::string timeline = kColocateTimelineHeader, latency = kLsLatencyHeader;
  ConsoleTable table{{"policy", "LS p50 ms", "LS p99 ms", "SLO %", "arrived", "BE batch/s", "SM %", "HBM %"}, {}, {}};
  nlohmann::ordered_json pairs_json = nlohmann::ordered_json::array();
  ConsoleTable pairs_table{{"LS", "BE"}, {}, {}};
  for (const std::string& name : w.policies) pairs_table.header.push_back(name + " SLO% / BE/s");
  const double runs = static_cast<double>(w.policies.size() * w.pairs.size());
  int run_index = 0;
  std::vector<PolicyOutcome> first_outcomes;
  for (size_t pi = 0; pi < w.pairs.size(); ++pi) {
    const ColocatePair& pair = w.pairs[pi];
    // The first pair is the scenario's main one: its arrivals stream keeps the single-pair name,
    // its kernels go to the trace and the timeline, its policies to summary.json's `policies`.
    const bool main_pair = pi == 0;
    const std::vector<Time> arrivals = [&] {
      const std::string stream = main_pair ? "colocate.ls_arrivals" : fmt::format("colocate.pair{}.ls_arrivals", pi);
      auto process = make_arrival_process(pair.ls_arrivals, streams.stream(stream));
      return arrivals_until(*process, Time::seconds(w.duration_s));
    }();
    ColocationSetup setup;
    setup.ls_kernels = colocation_kernels(pair.ls_model, pair.ls_batch, rates, limits);
    setup.be_kernels = colocation_kernels(pair.be_model, pair.be_batch, rates, limits);
    setup.be_resident_bytes = colocation_resident_bytes(pair.be_model);
    setup.ls_slo = Time::seconds(pair.ls_slo_s);
    setup.slo_target = w.slo_target;
    setup.be_stop = Time::seconds(w.duration_s);
    setup.interference = w.interference;
    if (main_pair) {
      summary["ls_requests"] = arrivals.size();
      summary["ls_mean_rate_per_s"] = static_cast<double>(arrivals.size()) / w.duration_s;
    }
    std::vector<PolicyOutcome> outcomes;
    nlohmann::ordered_json pair_policies;
    std::vector<std::string> pair_row{fmt::format("{} b{}", pair.ls_model, pair.ls_batch),
                                      fmt::format("{} b{}", pair.be_model, pair.be_batch)};
    for (const std::string& name : w.policies) {
      Engine engine;
      const bool traced = main_pair && traces_policy(sc, ctx, name, w.trace_policy);
      const std::unique_ptr<Platform> platform = ctx.make_platform(engine, sc.hardware, traced ? &trace_log : nullptr, {parts});
      auto policy = make_colocation_policy(name, o);
      ColocationSetup policy_setup = setup;
      policy_setup.gpu = {0, platform->device_rates(0), &platform->partitioning(0)};
      policy_setup.record_kernels = traced;
      policy_setup.record_spans = series && main_pair;
      ColocationNode node(*platform, *policy, policy_setup);
      node.start(arrivals);
      run_engine_reporting(engine, Time::seconds(w.duration_s), ctx.progress, run_index / runs, 1.0 / runs);
      ++run_index;
      const ColocationMetrics m = node.metrics();
      if (m.ls_finished != m.ls_arrived)
        throw std::logic_error(fmt::format("colocate/{}: {} of {} LS requests never finished", name,
                                           m.ls_arrived - m.ls_finished, m.ls_arrived));
      const double be_window = std::max(w.duration_s, m.makespan_s);
      const PolicyOutcome outcome{name, m.ls_slo_attainment, m.be_throughput,
                                  (static_cast<double>(m.ls_finished) * pair.ls_batch + m.be_work_units * pair.be_batch) /
                                      be_window,
                                  policy->runs_be()};
      outcomes.push_back(outcome);
      pair_policies[name] = pair_policy_json(outcome);
      pair_row.push_back(fmt::format("{:.1f} / {:.1f}", m.ls_slo_attainment * 100, m.be_throughput));
      if (!main_pair) continue;
      nlohmann::ordered_json& pj = summary["policies"][name];
      pj = to_json(m, node.ls_request_solo_s(), outcome, w.slo_target);
      for (const auto& [key, value] : policy->stats()) pj["policy"][key] = value;
      if (series) {
        timeline += colocate_timeline_rows(name, node.kernel_spans(), m.makespan_s, bin_s, gpu.sms, gpu.hbm_Bps);
        latency += ls_latency_cdf_rows(name, m.ls_latencies_s);
      }
      if (traced) {
        TraceAnnotations notes = annotations_of(node, trace_log);
        notes.phases.push_back(log_phase("policy " + name, trace_log));
        out.files.push_back(trace_file(sc, shared_log, std::move(notes)));
        out.files.push_back({"kernels.csv", kernels_csv(node, trace_log), {}});
      }
      table.rows.push_back({name, fmt::format("{:.3f}", m.ls_p50_latency_s * 1e3),
                            fmt::format("{:.3f}", m.ls_p99_latency_s * 1e3), fmt::format("{:.2f}", m.ls_slo_attainment * 100),
                            fmt::format("{}", m.ls_arrived), fmt::format("{:.2f}", m.be_throughput),
                            fmt::format("{:.1f}", m.sm_utilisation * 100), fmt::format("{:.1f}", m.hbm_utilisation * 100)});
    }
    if (main_pair) first_outcomes = outcomes;
    nlohmann::ordered_json pj;
    pj["ls"] = pair.ls_model;
    pj["ls_batch"] = pair.ls_batch;
    pj["ls_slo_s"] = pair.ls_slo_s;
    pj["ls_requests"] = arrivals.size();
    pj["be"] = pair.be_model;
    pj["be_batch"] = pair.be_batch;
    pj["policies"] = std::move(pair_policies);
    if (const auto c = compare_with_baselines(outcomes, w.slo_target)) pj["comparison"] = to_json(*c);
    pairs_json.push_back(std::move(pj));
    pairs_table.rows.push_back(std::move(pair_row));
  }
  out.console.push_back(std::move(table));
  if (const auto c = compare_with_baselines(first_outcomes, w.slo_target)) {
    summary["comparison"] = to_json(*c);
    if (c->best_meeting_slo)
      out.console.push_back(
          {{}, {}, {fmt::format("{} vs {} (best baseline with SLO attainment >= {:.3g}): BE throughput {:.2f}x, overall {:.2f}x",
                                c->policy, c->best_meeting_slo->baseline, w.slo_target,
                                c->best_meeting_slo->be_throughput_ratio, c->best_meeting_slo->overall_throughput_ratio)}});
  }
  if (w.pairs_listed) {
    summary["pairs"] = std::move(pairs_json);
    pairs_table.notes.push_back(kSgdrcHeadline);
    out.console.push_back(std::move(pairs_table));
  }
  if (series) {
    out.files.push_back({"timeline.csv", std::move(timeline), {}});
    out.files.push_back({"ls_latency.csv", std::move(latency), {}});
  }
  if (ctx.outputs()) out.stale.push_back("kernels.csv");
  out.timing = timing_json(clock.elapsed_s());
  return out;
}

HtmlReport colocate_page(const Scenario&, const Result& r) {
  return colocate_report_page(r.summary, r.table("timeline.csv"), r.table("ls_latency.csv"));
}

}  // namespace parallax
