// File: sim/policies/multiplex/batch_latency.h
// One batch's latency alone on a share, from the kernel model (models/kernel_time.h): the kernels
// run back to back, each on min(its SM need, share SMs) SMs with the share's bandwidth:
//   lat(n) = Σ_k T(min(need_k(n), s), β)          (s = 0 means the whole GPU)
#pragma once

#include <span>

#include "models/op_kernels.h"
#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax {

double batch_latency_s(std::span<const OpKernel> kernels, const DeviceRates& rates, int sms, double bandwidth_share);

// The SMs a kernel gets under a share: min(need, share SMs or all), at least 1.
int kernel_sms(const KernelShape& kernel, const DeviceRates& rates, int share_sms);

// The batch's SM demand: the largest need among its kernels, capped at the GPU.
int batch_sm_demand(std::span<const OpKernel> kernels, const DeviceRates& rates);

// How much of a share one kernel keeps busy (docs/multiplex.md, instance saturation), on a
// partition of `partition_sms` SMs (> 0) with bandwidth share β, from the kernel model:
//   sm   = G / (waves(s)·b·s)          block slots the kernel fills over its waves on all s SMs
//   hbm  = D / (T(s, β) · β · B_peak)  the roofline's use of the share's bandwidth
//   time = T(s, β)                     the weight when averaging over kernels
// A kernel too small for its partition (few blocks at a small batch) has sm < 1 however long it
// runs: the part of a rigid instance nobody can use.
struct KernelSaturation {
  double time_s = 0;
  double sm = 0;
  double hbm = 0;
};
KernelSaturation kernel_saturation(const KernelShape& kernel, const DeviceRates& rates, int partition_sms,
                                   double bandwidth_share);

// Mean GPU-seconds per second a service offers: rate · lat(max_batch on the whole GPU) / max_batch.
double offered_gpu_load(const ServiceModel& service, const DeviceRates& rates);

}  // namespace parallax
