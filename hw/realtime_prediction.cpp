// File: hw/realtime_prediction.cpp
#include "hw/realtime_prediction.h"

#include "models/calibration_data/data_error.h"
#include "hw/colocate_trial.h"
#include "hw/multiplex_trial.h"
#include "hw/overlap_trial.h"
#include "hw/serverless_trial.h"
#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/scenario/model_catalog_reader.h"

namespace parallax::hw {

namespace {

// One GPU and one host joined by a PCIe link: the machine of a one-GPU trial.
HardwareSpec trial_machine(int sms, double flops_per_s, double hbm_Bps, double launch_s, double host_Bps,
                           double host_latency_s) {
  HardwareSpec h;
  h.name = "realtime-trial";
  GpuSpec g;
  g.model = "trial";
  g.sms = sms;
  g.peak_flops = flops_per_s;
  g.hbm_Bps = hbm_Bps;
  g.memory_bytes = int64_t{64} << 30;  // the trials' pools are a few GiB
  g.kernel_launch_s = launch_s;
  h.gpus.push_back(g);
  h.hosts.push_back({int64_t{256} << 30});
  h.links.push_back({gpu_node_name(0), host_node_name(0), LinkKind::pcie, host_Bps, host_latency_s, true});
  return h;
}

// The row's config without `metric`: the key of its trial.
std::string trial_key(const models::Measurement& row) {
  std::string key(models::to_string(row.family));
  for (const auto& [k, v] : row.config)
    if (k != "metric") key += ';' + k + '=' + v;
  return key;
}

}  // namespace

SimulatedGpu simulated_gpu(const models::Calibration& c, const std::vector<models::Measurement>& rows) {
  SimulatedGpu g;
  for (const models::Measurement& r : rows) {
    if (r.family != models::MeasurementFamily::corun || r.text("with") != "none" || r.text("sms") != "all") continue;
    if (r.text("kernel") == "compute" && r.number("flops") > 0) g.flops_per_s = r.number("flops") / r.value;
    if (r.text("kernel") == "memory" && r.number("dram_bytes") > 0) g.hbm_Bps = r.number("dram_bytes") / r.value;
  }
  for (const models::LaunchCalibration& l : c.launch)
    if (l.what == "launch") g.launch_s = l.seconds;
  if (const models::CopyCalibration* h2d = c.find_copy("h2d", "pinned")) {
    g.host_link_Bps = h2d->bandwidth_Bps;
    g.host_link_latency_s = h2d->latency_s;
  }
  if (c.interference) {
    g.interference = c.interference->coefficients;
    g.fitted_interference = true;
  }
  return g;
}

std::optional<double> RealtimePredictor::predict(const models::Measurement& row) {
  using models::MeasurementFamily;
  const MeasurementFamily f = row.family;
  const bool overlap = f == MeasurementFamily::interdecom || f == MeasurementFamily::intrafusion;
  if (!overlap && f != MeasurementFamily::colocate && f != MeasurementFamily::serverless && f != MeasurementFamily::multiplex)
    return std::nullopt;
  // A row the sweep's trials did not write (the schema allows any scenario keys; overlap rows of
  // the raw-CUDA sweep before the task graphs carry no `strategy`): no model here.
  const char* trial_key_name = overlap                               ? "strategy"
                               : f == MeasurementFamily::colocate  ? "ls_model"
                               : f == MeasurementFamily::multiplex ? "rates_per_s"
                                                                   : "models";
  if (!row.has(trial_key_name)) return std::nullopt;
  const std::string key = trial_key(row);
  auto it = cache_.find(key);
  if (it == cache_.end()) {
    std::map<std::string, double> values;  // metric -> value; "" for a one-row case
    Engine engine;
    if (overlap) {
      const OverlapTrial t = overlap_trial_from(row);
      SimPlatform platform(engine, trial_machine(t.sms, gpu_.flops_per_s.value_or(t.flops_per_s),
                                                 gpu_.hbm_Bps.value_or(t.hbm_Bps), gpu_.launch_s.value_or(t.launch_s),
                                                 1e12, 0),
                           nullptr, {overlap_trial_rules(t)});
      try {
        values[""] = run_overlap_trial(platform, t, [&] { engine.run(); });
      } catch (const std::invalid_argument& e) {
        throw models::DataError(row.file, row.line, "overlap case " + row.case_id + ": " + e.what());
      }
    } else if (f == MeasurementFamily::multiplex) {
      const MultiplexTrial t = multiplex_trial_from(row);
      SimPlatform platform(engine, trial_machine(t.sms, gpu_.flops_per_s.value_or(t.flops_per_s),
                                                 gpu_.hbm_Bps.value_or(t.hbm_Bps), gpu_.launch_s.value_or(t.launch_s),
                                                 1e12, 0),
                           nullptr, {multiplex_trial_rules(t)});
      try {
        const MultiplexOutcome o = run_multiplex_trial(platform, t, [&] { engine.run(); });
        for (const TrialMetric& m : multiplex_metrics()) values[m.name] = multiplex_metric(o, m.name);
      } catch (const std::invalid_argument& e) {
        throw models::DataError(row.file, row.line, "multiplex case " + row.case_id + ": " + e.what());
      }
    } else if (f == MeasurementFamily::colocate) {
      const ColocateTrial t = colocate_trial_from(row);
      SimPlatform platform(engine, trial_machine(t.sms, gpu_.flops_per_s.value_or(t.flops_per_s),
                                                 gpu_.hbm_Bps.value_or(t.hbm_Bps), gpu_.launch_s.value_or(t.launch_s),
                                                 1e12, 0),
                           nullptr, {colocate_trial_rules(t)});
      const ColocateOutcome o = run_colocate_trial(platform, t, true, gpu_.interference, [&] { engine.run(); });
      for (const TrialMetric& m : colocate_metrics(t.policy)) values[m.name] = colocate_metric(o, m.name);
    } else {
      const ServerlessTrial t = serverless_trial_from(row);
      for (const std::string& m : t.models)
        if (embedded_model_catalog().find(m) == nullptr || catalog_gpu_kind(t.gpu_kind) < 0)
          throw models::DataError(row.file, row.line,
                                  "serverless case " + row.case_id + ": unknown catalog model '" + m + "' or GPU kind '" +
                                      t.gpu_kind + "'");
      // The hardware launched compute_s x flops_per_s FLOPs per layer and ran them at the rate its
      // kernels reach: the simulated GPU runs at that rate and the layers carry the same FLOPs.
      const double rate = gpu_.flops_per_s.value_or(t.flops_per_s);
      SimPlatform platform(engine, trial_machine(132, rate, gpu_.hbm_Bps.value_or(4.8e12), gpu_.launch_s.value_or(t.launch_s),
                                                 gpu_.host_link_Bps.value_or(t.host_link_Bps), gpu_.host_link_latency_s));
      const ServerlessOutcome o = run_serverless_trial(platform, t, [&] { engine.run(); }, t.flops_per_s / rate);
      for (const TrialMetric& m : serverless_metrics()) values[m.name] = serverless_metric(o, m.name);
    }
    it = cache_.emplace(key, std::move(values)).first;
  }
  if (overlap) return it->second.at("");
  const std::string& metric = row.text("metric");
  const auto v = it->second.find(metric);
  if (v == it->second.end())
    throw models::DataError(row.file, row.line, "no metric '" + metric + "' in a " + std::string(models::to_string(row.family)) +
                                                    " trial of policy " + row.text("policy"));
  return v->second;
}

}  // namespace parallax::hw
