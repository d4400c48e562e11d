// File: sim/policies/multiplex/elastic_multiplex.cpp
#include "sim/policies/multiplex/elastic_multiplex.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/policies/multiplex/batch_latency.h"

namespace parallax {

namespace {

// Time left to a deadline below which every service counts as equally late (weights stay finite).
constexpr double kElasticMinLeftS = 1e-6;

// Planning shares are rounded down to this bandwidth step so that the batcher's latency tables
// (one per distinct planning share, multiplex_node.h) stay few.
constexpr double kElasticPlanBandwidthStep = 0.01;

}  // namespace

double elastic_bandwidth_demand(std::span<const OpKernel> kernels, const DeviceRates& rates, int sms) {
  double peak = 0;
  for (const OpKernel& k : kernels) {
    const int s = kernel_sms(k.shape, rates, sms);
    const double t =
        std::max(kernel_compute_s(k.shape, rates, s), k.shape.dram_bytes / kernel_bandwidth_Bps(rates, s, 1.0));
    if (t > 0) peak = std::max(peak, k.shape.dram_bytes / (t * rates.hbm_Bps));
  }
  return std::clamp(peak, 1e-6, 1.0);
}

void ElasticMultiplex::setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) {
  if (gpu.partitioning == nullptr) throw std::invalid_argument("elastic: the GPU has no partitioning data");
  gpu_ = gpu;
  services_ = services;
  limits_ = ElasticLimits{gpu.rates.sms, gpu.partitioning->sms_per_tpc, gpu.partitioning->sms_per_tpc, 0.01};
  demands_.assign(services.size(), ElasticDemand{});
  in_flight_.assign(services.size(), InFlight{});
  remaining_.assign(services.size(), {});
  quota_fraction_.assign(services.size(), 0.0);
  full_batch_.assign(services.size(), ElasticDemand{});
  double wsum = 0;
  for (size_t i = 0; i < services.size(); ++i) {
    quota_fraction_[i] = std::max(offered_gpu_load(services[i], gpu.rates), 1e-12);
    wsum += quota_fraction_[i];
  }
  quota_.clear();
  current_.clear();
  ready_.assign(services.size(), Time::zero());
  const int g = limits_.sms_granule;
  for (size_t i = 0; i < services.size(); ++i) {
    quota_fraction_[i] /= wsum;
    const double f = quota_fraction_[i];
    const auto& largest = services[i].kernels_by_batch.at(static_cast<size_t>(services[i].batcher.max_batch));
    full_batch_[i].active = true;
    full_batch_[i].sm_demand = batch_sm_demand(largest, gpu.rates);
    full_batch_[i].bandwidth_demand = elastic_bandwidth_demand(largest, gpu.rates, full_batch_[i].sm_demand);
    full_batch_[i].weight = f;
    ServiceShare q;
    q.sms = std::max(g, static_cast<int>(f * gpu.rates.sms) / g * g);
    q.bandwidth_share = f;
    ServiceShare c;
    c.partition = platform.create_partition(
        gpu.gpu, PartitionSpec{limits_.idle_sms, limits_.idle_bandwidth_share, "elastic-" + services[i].name});
    c.sms = limits_.idle_sms;
    c.bandwidth_share = limits_.idle_bandwidth_share;
    q.partition = c.partition;
    quota_.push_back(q);
    current_.push_back(c);
  }
}

double ElasticMultiplex::remaining_s(size_t service, int batch, size_t kernel) {
  auto& by_batch = remaining_[service];
  if (by_batch.size() <= static_cast<size_t>(batch)) by_batch.resize(static_cast<size_t>(batch) + 1);
  std::vector<double>& suffix = by_batch[static_cast<size_t>(batch)];
  if (suffix.empty()) {
    const auto& kernels = services_[service].kernels_by_batch.at(static_cast<size_t>(batch));
    const ServiceShare& q = quota_[service];
    suffix.assign(kernels.size() + 1, 0.0);
    for (size_t k = kernels.size(); k-- > 0;)
      suffix[k] = suffix[k + 1] + kernel_time_s(kernels[k].shape, gpu_.rates,
                                                kernel_sms(kernels[k].shape, gpu_.rates, q.sms), q.bandwidth_share);
  }
  return suffix.at(std::min(kernel, suffix.size() - 1));
}

ServiceShare ElasticMultiplex::planning_share(int service) const {
  const auto i = static_cast<size_t>(service);
  if (demands_[i].active) return current_[i];
  std::vector<ElasticDemand> what_if = demands_;
  what_if[i] = full_batch_[i];
  const ElasticShare s = elastic_shares(what_if, limits_)[i];
  const double bw = std::max(kElasticPlanBandwidthStep,
                             std::floor(s.bandwidth_share / kElasticPlanBandwidthStep) * kElasticPlanBandwidthStep);
  return ServiceShare{current_[i].partition, s.sms, bw};
}

void ElasticMultiplex::on_batch_start(Platform& /*platform*/, int service, int batch) {
  // The shares follow at the batch's first kernel (on_kernel), which the node offers at once.
  in_flight_[static_cast<size_t>(service)] = InFlight{batch, 0, Time::zero()};
}

void ElasticMultiplex::on_kernel(Platform& platform, int service, size_t kernel, Time deadline) {
  const auto i = static_cast<size_t>(service);
  InFlight& f = in_flight_[i];
  f.kernel = kernel;
  f.deadline = deadline;
  const OpKernel& k = services_[i].kernels_by_batch.at(static_cast<size_t>(f.batch)).at(kernel);
  demands_[i].active = true;
  demands_[i].sm_demand = kernel_sms(k.shape, gpu_.rates, 0);
  demands_[i].bandwidth_demand = elastic_bandwidth_demand(std::span(&k, 1), gpu_.rates, demands_[i].sm_demand);
  apply(platform);
}

void ElasticMultiplex::on_batch_end(Platform& platform, int service) {
  demands_[static_cast<size_t>(service)].active = false;
  apply(platform);
}

void ElasticMultiplex::apply(Platform& platform) {
  const Time now = platform.now();
  for (size_t i = 0; i < demands_.size(); ++i) {
    if (!demands_[i].active) continue;
    const InFlight& f = in_flight_[i];
    const double left = std::max((f.deadline - now).to_seconds(), kElasticMinLeftS);
    demands_[i].weight = std::max(quota_fraction_[i] * remaining_s(i, f.batch, f.kernel) / left, 1e-12);
  }
  const std::vector<ElasticShare> next = elastic_shares(demands_, limits_);
  // Shrink first so that the SMs reserved never exceed the GPU between two resizes.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < next.size(); ++i) {
      ServiceShare& c = current_[i];
      const bool shrinks = next[i].sms < c.sms;
      if ((pass == 0) != shrinks) continue;
      if (next[i].sms == c.sms && next[i].bandwidth_share == c.bandwidth_share) continue;
      platform.resize_partition(c.partition, PartitionSpec{next[i].sms, next[i].bandwidth_share, {}});
      c.sms = next[i].sms;
      c.bandwidth_share = next[i].bandwidth_share;
      changes_.push_back({platform.now(), static_cast<int>(i), c.sms, c.bandwidth_share});
      ready_[i] = std::max(ready_[i], platform.now() + resize_cost_);
    }
  }
}

}  // namespace parallax
