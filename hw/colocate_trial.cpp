// File: hw/colocate_trial.cpp
#include "hw/colocate_trial.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/calibration_data/data_error.h"
#include "hw/green_split.h"
#include "sim/engine/random_streams.h"
#include "sim/policies/colocate/colocation_kernels.h"
#include "sim/policies/colocate/colocation_node.h"
#include "sim/policies/colocate/colocation_presets.h"

namespace parallax::hw {

double colocate_metric(const ColocateOutcome& o, std::string_view metric) {
  if (metric == "ls_p50_latency_s") return o.ls_p50_latency_s;
  if (metric == "ls_p99_latency_s") return o.ls_p99_latency_s;
  if (metric == "ls_slo_attainment") return o.ls_slo_attainment;
  if (metric == "be_throughput") return o.be_throughput;
  throw std::invalid_argument(fmt::format("unknown colocate metric '{}'", metric));
}

GpuPartitioning colocate_trial_rules(const ColocateTrial& t) {
  return green_rules("trial", t.sms, t.green_min_sms, t.green_multiple_sms);
}

ColocateOutcome run_colocate_trial(Platform& platform, const ColocateTrial& t, bool interference_on,
                                   const InterferenceCoefficients& interference, const std::function<void()>& run) {
  ColocationSetup setup;
  setup.gpu.gpu = 0;
  // η_c = 0.75 and a per-SM bandwidth cap of 2·HBM/SMs, as the colocate scenarios default to.
  setup.gpu.rates = DeviceRates{t.sms, t.flops_per_s, t.hbm_Bps, 2 * t.hbm_Bps / t.sms, 0.75, t.launch_s};
  setup.gpu.partitioning = &platform.partitioning(0);
  // The trial's config names no GPU model: the sweep's GPUs are sm_90 (H100/H200) [assumption].
  const GpuLimits limits = gpu_limits_for("H100");
  setup.ls_kernels = colocation_kernels(t.ls_model, t.ls_batch, setup.gpu.rates, limits);
  setup.be_kernels = colocation_kernels(t.be_model, t.be_batch, setup.gpu.rates, limits);
  setup.interference = interference;
  setup.interference_on = interference_on;
  double solo_s = 0;
  for (const ColocationKernel& k : setup.ls_kernels)
    solo_s += kernel_time_s(k.shape, setup.gpu.rates, std::min(k.shape.sm_need(), t.sms), 1.0);
  const Time t0 = platform.now();
  setup.ls_slo = Time::seconds(t.ls_slo_x_solo * solo_s);
  setup.be_stop = t0 + Time::seconds(t.duration_s);

  std::vector<Time> arrivals;
  RandomStreams streams(t.seed);
  RandomStream& gaps = streams.stream("colocate.ls_arrivals");
  const double mean_gap_s = solo_s / t.ls_load;
  for (double at = gaps.exponential(mean_gap_s); at < t.duration_s; at += gaps.exponential(mean_gap_s))
    arrivals.push_back(t0 + Time::seconds(at));

  ColocationPolicyOptions options;
  options.static_ls_sms = t.static_ls_sms;
  const std::unique_ptr<ColocationPolicy> policy = make_colocation_policy(t.policy, options);
  ColocationNode node(platform, *policy, setup);
  node.start(arrivals);
  run();
  const ColocationMetrics m = node.metrics();
  if (m.ls_finished != m.ls_arrived)
    throw std::logic_error(fmt::format("colocate trial {}: {} of {} LS requests never finished", t.policy,
                                       m.ls_arrived - m.ls_finished, m.ls_arrived));
  ColocateOutcome o;
  o.ls_p50_latency_s = m.ls_p50_latency_s;
  o.ls_p99_latency_s = m.ls_p99_latency_s;
  o.ls_slo_attainment = m.ls_slo_attainment;
  o.be_throughput = m.be_work_units / t.duration_s;
  o.ls_solo_s = solo_s;
  o.ls_requests = m.ls_arrived;
  return o;
}

}  // namespace parallax::hw
