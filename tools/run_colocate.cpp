// File: tools/run_colocate.cpp
#include "tools/run_colocate.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "models/inference_kernels.h"
#include "sim/engine/engine.h"
#include "sim/engine/random_streams.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/colocate/colocation_node.h"
#include "sim/policies/colocate/colocation_presets.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/json_output.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/scenario/model_catalog.h"
#include "tools/version.h"

namespace parallax {

namespace {

std::vector<NamedKernel> kernels_of(const std::string& model, int batch) {
  const CatalogModel& m = embedded_model_catalog().at(model);
  std::vector<LayerFigures> layers;
  for (const CatalogLayer& l : m.layers) layers.push_back({l.name, l.flops, static_cast<double>(l.param_bytes)});
  return inference_kernels(model, layers, batch);
}

// Poisson arrivals over [0, duration) from the stream "colocate.ls_arrivals".
std::vector<Time> poisson_arrivals(double rate_per_s, double duration_s, RandomStream& stream) {
  std::vector<Time> out;
  double t = stream.exponential(1.0 / rate_per_s);
  while (t < duration_s) {
    out.push_back(Time::seconds(t));
    t += stream.exponential(1.0 / rate_per_s);
  }
  return out;
}

nlohmann::ordered_json to_json(const ColocationMetrics& m, double ls_solo_s) {
  nlohmann::ordered_json j;
  j["ls_requests_arrived"] = m.ls_arrived;
  j["ls_requests_finished"] = m.ls_finished;
  j["ls_slo_attainment"] = m.ls_slo_attainment;
  j["ls_p50_latency_s"] = m.ls_p50_latency_s;
  j["ls_p99_latency_s"] = m.ls_p99_latency_s;
  j["ls_mean_latency_s"] = m.ls_mean_latency_s;
  j["ls_solo_latency_s"] = ls_solo_s;
  j["be_throughput"] = m.be_throughput;
  j["be_work_units"] = m.be_work_units;
  j["be_kernels"] = m.be_kernels;
  j["sm_utilisation"] = m.sm_utilisation;
  j["hbm_utilisation"] = m.hbm_utilisation;
  j["makespan_s"] = m.makespan_s;
  return j;
}

}  // namespace

int run_colocate(const Scenario& sc, const RunOptions& options) {
  const ColocateWorkloadSpec& w = sc.colocate;
  const GpuSpec& gpu = sc.hardware.gpus.at(0);
  const GpuPartitioning& parts = gpu_partitioning_for(gpu.model);
  RandomStreams streams(sc.seed);
  const std::vector<Time> arrivals =
      poisson_arrivals(w.ls_rate_per_s, w.duration_s, streams.stream("colocate.ls_arrivals"));

  ColocationSetup setup;
  setup.gpu.gpu = 0;
  setup.gpu.rates = DeviceRates{gpu.sms, gpu.peak_flops, gpu.hbm_Bps, 0, 0.75, gpu.kernel_launch_s};
  setup.gpu.partitioning = &parts;
  setup.ls_kernels = kernels_of(w.ls_model, w.ls_batch);
  setup.be_kernels = kernels_of(w.be_model, w.be_batch);
  setup.ls_slo = Time::seconds(w.ls_slo_s);
  setup.be_stop = Time::seconds(w.duration_s);
  setup.interference = w.interference;

  ColocationPolicyOptions o;
  o.static_ls_sms = w.static_ls_sms;
  o.mig_ls = {w.mig_ls_profile, w.mig_ls_start};
  o.mig_be = {w.mig_be_profile, w.mig_be_start};
  o.mps_be_percentage = w.mps_be_percentage;

  nlohmann::ordered_json summary;
  summary["scenario"] = sc.name;
  summary["hardware"] = sc.hardware.name;
  summary["seed"] = sc.seed;
  summary["parallax_version"] = kParallaxVersion;
  summary["git_commit"] = kParallaxGitCommit;
  summary["workload_kind"] = "colocate";
  summary["ls_model"] = w.ls_model;
  summary["ls_batch"] = w.ls_batch;
  summary["ls_rate_per_s"] = w.ls_rate_per_s;
  summary["ls_slo_s"] = w.ls_slo_s;
  summary["be_model"] = w.be_model;
  summary["be_batch"] = w.be_batch;
  summary["duration_s"] = w.duration_s;
  summary["be_throughput_unit"] = "BE batches per second";
  nlohmann::ordered_json& policies = summary["policies"];
  ActivityLog trace_log;
  if (!options.quiet)
    std::printf("%-13s %9s %9s %9s %8s %10s %6s %6s\n", "policy", "LS p50 ms", "LS p99 ms", "SLO %", "arrived",
                "BE batch/s", "SM %", "HBM %");
  for (const std::string& name : w.policies) {
    Engine engine;
    const bool traced = !options.out_dir.empty() && sc.output.trace && name == w.trace_policy;
    SimPlatform platform(engine, sc.hardware, traced ? &trace_log : nullptr);
    auto policy = make_colocation_policy(name, o);
    ColocationNode node(platform, *policy, setup);
    node.start(arrivals);
    engine.run();
    const ColocationMetrics m = node.metrics();
    if (m.ls_finished != m.ls_arrived)
      throw std::logic_error(fmt::format("colocate/{}: {} of {} LS requests never finished", name,
                                         m.ls_arrived - m.ls_finished, m.ls_arrived));
    policies[name] = to_json(m, node.ls_request_solo_s());
    if (!options.quiet)
      std::printf("%-13s %9.3f %9.3f %9.2f %8lld %10.2f %6.1f %6.1f\n", name.c_str(), m.ls_p50_latency_s * 1e3,
                  m.ls_p99_latency_s * 1e3, m.ls_slo_attainment * 100, static_cast<long long>(m.ls_arrived),
                  m.be_throughput, m.sm_utilisation * 100, m.hbm_utilisation * 100);
  }
  if (!options.out_dir.empty()) {
    const std::filesystem::path dir(options.out_dir);
    std::filesystem::create_directories(dir);
    std::filesystem::remove(dir / "summary.json");
    std::filesystem::remove(dir / "report.html");  // derived from summary.json, rewritten after it
    if (sc.output.trace) {
      const ChromeTraceStats st = write_chrome_trace_file(dir / "trace.json", trace_log);
      if (st.truncated)
        std::fprintf(stderr, "note: trace.json holds the first %zu of %zu activities\n", st.records_written,
                     st.records_total);
    }
    write_json_atomically(dir / "summary.json", summary);
    if (!options.quiet) std::printf("\noutputs: %s\n", options.out_dir.c_str());
  }
  return 0;
}

}  // namespace parallax
