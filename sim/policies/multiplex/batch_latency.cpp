// File: sim/policies/multiplex/batch_latency.cpp
#include "sim/policies/multiplex/batch_latency.h"

#include <algorithm>

namespace parallax {

int kernel_sms(const KernelShape& kernel, const DeviceRates& rates, int share_sms) {
  const int limit = share_sms > 0 ? std::min(share_sms, rates.sms) : rates.sms;
  return std::max(1, std::min(kernel.sm_need(), limit));
}

double batch_latency_s(std::span<const NamedKernel> kernels, const DeviceRates& rates, int sms, double bandwidth_share) {
  double t = 0;
  for (const NamedKernel& k : kernels) t += kernel_time_s(k.shape, rates, kernel_sms(k.shape, rates, sms), bandwidth_share);
  return t;
}

int batch_sm_demand(std::span<const NamedKernel> kernels, const DeviceRates& rates) {
  int need = 1;
  for (const NamedKernel& k : kernels) need = std::max(need, std::min(k.shape.sm_need(), rates.sms));
  return need;
}

double offered_gpu_load(const ServiceModel& service, const DeviceRates& rates) {
  const int b = service.batcher.max_batch;
  return service.rate_per_s * batch_latency_s(service.kernels_by_batch.at(static_cast<size_t>(b)), rates, 0, 1.0) / b;
}

}  // namespace parallax
