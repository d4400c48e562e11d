// File: sim/policies/multiplex/multiplex_comparison.cpp
#include "sim/policies/multiplex/multiplex_comparison.h"

namespace parallax {

namespace {

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

}  // namespace

std::optional<MultiplexComparison> compare_elastic_with_baselines(const std::vector<MultiplexOutcome>& outcomes) {
  const MultiplexOutcome* elastic = nullptr;
  for (const MultiplexOutcome& o : outcomes)
    if (elastic == nullptr && o.name == "elastic") elastic = &o;
  if (elastic == nullptr) return std::nullopt;
  MultiplexComparison c;
  c.policy = elastic->name;
  const MultiplexOutcome* best = nullptr;
  for (const MultiplexOutcome& o : outcomes) {
    if (&o == elastic) continue;
    const MultiplexBaselineRatio r{o.name, ratio(elastic->goodput_rps, o.goodput_rps),
                                   ratio(elastic->throughput_rps, o.throughput_rps),
                                   elastic->slo_attainment - o.slo_attainment,
                                   o.mean_latency_s > 0 ? elastic->mean_latency_s / o.mean_latency_s - 1 : 0};
    c.baselines.push_back(r);
    if (best == nullptr || o.goodput_rps > best->goodput_rps) {
      best = &o;
      c.best_baseline = r;
    }
  }
  return c;
}

}  // namespace parallax
