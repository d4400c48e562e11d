// File: sim/experiment/serverless_experiment.cpp
// workload.kind == serverless: replays the scenario's trace on its node(s) once per listed policy;
// summary.json holds the first policy's metrics at the top level and every policy under
// `policies.<name>`, function_latency.csv one row per policy and function (docs/serverless.md).
#include <sstream>

#include "sim/experiment/experiment.h"
#include "sim/report/report_pages.h"

#include <fmt/format.h>

#include <chrono>
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "sim/engine/random_streams.h"
#include "sim/policies/serverless/policy_presets.h"
#include "sim/policies/serverless/serverless_metrics.h"
#include "sim/report/console_table.h"
#include "sim/report/run_timing.h"
#include "sim/workload/trace_source.h"
#include "sim/experiment/policy_summary.h"
#include "sim/experiment/run_progress.h"
#include "sim/experiment/serverless_sim.h"
#include "sim/experiment/serverless_timeline.h"
#include "sim/experiment/serverless_trace.h"
#include "sim/experiment/version.h"

namespace parallax {

namespace {

// Function i replays trace function i mod F (F: the trace's functions); copy c of a function is
// expanded from stream "trace.c". Count and rate traces (torpor, azure2019, torpor_rates) draw
// each copy anew; per-request traces (azure2021, azure_llm) have nothing to draw, so a copy
// replays the very same times (docs/serverless.md, "Traces").
std::vector<ServerlessArrival> arrivals_for(const ServerlessWorkloadSpec& w, RandomStreams& streams) {
  TraceSpec spec;
  const std::optional<TraceFormat> format = parse_trace_format(w.trace_format);
  if (!format) throw std::logic_error("serverless: unchecked trace format " + w.trace_format);
  spec.format = *format;
  spec.path = w.trace_path;
  spec.minute_cv = w.minute_cv;
  spec.duration = Time::seconds(w.duration_s);
  spec.functions = static_cast<size_t>(w.functions);
  std::vector<ServerlessArrival> out;
  int64_t assigned = 0;
  for (int copy = 0; assigned < w.functions; ++copy) {
    const TraceArrivals t = load_trace(spec, streams.stream(fmt::format("trace.{}", copy)));
    const auto rows = static_cast<int64_t>(t.function_names.size());
    if (rows == 0) break;
    for (const Arrival& a : t.arrivals) {
      const int64_t f = copy * rows + a.function;
      if (f < w.functions) out.push_back({a.at, static_cast<uint32_t>(f)});
    }
    assigned += rows;
  }
  std::stable_sort(out.begin(), out.end(), [](const ServerlessArrival& a, const ServerlessArrival& b) { return a.at < b.at; });
  return out;
}

void put_metrics(nlohmann::ordered_json& j, const ServerlessSummary& s) {
  j["functions"] = s.functions;
  j["functions_hosted"] = s.functions_hosted;
  j["functions_compliant"] = s.functions_compliant;
  j["slo_attainment"] = s.slo_attainment;
  j["p50_latency_s"] = s.p50_latency_s;
  j["p99_latency_s"] = s.p99_latency_s;
  j["mean_latency_s"] = s.mean_latency_s;
  j["mean_queue_s"] = s.mean_queue_s;
  j["p50_queue_s"] = s.p50_queue_s;
  j["p99_queue_s"] = s.p99_queue_s;
  j["requests_arrived"] = s.arrived;
  j["requests_finished"] = s.finished;
  j["requests_dropped"] = s.dropped;
  j["requests_queued"] = s.queued;
  j["gpus_used"] = s.gpus_used;
  j["gpu_busy_s"] = s.gpu_busy_s;
  j["makespan_s"] = s.makespan_s;
  j["gpu_seconds"] = s.gpu_seconds;
  j["swaps_pcie"] = s.swaps_pcie;
  j["swaps_nvlink"] = s.swaps_nvlink;
  j["swap_bytes_pcie"] = s.pcie_bytes;
  j["swap_bytes_nvlink"] = s.nvlink_bytes;
  j["pcie_utilisation"] = s.pcie_utilisation;
  j["nvlink_utilisation"] = s.nvlink_utilisation;
  j["evictions"] = s.evictions;
  j["cold_starts"] = s.cold_starts;
}

// `trace`: also render trace.json of this policy's run there (nullptr = none); `timeline`: also
// record the loads and pool changes for timeline.csv there (nullptr = none).
// `progress` gets this policy's share of the run: policies [index, index + 1) of `count`.
ServerlessSummary run_policy(const Scenario& sc, const std::string& name, std::span<const ServerlessArrival> arrivals,
                             std::string* trace, std::vector<ServerlessTimelineSamples>* timeline,
                             RunProgress* progress, size_t index, size_t count) {
  ServerlessSimSetup setup;
  setup.hardware = sc.hardware;
  setup.policy = serverless_policy_preset(name);
  setup.policy.reserve_bytes = static_cast<int64_t>(sc.serverless.reserve_GiB * 1073741824.0);
  setup.policy.record_timeline = trace != nullptr || timeline != nullptr;
  setup.policy.record_requests = trace != nullptr;
  setup.policy.closed_form = sc.serverless.closed_form;
  setup.models = served_models(sc.serverless.models, sc.hardware.gpus.at(0));
  for (int64_t f = 0; f < sc.serverless.functions; ++f)
    setup.functions.push_back({fmt::format("f{}", f), static_cast<uint32_t>(f % static_cast<int64_t>(sc.serverless.models.size()))});
  setup.nodes = static_cast<int>(sc.serverless.nodes);
  setup.seed = sc.seed;
  const Time horizon = !arrivals.empty() ? arrivals.back().at : Time::zero();
  setup.drive = [=](Engine& engine) {
    run_engine_reporting(engine, horizon, progress, static_cast<double>(index) / static_cast<double>(count),
                         1.0 / static_cast<double>(count));
  };
  if (trace == nullptr && timeline == nullptr) return simulate_serverless(setup, arrivals, nullptr);
  ServerlessTimelineSamples samples;
  ServerlessSummary s = simulate_serverless(setup, arrivals, nullptr, nullptr, [&](std::span<const ServerlessNode* const> nodes) {
    if (timeline != nullptr) samples = collect_timeline(nodes);
    if (trace == nullptr) return;
    std::ostringstream out;
    note_trace_cut(write_serverless_trace(out, nodes, sc.hardware, name, trace_options(sc)));
    *trace = out.str();
  });
  if (timeline != nullptr) {
    samples.policy = s.policy;
    samples.end_s = s.makespan_s;
    timeline->push_back(std::move(samples));
  }
  return s;
}

}  // namespace

Result run_serverless(const Scenario& sc, const ExperimentContext& ctx) {
  RandomStreams streams(sc.seed);
  const std::vector<ServerlessArrival> arrivals = arrivals_for(sc.serverless, streams);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<ServerlessSummary> results;
  // trace.json: the first policy's run (docs/serverless.md).
  const bool traced = ctx.outputs() && sc.output.trace;
  std::string trace;
  std::vector<ServerlessTimelineSamples> timeline;
  for (const std::string& name : sc.serverless.policies)
    results.push_back(run_policy(sc, name, arrivals, traced && results.empty() ? &trace : nullptr,
                                 ctx.outputs() ? &timeline : nullptr, ctx.progress, results.size(),
                                 sc.serverless.policies.size()));
  const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  Result out;
  nlohmann::ordered_json& summary = out.summary;
  summary["scenario"] = sc.name;
  summary["hardware"] = sc.hardware.name;
  summary["seed"] = sc.seed;
  summary["parallax_version"] = kParallaxVersion;
  summary["policy"] = results.front().policy;
  put_metrics(summary, results.front());
  for (const ServerlessSummary& s : results) put_metrics(summary["policies"][s.policy], s);
  // Provisioning cost vs native (docs/serverless.md): native GPUs needed (and GPU-seconds) over
  // each policy's, when the scenario runs native.
  const auto native = std::find_if(results.begin(), results.end(), [](const ServerlessSummary& s) { return s.policy == "native"; });
  if (native != results.end())
    for (const ServerlessSummary& s : results) {
      nlohmann::ordered_json& p = summary["policies"][s.policy];
      p["gpus_reduction_vs_native"] = s.gpus_used > 0 ? static_cast<double>(native->gpus_used) / s.gpus_used : 0.0;
      const double native_gpu_s = native->gpus_used * native->makespan_s;
      p["gpu_seconds_reduction_vs_native"] = s.gpu_seconds > 0 ? native_gpu_s / s.gpu_seconds : 0.0;
    }
  std::string csv = "policy,function,model,arrived,finished,dropped,cold_starts,p50_s,p98_s,p99_s,mean_queue_s,slo_s,compliant\n";
  for (const ServerlessSummary& s : results)
    for (const FunctionLatency& f : s.per_function)
      csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", s.policy, f.name, f.model, f.arrived, f.finished,
                         f.dropped, f.cold_starts, f.p50_s, f.p98_s, f.p99_s, f.mean_queue_s, f.slo_s, f.compliant ? 1 : 0);
  out.timing = timing_json(wall_s);
  if (ctx.outputs()) {
    out.stale.push_back("trace.json");
    if (traced) out.files.push_back({"trace.json", std::move(trace), {}});
    out.files.push_back({"function_latency.csv", std::move(csv), {}});
    out.files.push_back({"timeline.csv", timeline_csv(timeline), {}});
  }
  ConsoleTable table{{"policy", "functions", "compliant", "slo_attainment", "p99", "gpus_used", "swaps_pcie",
                      "swaps_nvlink", "dropped"},
                     {},
                     {fmt::format("{} requests per policy, {} policies in {:.2f} s wall", arrivals.size(),
                                  results.size(), wall_s)}};
  for (const ServerlessSummary& s : results)
    table.rows.push_back({s.policy, fmt::format("{}", s.functions), fmt::format("{}", s.functions_compliant),
                          fmt::format("{:.1f}%", 100 * s.slo_attainment), format_seconds(s.p99_latency_s),
                          fmt::format("{}", s.gpus_used), fmt::format("{}", s.swaps_pcie),
                          fmt::format("{}", s.swaps_nvlink), fmt::format("{}", s.dropped)});
  out.console.push_back(std::move(table));
  return out;
}

HtmlReport serverless_page(const Scenario& sc, const Result& r) {
  const int64_t gpus = static_cast<int64_t>(sc.hardware.gpus.size()) * sc.serverless.nodes;
  return serverless_report_page(r.summary, r.table("function_latency.csv"),
                                r.table("timeline.csv"),
                                {gpus, sc.serverless.reserve_GiB * 1073741824.0 * static_cast<double>(gpus)});
}

}  // namespace parallax
