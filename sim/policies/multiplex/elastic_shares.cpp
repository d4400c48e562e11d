// File: sim/policies/multiplex/elastic_shares.cpp
#include "sim/policies/multiplex/elastic_shares.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

std::vector<double> water_fill(std::span<const double> caps, std::span<const double> weights, double pool) {
  std::vector<double> out(caps.size(), 0.0);
  std::vector<bool> open(caps.size(), true);
  double remaining = pool;
  for (;;) {
    double wsum = 0;
    for (size_t i = 0; i < caps.size(); ++i)
      if (open[i]) wsum += weights[i];
    if (wsum <= 0) break;
    bool capped = false;
    for (size_t i = 0; i < caps.size(); ++i) {
      if (!open[i] || caps[i] > weights[i] / wsum * remaining) continue;
      out[i] = caps[i];
      open[i] = false;
      capped = true;
    }
    if (capped) {
      remaining = pool;
      for (size_t i = 0; i < caps.size(); ++i)
        if (!open[i]) remaining -= out[i];
      continue;
    }
    for (size_t i = 0; i < caps.size(); ++i)
      if (open[i]) out[i] = weights[i] / wsum * remaining;
    break;
  }
  return out;
}

std::vector<ElasticShare> elastic_shares(std::span<const ElasticDemand> demands, const ElasticLimits& limits) {
  const int g = std::max(1, limits.sms_granule);
  std::vector<ElasticShare> out(demands.size());
  std::vector<size_t> active;
  for (size_t i = 0; i < demands.size(); ++i) {
    if (demands[i].active) {
      active.push_back(i);
    } else {
      out[i] = {limits.idle_sms, limits.idle_bandwidth_share};
    }
  }
  const int idle = static_cast<int>(demands.size() - active.size());
  const int sm_pool = limits.gpu_sms - idle * limits.idle_sms;
  const double bw_pool = 1.0 - idle * limits.idle_bandwidth_share;
  if (active.empty()) return out;
  if (sm_pool < g * static_cast<int>(active.size()) || bw_pool <= 0)
    throw std::invalid_argument(fmt::format("elastic: {} active and {} idle services do not fit in {} SMs",
                                            active.size(), idle, limits.gpu_sms));
  std::vector<double> sm_caps, bw_caps, weights;
  for (size_t i : active) {
    const int d = std::clamp((demands[i].sm_demand + g - 1) / g * g, g, limits.gpu_sms);
    sm_caps.push_back(d);
    bw_caps.push_back(std::clamp(demands[i].bandwidth_demand, 1e-6, 1.0));
    weights.push_back(std::max(demands[i].weight, 1e-12));
  }
  const std::vector<double> sm_fill = water_fill(sm_caps, weights, sm_pool);
  std::vector<int> sms(active.size());
  int used = 0;
  for (size_t k = 0; k < active.size(); ++k) {
    sms[k] = std::max(g, static_cast<int>(sm_fill[k] + 1e-9) / g * g);
    used += sms[k];
  }
  // Services bumped up to one granule may push the sum past the pool: take granules back from
  // the largest share (lowest index on ties).
  while (used > sm_pool) {
    size_t big = 0;
    for (size_t k = 1; k < active.size(); ++k)
      if (sms[k] > sms[big]) big = k;
    if (sms[big] <= g) break;
    sms[big] -= g;
    used -= g;
  }
  while (used + g <= sm_pool) {
    size_t best = active.size();
    double best_gap = 0;
    for (size_t k = 0; k < active.size(); ++k) {
      const double gap = sm_caps[k] - sms[k];
      if (gap > best_gap) {
        best_gap = gap;
        best = k;
      }
    }
    if (best == active.size()) break;
    sms[best] += g;
    used += g;
  }
  if (used > sm_pool) throw std::invalid_argument("elastic: shares exceed the SM pool after rounding");
  const std::vector<double> bw_fill = water_fill(bw_caps, weights, bw_pool);
  double bw_used = 0, wsum = 0;
  for (size_t k = 0; k < active.size(); ++k) {
    bw_used += bw_fill[k];
    wsum += weights[k];
  }
  const double spare = std::max(0.0, bw_pool - bw_used);
  for (size_t k = 0; k < active.size(); ++k) {
    const double b = std::min(1.0, bw_fill[k] + spare * weights[k] / wsum);
    out[active[k]] = {sms[k], b};
  }
  return out;
}

}  // namespace parallax
