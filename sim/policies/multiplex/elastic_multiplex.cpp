// File: sim/policies/multiplex/elastic_multiplex.cpp
#include "sim/policies/multiplex/elastic_multiplex.h"

#include <algorithm>
#include <stdexcept>

#include "sim/policies/multiplex/batch_latency.h"

namespace parallax {

namespace {

// The batch's peak HBM fraction on `sms` SMs: max over kernels of D / (T(sms, 1) · B).
double bandwidth_demand(std::span<const OpKernel> kernels, const DeviceRates& d, int sms) {
  double peak = 0;
  for (const OpKernel& k : kernels) {
    const int s = kernel_sms(k.shape, d, sms);
    const double t = std::max(kernel_compute_s(k.shape, d, s), k.shape.dram_bytes / kernel_bandwidth_Bps(d, s, 1.0));
    if (t > 0) peak = std::max(peak, k.shape.dram_bytes / (t * d.hbm_Bps));
  }
  return std::clamp(peak, 1e-6, 1.0);
}

}  // namespace

void ElasticMultiplex::setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) {
  if (gpu.partitioning == nullptr) throw std::invalid_argument("elastic: the GPU has no partitioning data");
  gpu_ = gpu;
  services_ = services;
  limits_ = ElasticLimits{gpu.rates.sms, gpu.partitioning->sms_per_tpc, gpu.partitioning->sms_per_tpc, 0.01};
  demands_.assign(services.size(), ElasticDemand{});
  double wsum = 0;
  for (size_t i = 0; i < services.size(); ++i) {
    demands_[i].weight = std::max(offered_gpu_load(services[i], gpu.rates), 1e-12);
    wsum += demands_[i].weight;
  }
  quota_.clear();
  current_.clear();
  ready_.assign(services.size(), Time::zero());
  const int g = limits_.sms_granule;
  for (size_t i = 0; i < services.size(); ++i) {
    const double f = demands_[i].weight / wsum;
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

void ElasticMultiplex::on_batch_start(Platform& platform, int service, int batch) {
  const auto i = static_cast<size_t>(service);
  const auto& kernels = services_[i].kernels_by_batch.at(static_cast<size_t>(batch));
  demands_[i].active = true;
  demands_[i].sm_demand = batch_sm_demand(kernels, gpu_.rates);
  demands_[i].bandwidth_demand = bandwidth_demand(kernels, gpu_.rates, demands_[i].sm_demand);
  apply(platform);
}

void ElasticMultiplex::on_batch_end(Platform& platform, int service) {
  demands_[static_cast<size_t>(service)].active = false;
  apply(platform);
}

void ElasticMultiplex::apply(Platform& platform) {
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
