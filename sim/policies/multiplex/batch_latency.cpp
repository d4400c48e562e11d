// File: sim/policies/multiplex/batch_latency.cpp
#include "sim/policies/multiplex/batch_latency.h"

#include <algorithm>

namespace parallax {

int kernel_sms(const KernelShape& kernel, const DeviceRates& rates, int share_sms) {
  const int limit = share_sms > 0 ? std::min(share_sms, rates.sms) : rates.sms;
  return std::max(1, std::min(kernel.sm_need(), limit));
}

double batch_latency_s(std::span<const OpKernel> kernels, const DeviceRates& rates, int sms, double bandwidth_share) {
  double t = 0;
  for (const OpKernel& k : kernels) t += kernel_time_s(k.shape, rates, kernel_sms(k.shape, rates, sms), bandwidth_share);
  return t;
}

int batch_sm_demand(std::span<const OpKernel> kernels, const DeviceRates& rates) {
  int need = 1;
  for (const OpKernel& k : kernels) need = std::max(need, std::min(k.shape.sm_need(), rates.sms));
  return need;
}

KernelSaturation kernel_saturation(const KernelShape& kernel, const DeviceRates& rates, int partition_sms,
                                   double bandwidth_share) {
  const int s = std::clamp(partition_sms, 1, rates.sms);
  const double slots =
      static_cast<double>(kernel_waves(kernel, s)) * std::max(kernel.blocks_per_sm, 1) * static_cast<double>(s);
  KernelSaturation u;
  u.time_s = kernel_time_s(kernel, rates, s, bandwidth_share);
  u.sm = static_cast<double>(std::max<int64_t>(kernel.grid_blocks, 1)) / slots;
  const double bw = bandwidth_share * rates.hbm_Bps;
  u.hbm = u.time_s > 0 && bw > 0 ? std::min(1.0, kernel.dram_bytes / (u.time_s * bw)) : 0;
  return u;
}

double offered_gpu_load(const ServiceModel& service, const DeviceRates& rates) {
  const int b = service.batcher.max_batch;
  return service.rate_per_s * batch_latency_s(service.kernels_by_batch.at(static_cast<size_t>(b)), rates, 0, 1.0) / b;
}

}  // namespace parallax
