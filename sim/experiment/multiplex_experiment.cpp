// File: sim/experiment/multiplex_experiment.cpp
// workload.kind == multiplex: runs the services on the scenario's first GPU once per listed policy,
// with the same arrivals for every policy; summary.json has every policy under `policies.<name>`,
// per service under `services.<name>` (docs/multiplex.md); trace.json the kernels of
// `trace_policy`, each on its service's partition track; shares.csv, when the traced policy
// resizes shares (elastic), each change (time, service, SMs, bandwidth share); timeline.csv every
// policy's per-service utilisation in time bins (sim/experiment/multiplex_series.h).
#include <cstdio>
#include <memory>

#include "sim/experiment/experiment.h"
#include "sim/report/report_pages.h"

#include <fmt/format.h>

#include <stdexcept>

#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/multiplex/dynamic_mig_multiplex.h"
#include "sim/policies/multiplex/elastic_multiplex.h"
#include "sim/policies/multiplex/max_load_search.h"
#include "sim/policies/multiplex/multiplex_comparison.h"
#include "sim/policies/multiplex/multiplex_node.h"
#include "sim/policies/multiplex/multiplex_presets.h"
#include "sim/policies/multiplex/peak_rate.h"
#include "sim/policies/multiplex/rigid_mig_multiplex.h"
#include "sim/policies/multiplex/service_kernels.h"
#include "sim/policies/multiplex/static_multiplex.h"
#include "sim/report/time_bins.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/io/input_error.h"
#include "sim/workload/arrival_process.h"
#include "sim/experiment/multiplex_series.h"
#include "sim/report/run_timing.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"

