// File: models/calibrated_defaults.cpp
// The numbers behind calibrated_defaults.h. Fitted values are printed by
// parallax-validate-models (docs/models.md) and mirrored in models/calibration/*.yaml.
#include "models/calibrated_defaults.h"

namespace parallax::models {

GpuComputeParams a100_sxm_hardware() {
  GpuComputeParams p;
  p.sms = 108;
  p.peak_flops = 312e12;
  p.hbm_Bps = 2.039e12;
  return p;
}

GpuComputeParams h100_sxm_hardware() {
  GpuComputeParams p;
  p.sms = 132;
  p.peak_flops = 989.4e12;
  p.hbm_Bps = 3.35e12;
  return p;
}

GpuComputeParams a100_sxm_gemm_calibrated() {
  GpuComputeParams p = a100_sxm_hardware();
  p.tile_m = 64;
  p.tile_n = 64;
  p.eta_max = 0.7417;
  p.k_half = 33.6;
  p.eta_mem = 0.7781;
  p.overhead_s = 5.179e-6;
  return p;
}

GpuComputeParams h100_sxm_gemm_calibrated() {
  GpuComputeParams p = h100_sxm_hardware();
  p.tile_m = 128;
  p.tile_n = 64;
  p.eta_max = 0.7609;
  p.k_half = 108.8;
  p.eta_mem = 0.7570;
  p.overhead_s = 5.117e-6;
  return p;
}

RingFit a100_dgx_ring_calibrated() {
  RingFit f;
  f.link_Bps = kA100NvlinkPerGpu_Bps;
  f.base_latency_s = 3.059e-5;
  f.step_latency_s = 4.538e-7;
  f.bandwidth_efficiency = 0.5128;
  return f;
}

RingFit h100_dgx_ring_calibrated() {
  RingFit f;
  f.link_Bps = kH100NvlinkPerGpu_Bps;
  f.base_latency_s = 1.895e-5;
  f.step_latency_s = 7.252e-7;
  f.bandwidth_efficiency = 0.7324;
  return f;
}

}  // namespace parallax::models
