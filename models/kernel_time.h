// File: models/kernel_time.h
// A kernel's time on s SMs with a share β of HBM bandwidth, from wave quantisation and the
// roofline (REFERENCE.md §3.1, §6.8). Pure functions, no engine.
//
//   waves(s)   = ceil(G / (b·s))                           G blocks, b resident blocks per SM
//   T_comp(s)  = F / (η_c · e · P · s/S) · q(s),  q(s) = waves(s)·b·s / G   (q >= 1: idle slots of the
//                                                                         last wave)
//   BW(s, β)   = min(β · B_peak, s · bw_per_SM)            few SMs cannot saturate HBM
//   T_mem(s,β) = D / BW(s, β)
//   T(s, β)    = (T_comp^p + T_mem^p)^(1/p) + t_launch     p = ∞ (smoothing_p 0): max(T_comp, T_mem)
//
// The smoothing exponent p (REFERENCE.md §6.8) says how far a kernel near the ridge point falls
// short of overlapping its compute with its memory traffic: at T_comp = T_mem it takes 2^(1/p)
// times the roofline (p = 4: 1.19x). It is a per-GPU figure of the presets, fitted by the
// calibration sweep's ridge rows (models/calibration_data/measurement_fit.h).
//
// Worked example (tested): G = 200 blocks, b = 1, S = 132: q(132) = 2·132/200 = 1.32 (two waves,
// the second 52 % full); on 100 SMs q = 1, so the kernel is only 1.32·100/132 = 1.0 as slow: waves
// are what makes 100 SMs as good as 132 here.
#pragma once

#include <cstdint>

namespace parallax {

struct KernelShape {
  double flops = 0;        // useful FLOPs
  double dram_bytes = 0;   // DRAM traffic
  int64_t grid_blocks = 1; // G
  int blocks_per_sm = 1;   // b: resident blocks per SM (occupancy)
  double compute_efficiency = 1;  // e: the kernel's own fraction of η_c·P (a GEMM tile's efficiency
                                  // and padding, models/op_kernels.h); 1 for the others
  // SMs the grid can fill at once: ceil(G / b) (Orion's SM_needed).
  int sm_need() const;
};

struct DeviceRates {
  int sms = 0;                  // S
  double peak_flops = 0;        // P, whole GPU
  double hbm_Bps = 0;           // B_peak
  double bw_per_sm_Bps = 0;     // 0 = no per-SM cap
  double eta_compute = 1;       // η_c: achieved fraction of peak at full waves
  double launch_s = 0;          // t_launch
  double smoothing_p = 0;       // p; 0 = ∞ (the plain roofline max)
};

// (a^p + b^p)^(1/p) for a, b >= 0; p = 0 means ∞: max(a, b).
double smoothed_max(double a, double b, double p);

int64_t kernel_waves(const KernelShape& k, int sms);
// q(s) >= 1: slots the waves offer / blocks that fill them.
double wave_factor(const KernelShape& k, int sms);
double kernel_compute_s(const KernelShape& k, const DeviceRates& d, int sms);
double kernel_bandwidth_Bps(const DeviceRates& d, int sms, double bandwidth_share);
double kernel_memory_s(const KernelShape& k, const DeviceRates& d, int sms, double bandwidth_share);
double kernel_time_s(const KernelShape& k, const DeviceRates& d, int sms, double bandwidth_share);
// True when the kernel's whole-GPU compute time exceeds its memory time (roofline class).
bool compute_bound(const KernelShape& k, const DeviceRates& d);

}  // namespace parallax