namespace parallax {

namespace {

// The catalog model as tile-level kernels for every batch size 1..max_batch
// (sim/policies/multiplex/service_kernels.h).
ServiceModel service_model(const MultiplexServiceSpec& spec, double mean_rate_per_s, const DeviceRates& rates,
                           const GpuLimits& limits) {
  ServiceModel s;
  s.name = spec.name;
  s.rate_per_s = mean_rate_per_s;
  s.batcher = {spec.max_batch, Time::seconds(spec.timeout_s), Time::seconds(spec.slo_s)};
  s.memory_bytes = spec.weight_bytes;
  s.kernels_by_batch = service_kernels(spec.model, spec.max_batch, rates, limits);
  return s;
}

nlohmann::ordered_json to_json(const ServiceMetrics& s) {
  nlohmann::ordered_json j;
  j["requests_arrived"] = s.arrived;
  j["requests_finished"] = s.finished;
  j["requests_within_slo"] = s.within_slo;
  j["throughput_rps"] = s.throughput_rps;
  j["goodput_rps"] = s.goodput_rps;
  j["slo_attainment"] = s.slo_attainment;
  j["batches"] = s.batches;
  j["mean_batch_fill"] = s.mean_batch_fill;
  j["mean_batch_size"] = s.mean_batch_size;
  j["instance_saturation"] = s.instance_saturation;
  j["sm_saturation"] = s.sm_saturation;
  j["hbm_saturation"] = s.hbm_saturation;
  j["p50_latency_s"] = s.p50_latency_s;
  j["p99_latency_s"] = s.p99_latency_s;
  j["mean_latency_s"] = s.mean_latency_s;
  return j;
}

// Two counters per service in the traced policy's GPU process: its SMs and its HBM share (%) over
// time. Static policies hold their nominal share for the whole run; elastic starts (and ends) with
// every service idle at its floor and changes at every resize.
TraceAnnotations share_counters(const std::vector<ServiceModel>& services, const MultiplexPolicy& policy,
                                const std::vector<ShareChange>& changes, const MultiplexGpu& gpu) {
  TraceAnnotations notes;
  const bool elastic = dynamic_cast<const ElasticMultiplex*>(&policy) != nullptr;
  const auto* dynamic_mig = dynamic_cast<const DynamicMigMultiplex*>(&policy);
  const std::string node = fmt::format("gpu{}", gpu.gpu);
  for (size_t i = 0; i < services.size(); ++i) {
    ServiceShare start = elastic ? policy.share(static_cast<int>(i)) : policy.nominal_share(static_cast<int>(i));
    if (dynamic_mig != nullptr) {  // its layout at the start; the re-cuts follow as changes
      start.sms = dynamic_mig->initial_layout().instances[i].sms;
      start.bandwidth_share = dynamic_mig->initial_layout().instances[i].bandwidth_share;
    }
    const int sms = start.sms > 0 ? start.sms : gpu.rates.sms;  // 0 = the whole GPU
    notes.counters.push_back({node, services[i].name + " share", "SMs", {{Time::zero(), static_cast<double>(sms)}}});
    notes.counters.push_back(
        {node, services[i].name + " HBM share", "%", {{Time::zero(), 100 * start.bandwidth_share}}});
  }
  for (const ShareChange& c : changes) {
    const size_t k = 2 * static_cast<size_t>(c.service);
    notes.counters[k].samples.push_back({c.at, static_cast<double>(c.sms)});
    notes.counters[k + 1].samples.push_back({c.at, 100 * c.bandwidth_share});
  }
  return notes;
}

nlohmann::ordered_json to_json(const MultiplexComparison& c) {
  auto ratios = [](const MultiplexBaselineRatio& r) {
    nlohmann::ordered_json j;
    j["baseline"] = r.baseline;
    j["goodput_ratio"] = r.goodput_ratio;
    j["throughput_ratio"] = r.throughput_ratio;
    j["slo_attainment_gain"] = r.slo_attainment_gain;
    j["mean_latency_change"] = r.mean_latency_change;
    return j;
  };
  nlohmann::ordered_json j;
  j["policy"] = c.policy;
  j["baselines"] = nlohmann::ordered_json::array();
  for (const MultiplexBaselineRatio& r : c.baselines) j["baselines"].push_back(ratios(r));
  j["best_baseline"] = c.best_baseline ? ratios(*c.best_baseline) : nlohmann::ordered_json();
  return j;
}

// Every service at `load` times the scenario's offered load: each arrival process drawn from the
// scenario's seed over load·duration and its times divided by load (a time-compressed replay: the
// same request sequence, load times as dense, its bursts load times as short), each service's rate
// scaled with it. load == 1 is the scenario itself, bit for bit.
struct LoadedServices {
  std::vector<std::vector<Time>> arrivals;
  std::vector<ServiceModel> services;
};
LoadedServices services_at_load(const Scenario& sc, const std::vector<ServiceModel>& base, double load) {
  const MultiplexWorkloadSpec& w = sc.multiplex;
  RandomStreams streams(sc.seed);
  LoadedServices out;
  out.services = base;
  for (size_t i = 0; i < w.services.size(); ++i) {
    const MultiplexServiceSpec& spec = w.services[i];
    auto process = make_arrival_process(spec.arrivals, streams.stream("multiplex.arrivals." + spec.name));
    std::vector<Time> times = arrivals_until(*process, Time::seconds(w.duration_s * load));
    if (load != 1.0) {
      for (Time& t : times) t = Time::seconds(t.to_seconds() / load);
      while (!times.empty() && times.back() >= Time::seconds(w.duration_s)) times.pop_back();
    }
    ServiceModel& s = out.services[i];
    s.rate_per_s = process->mean_rate_per_s() * load;
    s.sizing_rate_per_s =
        w.mig_sizing == "peak" ? windowed_peak_rate(times, w.duration_s, w.mig_peak_window_s, w.mig_peak_percentile) : 0;
    out.arrivals.push_back(std::move(times));
  }
  return out;
}

// The policy meets the SLO: every service has at least slo_target of its requests within its SLO.
bool meets_slo_target(const MultiplexMetrics& m, double slo_target) {
  for (const ServiceMetrics& s : m.services)
    if (s.slo_attainment < slo_target) return false;
  return true;
}

// One run of policy `name` on `loaded`, untraced (a max_load_search probe).
MultiplexMetrics run_untraced(const Scenario& sc, const ExperimentContext& ctx, const std::string& name,
                              const LoadedServices& loaded, const GpuPartitioning& parts) {
  const MultiplexWorkloadSpec& w = sc.multiplex;
  Engine engine;
  const std::unique_ptr<Platform> platform = ctx.make_platform(engine, sc.hardware, nullptr, {parts});
  const MultiplexGpu mgpu{0, platform->device_rates(0), &platform->partitioning(0)};
  auto policy = make_multiplex_policy(name, Time::seconds(w.elastic_resize_cost_s), Time::seconds(w.timeslice_switch_cost_s),
                                      Time::seconds(w.mig_reconfig_cost_s));
  MultiplexNode node(*platform, *policy, mgpu, loaded.services, Time::seconds(w.duration_s));
  try {
    node.start(loaded.arrivals);
  } catch (const std::invalid_argument& e) {
    throw InputError(SourceLocation{sc.source, 0, 0}, "workload.services", fmt::format("policy {}: {}", name, e.what()));
  }
  run_engine_reporting(engine, Time::seconds(w.duration_s), nullptr);
  return node.metrics();
}

nlohmann::ordered_json to_json(const MaxLoadResult& r, const MultiplexWorkloadSpec& w) {
  nlohmann::ordered_json j;
  j["lo"] = w.max_load_lo;
  j["hi"] = w.max_load_hi;
  j["tolerance"] = w.max_load_tolerance;
  j["below_bracket"] = r.below_bracket;
  j["above_bracket"] = r.above_bracket;
  nlohmann::ordered_json probes = nlohmann::ordered_json::array();
  for (const LoadProbe& p : r.probes) probes.push_back({{"load", p.load}, {"meets_slo_target", p.meets}});
  j["probes"] = probes;
  return j;
}

}  // namespace

Result run_multiplex(const Scenario& sc, const ExperimentContext& ctx) {
  const WallClock clock;
  const MultiplexWorkloadSpec& w = sc.multiplex;
  const GpuSpec& gpu = sc.hardware.gpus.at(0);
  const GpuPartitioning& parts = gpu_partitioning_for(gpu.model);

  const DeviceRates gpu_rates = device_rates_of(gpu);
  GpuLimits limits;
  try {
    limits = gpu_limits_for(gpu.model);
  } catch (const std::invalid_argument& e) {
    throw InputError(SourceLocation{sc.source, 0, 0}, "hardware", e.what());
  }

  std::vector<ServiceModel> kernels;  // every service's kernels, at no load yet
  for (const MultiplexServiceSpec& spec : w.services) kernels.push_back(service_model(spec, 0, gpu_rates, limits));
  LoadedServices scenario_load = services_at_load(sc, kernels, 1.0);
  const std::vector<std::vector<Time>>& arrivals = scenario_load.arrivals;
  const std::vector<ServiceModel>& services = scenario_load.services;

  Result out;
  nlohmann::ordered_json& summary = out.summary;
  summary = policy_summary_header(sc, "multiplex");
  summary["duration_s"] = w.duration_s;
  nlohmann::ordered_json& offered = summary["services"];
  for (size_t i = 0; i < w.services.size(); ++i) {
    const MultiplexServiceSpec& s = w.services[i];
    nlohmann::ordered_json j;
    j["model"] = s.model;
    j["max_batch"] = s.max_batch;
    j["timeout_s"] = s.timeout_s;
    j["slo_s"] = s.slo_s;
    j["arrivals_kind"] = s.arrivals.kind;
    j["mean_rate_per_s"] = services[i].rate_per_s;
    if (w.mig_sizing == "peak") j["peak_rate_per_s"] = services[i].sizing_rate_per_s;
    j["weights_GiB"] = s.weight_bytes / (1024.0 * 1024 * 1024);
    j["requests"] = arrivals[i].size();
    offered[s.name] = j;
  }
  summary["elastic_resize_cost_s"] = w.elastic_resize_cost_s;
  summary["timeslice_switch_cost_s"] = w.timeslice_switch_cost_s;
  summary["slo_target"] = w.slo_target;
  if (w.mig_sizing == "peak") {  // absent under the default (mean), so existing goldens hold
    summary["mig_sizing"] = w.mig_sizing;
    summary["mig_peak_window_s"] = w.mig_peak_window_s;
    summary["mig_peak_percentile"] = w.mig_peak_percentile;
  }
  nlohmann::ordered_json& policies = summary["policies"];
  std::vector<MultiplexOutcome> outcomes;
  const auto shared_log = std::make_shared<ActivityLog>();
  ActivityLog& trace_log = *shared_log;
  std::vector<ShareChange> trace_shares;
  TraceAnnotations trace_notes;
  // timeline.csv (sim/experiment/multiplex_series.h): every policy, the same bins.
  const bool series = ctx.outputs();
  const double bin_s = time_bin_width_s(w.duration_s, kMultiplexTimelineBins);
  std::vector<std::string> service_names;
  for (const ServiceModel& s : services) service_names.push_back(s.name);
  std::string timeline = kMultiplexTimelineHeader;
  ConsoleTable table{
      {"policy", "service", "thr req/s", "SLO %", "fill", "sat", "p50 ms", "p99 ms", "SM %", "HBM %"}, {}, {}};
  // max_load_search: one row per policy, the capacity next to the goodput at the offered load.
  ConsoleTable capacity{{"policy", "goodput req/s", "SLO %", "meets target", "max load @SLO"},
                        {},
                        {fmt::format("max load @SLO: the largest multiple of the offered load at which every service "
                                     "keeps >= {:g} % of its requests within its SLO (bisection over [{:g}, {:g}], "
                                     "tolerance {:g}; docs/multiplex.md)",
                                     w.slo_target * 100, w.max_load_lo, w.max_load_hi, w.max_load_tolerance)}};
  for (const std::string& name : w.policies) {
    Engine engine;
    const bool traced = traces_policy(sc, ctx, name, w.trace_policy);
    const std::unique_ptr<Platform> platform = ctx.make_platform(engine, sc.hardware, traced ? &trace_log : nullptr, {parts});
    const MultiplexGpu mgpu{0, platform->device_rates(0), &platform->partitioning(0)};
    auto policy = make_multiplex_policy(name, Time::seconds(w.elastic_resize_cost_s), Time::seconds(w.timeslice_switch_cost_s),
                                      Time::seconds(w.mig_reconfig_cost_s));
    MultiplexNode node(*platform, *policy, mgpu, services, Time::seconds(w.duration_s));
    if (series) node.record_kernel_spans();
    try {
      node.start(arrivals);  // the policy's setup: a MIG layout may not exist for these services' memory
    } catch (const std::invalid_argument& e) {
      throw InputError(SourceLocation{sc.source, 0, 0}, "workload.services", fmt::format("policy {}: {}", name, e.what()));
    }
    run_engine_reporting(engine, Time::seconds(w.duration_s), ctx.progress,
                         static_cast<double>(outcomes.size()) / static_cast<double>(w.policies.size()),
                         1.0 / static_cast<double>(w.policies.size()));
    const MultiplexMetrics m = node.metrics();
    if (series)
      timeline += multiplex_timeline_rows(name, service_names, node.kernel_spans(), m.window_s, bin_s,
                                          mgpu.rates.eta_compute * mgpu.rates.peak_flops, mgpu.rates.hbm_Bps);
    nlohmann::ordered_json p;
    p["throughput_rps"] = m.throughput_rps;
    p["goodput_rps"] = m.goodput_rps;
    p["slo_attainment"] = m.slo_attainment;
    p["meets_slo_target"] = meets_slo_target(m, w.slo_target);
    if (w.max_load_search) {
      const MaxLoadResult r = max_load_at_slo(
          [&](double load) {
            return meets_slo_target(run_untraced(sc, ctx, name, services_at_load(sc, kernels, load), parts), w.slo_target);
          },
          {w.max_load_lo, w.max_load_hi, w.max_load_tolerance});
      p["max_load_at_slo"] = r.max_load;
      p["max_load_search"] = to_json(r, w);
      capacity.rows.push_back({name, fmt::format("{:.1f}", m.goodput_rps), fmt::format("{:.2f}", m.slo_attainment * 100),
                               meets_slo_target(m, w.slo_target) ? "yes" : "no",
                               r.below_bracket  ? fmt::format("< {:g}", w.max_load_lo)
                               : r.above_bracket ? fmt::format(">= {:g}", w.max_load_hi)
                                                 : fmt::format("{:.3f}", r.max_load)});
    }
    p["mean_latency_s"] = m.mean_latency_s;
    outcomes.push_back({name, m.throughput_rps, m.goodput_rps, m.slo_attainment, m.mean_latency_s});
    // Means over services, each service counting once.
    double fill = 0, sat = 0, sm_sat = 0, hbm_sat = 0;
    for (const ServiceMetrics& s : m.services) {
      fill += s.mean_batch_fill;
      sat += s.instance_saturation;
      sm_sat += s.sm_saturation;
      hbm_sat += s.hbm_saturation;
    }
    const auto n = static_cast<double>(m.services.size());
    p["mean_batch_fill"] = fill / n;
    p["mean_instance_saturation"] = sat / n;
    p["mean_sm_saturation"] = sm_sat / n;
    p["mean_hbm_saturation"] = hbm_sat / n;
    p["sm_utilisation"] = m.sm_utilisation;
    p["hbm_utilisation"] = m.hbm_utilisation;
    p["window_s"] = m.window_s;
    p["makespan_s"] = m.makespan_s;
    const auto layout_json = [&](const MigSearchResult& r) {
      nlohmann::ordered_json layout = nlohmann::ordered_json::array();
      for (size_t i = 0; i < services.size(); ++i)
        layout.push_back({{"service", services[i].name},
                          {"profile", r.placements[i].profile},
                          {"start", r.placements[i].start},
                          {"sms", r.instances[i].sms}});
      return layout;
    };
    if (const auto* mig = dynamic_cast<const RigidMigMultiplex*>(policy.get())) {
      p["mig_layout"] = layout_json(mig->layout());
      p["mig_layout_score"] = mig->layout().score;
      p["mig_layouts_checked"] = mig->layout().layouts_checked;
    }
    if (const auto* dm = dynamic_cast<const DynamicMigMultiplex*>(policy.get())) {
      p["mig_reconfig_cost_s"] = w.mig_reconfig_cost_s;
      p["decision_period_s"] = dm->period().to_seconds();
      p["reconfigurations"] = dm->reconfigurations();
      double wait = 0;
      for (const ServiceMetrics& s : m.services) wait += s.resize_wait_s;
      p["reconfig_wait_s"] = wait;
      p["initial_mig_layout"] = layout_json(dm->initial_layout());
      p["final_mig_layout"] = layout_json(dm->layout());
      if (traced) trace_shares = dm->changes();
    }
    if (const auto* ts = dynamic_cast<const TimesliceMultiplex*>(policy.get())) p["context_switches"] = ts->switches();
    if (const auto* mps = dynamic_cast<const MpsMultiplex*>(policy.get())) {
      nlohmann::ordered_json pct;
      for (size_t i = 0; i < services.size(); ++i) pct[services[i].name] = mps->percentage(static_cast<int>(i));
      p["mps_percentages"] = pct;
    }
    if (const auto* el = dynamic_cast<const ElasticMultiplex*>(policy.get())) {
      p["share_changes"] = el->changes().size();
      double wait = 0;
      for (const ServiceMetrics& s : m.services) wait += s.resize_wait_s;
      p["resize_wait_s"] = wait;
      if (traced) trace_shares = el->changes();
    }
    if (traced) {
      trace_notes = share_counters(services, *policy, trace_shares, mgpu);
      trace_notes.phases.push_back(log_phase("policy " + name, trace_log));
    }
    nlohmann::ordered_json& per = p["services"];
    for (size_t i = 0; i < services.size(); ++i) per[services[i].name] = to_json(m.services[i]);
    policies[name] = p;
    for (size_t i = 0; i < services.size(); ++i) {
      const ServiceMetrics& s = m.services[i];
      table.rows.push_back({name, services[i].name, fmt::format("{:.1f}", s.throughput_rps),
                            fmt::format("{:.2f}", s.slo_attainment * 100), fmt::format("{:.3f}", s.mean_batch_fill),
                            fmt::format("{:.3f}", s.instance_saturation), fmt::format("{:.3f}", s.p50_latency_s * 1e3),
                            fmt::format("{:.3f}", s.p99_latency_s * 1e3), fmt::format("{:.1f}", m.sm_utilisation * 100),
                            fmt::format("{:.1f}", m.hbm_utilisation * 100)});
    }
  }
  out.console.push_back(std::move(table));
  if (w.max_load_search) out.console.push_back(std::move(capacity));
  if (const auto c = compare_elastic_with_baselines(outcomes)) summary["comparison"] = to_json(*c);
  // In the order the runner always wrote them: trace.json, shares.csv, timeline.csv.
  if (ctx.outputs() && sc.output.trace) out.files.push_back(trace_file(sc, shared_log, std::move(trace_notes)));
  if (!trace_shares.empty()) {
    // Elastic changes shares at every kernel: output.trace_limit bounds these rows as it bounds
    // trace.json's activities (bursty-h200 makes ~0.5 M changes; 0 = no limit).
    const size_t limit = sc.output.trace_limit > 0 ? static_cast<size_t>(sc.output.trace_limit) : trace_shares.size();
    const size_t rows = std::min(limit, trace_shares.size());
    std::string csv = "time_s,service,sms,bandwidth_share\n";
    for (size_t i = 0; i < rows; ++i) {
      const ShareChange& c = trace_shares[i];
      csv += fmt::format("{},{},{},{}\n", c.at.to_seconds(), services[static_cast<size_t>(c.service)].name, c.sms,
                         c.bandwidth_share);
    }
    if (rows < trace_shares.size())
      std::fprintf(stderr, "note: shares.csv holds the first %zu of %zu share changes (output.trace_limit; 0 = no limit)\n",
                   rows, trace_shares.size());
    out.files.push_back({"shares.csv", csv, {}});
  }
  if (series) out.files.push_back({"timeline.csv", std::move(timeline), {}});
  out.timing = timing_json(clock.elapsed_s());
  return out;
}

HtmlReport multiplex_page(const Scenario&, const Result& r) {
  return multiplex_report_page(r.summary, r.table("timeline.csv"));
}

}  // namespace parallax
