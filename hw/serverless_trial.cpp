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
#include "sim/scenario/model_catalog.h"

namespace parallax::hw {

namespace {

ModelClass model_class(Heaviness h) {
  return h == Heaviness::light ? ModelClass::light : h == Heaviness::median ? ModelClass::median : ModelClass::heavy;
}

std::vector<std::string> split_plus(const std::string& s) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= s.size()) {
    const size_t end = std::min(s.find('+', pos), s.size());
    if (end > pos) out.push_back(s.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> serverless_trial_config(const ServerlessTrial& t) {
  std::string models;
  for (const std::string& m : t.models) models += (models.empty() ? "" : "+") + m;
  return {{"policy", t.policy},
          {"models", models},
          {"rate_per_s", fmt::format("{}", t.rate_per_s)},
          {"duration_s", fmt::format("{}", t.duration_s)},
          {"seed", std::to_string(t.seed)},
          {"pool_bytes", std::to_string(t.pool_bytes)},
          {"gpu_kind", t.gpu_kind},
          {"flops_per_s", fmt::format("{}", t.flops_per_s)},
          {"launch_s", fmt::format("{}", t.launch_s)},
          {"host_link_Bps", fmt::format("{}", t.host_link_Bps)}};
}

ServerlessTrial serverless_trial_from(const models::Measurement& r) {
  ServerlessTrial t;
  t.policy = r.text("policy");
  t.models = split_plus(r.text("models"));
  t.rate_per_s = r.number("rate_per_s");
  t.duration_s = r.number("duration_s");
  t.seed = static_cast<uint64_t>(r.number("seed"));
  t.pool_bytes = static_cast<int64_t>(r.number("pool_bytes"));
  t.gpu_kind = r.text("gpu_kind");
  t.flops_per_s = r.number("flops_per_s");
  t.launch_s = r.number("launch_s");
  t.host_link_Bps = r.number("host_link_Bps");
  if (t.models.empty() || !(t.rate_per_s > 0) || !(t.duration_s > 0) || t.pool_bytes < 1 || !(t.flops_per_s > 0) ||
      !(t.host_link_Bps > 0) || catalog_gpu_kind(t.gpu_kind) < 0)
    throw models::DataError(r.file, r.line,
                            fmt::format("serverless case {}: needs models, a known gpu_kind and rate_per_s, duration_s, "
                                        "pool_bytes, flops_per_s, host_link_Bps > 0",
                                        r.case_id));
  for (const std::string& m : t.models)
    if (embedded_model_catalog().find(m) == nullptr)
      throw models::DataError(r.file, r.line, fmt::format("serverless case {}: unknown catalog model '{}'", r.case_id, m));
  return t;
}

std::vector<TrialMetric> serverless_metrics() {
  return {{"p50_latency_s", "s"}, {"p99_latency_s", "s"}, {"slo_attainment", "fraction"}, {"swaps", "count"}};
}

double serverless_metric(const ServerlessOutcome& o, std::string_view metric) {
  if (metric == "p50_latency_s") return o.p50_latency_s;
  if (metric == "p99_latency_s") return o.p99_latency_s;
  if (metric == "slo_attainment") return o.slo_attainment;
  if (metric == "swaps") return o.swaps;
  throw std::invalid_argument(fmt::format("unknown serverless metric '{}'", metric));
}

ServerlessOutcome run_serverless_trial(Platform& platform, const ServerlessTrial& t, const std::function<void()>& run,
                                       double compute_scale) {
  const ModelCatalog& catalog = embedded_model_catalog();
  const int kind = catalog_gpu_kind(t.gpu_kind);
  if (kind < 0) throw std::invalid_argument(fmt::format("no catalog compute times for GPU kind '{}'", t.gpu_kind));
  std::vector<ServedModel> models;
  std::vector<ServedFunction> functions;
  for (const std::string& name : t.models) {
    const CatalogModel& c = catalog.at(name);
    ServedModel m;
    m.name = c.name;
    m.heaviness = model_class(c.heaviness);
    for (const CatalogLayer& l : c.layers) m.layers.push_back({l.param_bytes, l.compute_s[static_cast<size_t>(kind)] * compute_scale});
    m.param_bytes = c.param_bytes();
    m.compute_s = c.compute_s(kind) * compute_scale;
    m.native_s = c.native_s[static_cast<size_t>(kind)];
    m.native_footprint_bytes = c.native_footprint_bytes;
    m.slo = Time::seconds(c.slo_s);
    m.cold_start = Time::seconds(c.cold_start_s);
    functions.push_back({c.name, static_cast<uint32_t>(models.size())});
    models.push_back(std::move(m));
  }
  ServerlessPolicy policy = serverless_policy_preset(t.policy);
  policy.reserve_bytes = t.pool_bytes;
  policy.closed_form = false;

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

  // One GPU, one host, no NVLink: every load goes host -> GPU through the platform.
  NodeLinks links;
  links.peer_Bps = {{0.0}};
  links.pcie_sibling = {-1};
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
