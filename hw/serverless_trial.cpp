// File: hw/serverless_trial.cpp
#include "hw/serverless_trial.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "models/calibration_data/data_error.h"
#include "sim/engine/random_streams.h"
#include "sim/policies/serverless/policy_presets.h"
#include "sim/policies/serverless/serverless_metrics.h"
#include "sim/policies/serverless/serverless_node.h"
#include "sim/policies/serverless/catalog_models.h"
#include "sim/policies/serverless/node_links.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax::hw {

double serverless_metric(const ServerlessOutcome& o, std::string_view metric) {
  if (metric == "p50_latency_s") return o.p50_latency_s;
  if (metric == "p99_latency_s") return o.p99_latency_s;
  if (metric == "slo_attainment") return o.slo_attainment;
  if (metric == "swaps") return o.swaps;
  throw std::invalid_argument(fmt::format("unknown serverless metric '{}'", metric));
}

namespace {

// The hardware preset whose GPU gives the layers of `gpu_kind` their compute times.
GpuSpec catalog_gpu(std::string_view gpu_kind) {
  constexpr std::pair<std::string_view, std::string_view> kPresets[] = {
      {"V100", "v100x4-gn6e"}, {"A100", "dgx-a100"}, {"H100", "dgx-h100"}, {"H200", "h200x1"}};
  for (const auto& [kind, preset] : kPresets)
    if (kind == gpu_kind) return load_hardware_preset(preset).gpus.at(0);
  throw std::invalid_argument(fmt::format("unknown GPU kind '{}' (V100, A100, H100, H200)", gpu_kind));
}

}  // namespace

ServerlessOutcome run_serverless_trial(Platform& platform, const ServerlessTrial& t, const std::function<void()>& run,
                                       double compute_scale) {
  const std::vector<ServedModel> models = served_models(t.models, catalog_gpu(t.gpu_kind), compute_scale);
  std::vector<ServedFunction> functions;
  for (const ServedModel& m : models) functions.push_back({m.name, static_cast<uint32_t>(functions.size())});
  ServerlessPolicy policy = serverless_policy_preset(t.policy);
  policy.reserve_bytes = t.pool_bytes;
  policy.closed_form = false;
  policy.record_requests = true;

  // Per function a Poisson stream with rate ∝ 1/(i+1), merged.
  double weights = 0;
  for (size_t i = 0; i < functions.size(); ++i) weights += 1.0 / static_cast<double>(i + 1);
  RandomStreams streams(t.seed);
  const Time t0 = platform.now();
  std::vector<ServerlessArrival> arrivals;
  for (size_t i = 0; i < functions.size(); ++i) {
    RandomStream& gaps = streams.stream(fmt::format("serverless.arrivals.{}", i));
    const double mean_gap_s = weights * static_cast<double>(i + 1) / t.rate_per_s;
    for (double at = gaps.exponential(mean_gap_s); at < t.duration_s; at += gaps.exponential(mean_gap_s))
      arrivals.push_back({t0 + Time::seconds(at), static_cast<uint32_t>(i)});
  }
  std::stable_sort(arrivals.begin(), arrivals.end(),
                   [](const ServerlessArrival& a, const ServerlessArrival& b) { return a.at < b.at; });

  // The node's links as the platform tells them (one GPU: every load goes host -> GPU).
  const NodeLinks links = node_links(platform);
  RandomStream& select = streams.stream("serverless.gpu_select");
  ServerlessNode node(platform, policy, models, functions, links, select);
  node.start(arrivals);
  run();

  ServerlessOutcome o;
  std::vector<double> latencies;
  int64_t within = 0;
  for (const RequestRecord& r : node.requests()) {
    if (r.state != RequestState::finished)
      throw std::logic_error(fmt::format("serverless trial: a request of {} did not finish", functions[r.function].name));
    const Time latency = r.finish - r.arrival;
    latencies.push_back(latency.to_seconds());
    if (latency <= models[functions[r.function].model].slo) ++within;
  }
  o.requests = static_cast<int64_t>(latencies.size());
  o.p50_latency_s = nearest_rank(latencies, 0.50);
  o.p99_latency_s = nearest_rank(latencies, 0.99);
  o.slo_attainment = latencies.empty() ? 0 : static_cast<double>(within) / static_cast<double>(latencies.size());
  o.swaps = static_cast<double>(node.counters().pcie);
  return o;
}

}  // namespace parallax::hw
