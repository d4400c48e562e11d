// File: hw/multiplex_trial.cpp
#include "hw/multiplex_trial.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "hw/green_split.h"
#include "sim/engine/random_streams.h"
#include "sim/policies/multiplex/multiplex_node.h"
#include "sim/policies/multiplex/multiplex_presets.h"
#include "sim/policies/multiplex/service_kernels.h"
#include "sim/scenario/model_catalog_reader.h"

namespace parallax::hw {

namespace {

// The node's view of the GPU: the trial's rates, η_c = 0.75, and no per-SM bandwidth cap (on the
// GPU the hardware applies it; in the multiplex scenarios SimPlatform applies the preset's).
DeviceRates trial_rates(const MultiplexTrial& t) {
  return DeviceRates{t.sms, t.flops_per_s, t.hbm_Bps, 0, 0.75, t.launch_s};
}

}  // namespace

double multiplex_metric(const MultiplexOutcome& o, std::string_view metric) {
  if (metric == "goodput_rps") return o.goodput_rps;
  if (metric == "slo_attainment") return o.slo_attainment;
  if (metric == "p50_latency_s") return o.p50_latency_s;
  if (metric == "p99_latency_s") return o.p99_latency_s;
  throw std::invalid_argument(fmt::format("unknown multiplex metric '{}'", metric));
}

GpuPartitioning multiplex_trial_rules(const MultiplexTrial& t) {
  return green_rules("trial", t.sms, t.green_min_sms, t.green_multiple_sms);
}

std::vector<ServiceModel> multiplex_trial_services(const MultiplexTrial& t, const DeviceRates& rates) {
  std::vector<ServiceModel> services;
  for (size_t i = 0; i < t.models.size(); ++i) {
    const CatalogModel* m = embedded_model_catalog().find(t.models[i]);
    if (m == nullptr) throw std::invalid_argument(fmt::format("unknown catalog model '{}'", t.models[i]));
    ServiceModel s;
    s.name = fmt::format("{}{}", t.models[i], i);
    s.rate_per_s = t.rates_per_s.at(i);
    // The trial names no GPU model: sm_90 occupancy limits (the trial's defaults are an H200's).
    s.kernels_by_batch = service_kernels(m->name, t.max_batch, rates, gpu_limits_for("H200"));
    double solo_s = 0;
    for (const OpKernel& k : s.kernels_by_batch.back())
      solo_s += kernel_time_s(k.shape, rates, std::min(k.shape.sm_need(), rates.sms), 1.0);
    s.batcher = {t.max_batch, Time::seconds(t.timeout_s), Time::seconds(t.slo_x_solo * solo_s)};
    services.push_back(std::move(s));
  }
  return services;
}

MultiplexOutcome run_multiplex_trial(Platform& platform, const MultiplexTrial& t, const std::function<void()>& run) {
  const DeviceRates rates = trial_rates(t);
  const std::vector<ServiceModel> services = multiplex_trial_services(t, rates);
  const Time t0 = platform.now();
  RandomStreams streams(t.seed);
  std::vector<std::vector<Time>> arrivals;
  for (const ServiceModel& s : services) {
    RandomStream& gaps = streams.stream("multiplex.arrivals." + s.name);
    std::vector<Time> at;
    for (double x = gaps.exponential(1 / s.rate_per_s); x < t.duration_s; x += gaps.exponential(1 / s.rate_per_s))
      at.push_back(t0 + Time::seconds(x));
    arrivals.push_back(std::move(at));
  }
  const std::unique_ptr<MultiplexPolicy> policy = make_multiplex_policy(t.policy);
  // Elastic sizes its partitions in TPCs; a partition here is a green context, cut in multiples of
  // green_multiple_sms SMs, so that is the unit it may hand out (a share of 66 TPC-rounded SMs
  // would be rounded up by the driver and overflow the GPU).
  GpuPartitioning rules = platform.partitioning(0);
  rules.sms_per_tpc = std::max(rules.sms_per_tpc, rules.green_multiple_sms);
  // The node's duration is on the platform's clock (its window ends there).
  MultiplexNode node(platform, *policy, MultiplexGpu{0, rates, &rules}, services, t0 + Time::seconds(t.duration_s));
  node.start(arrivals);
  run();
  const MultiplexMetrics m = node.metrics();
  MultiplexOutcome o;
  int64_t within = 0;
  for (const ServiceMetrics& s : m.services) {
    within += s.within_slo;
    o.requests += s.arrived;
  }
  o.goodput_rps = static_cast<double>(within) / t.duration_s;
  o.slo_attainment = m.slo_attainment;
  // The node reports percentiles per service: the trial's are the worst service's (the SLO binds
  // for every service, so the slowest one is what a policy must keep in bounds).
  for (const ServiceMetrics& s : m.services) {
    o.p50_latency_s = std::max(o.p50_latency_s, s.p50_latency_s);
    o.p99_latency_s = std::max(o.p99_latency_s, s.p99_latency_s);
  }
  return o;
}

}  // namespace parallax::hw
