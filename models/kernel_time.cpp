// File: models/kernel_time.cpp
#include "models/kernel_time.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace parallax {

int KernelShape::sm_need() const {
  const int64_t b = std::max(blocks_per_sm, 1);
  return static_cast<int>((std::max<int64_t>(grid_blocks, 1) + b - 1) / b);
}

int64_t kernel_waves(const KernelShape& k, int sms) {
  if (sms <= 0) throw std::invalid_argument("kernel_waves: sms must be > 0");
  const int64_t slots = static_cast<int64_t>(sms) * std::max(k.blocks_per_sm, 1);
  return (std::max<int64_t>(k.grid_blocks, 1) + slots - 1) / slots;
}

double wave_factor(const KernelShape& k, int sms) {
  const int used = std::min(sms, k.sm_need());
  const double slots = static_cast<double>(kernel_waves(k, used)) * std::max(k.blocks_per_sm, 1) * used;
  return slots / static_cast<double>(std::max<int64_t>(k.grid_blocks, 1));
}

double kernel_compute_s(const KernelShape& k, const DeviceRates& d, int sms) {
  if (k.flops <= 0) return 0;
  const int used = std::min(sms, k.sm_need());
  return k.flops / (d.eta_compute * k.compute_efficiency * d.peak_flops * used / d.sms) * wave_factor(k, sms);
}

double kernel_bandwidth_Bps(const DeviceRates& d, int sms, double bandwidth_share) {
  double bw = bandwidth_share * d.hbm_Bps;
  if (d.bw_per_sm_Bps > 0) bw = std::min(bw, sms * d.bw_per_sm_Bps);
  return bw;
}

double smoothed_max(double a, double b, double p) {
  const double hi = std::max(a, b), lo = std::min(a, b);
  if (p <= 0 || hi <= 0) return hi;
  // hi·(1 + (lo/hi)^p)^(1/p): no overflow for any p. p = 4 (the presets') without pow: the
  // kernel model evaluates this per kernel and per candidate tile, and pow is most of its cost.
  const double r = lo / hi;
  if (p == 4) return hi * std::sqrt(std::sqrt(1 + r * r * r * r));
  return hi * std::pow(1 + std::pow(r, p), 1 / p);
}

double kernel_memory_s(const KernelShape& k, const DeviceRates& d, int sms, double bandwidth_share) {
  const int used = std::min(sms, k.sm_need());
  return k.dram_bytes > 0 ? k.dram_bytes / kernel_bandwidth_Bps(d, used, bandwidth_share) : 0;
}

double kernel_time_s(const KernelShape& k, const DeviceRates& d, int sms, double bandwidth_share) {
  return smoothed_max(kernel_compute_s(k, d, sms), kernel_memory_s(k, d, sms, bandwidth_share), d.smoothing_p) +
         d.launch_s;
}

bool compute_bound(const KernelShape& k, const DeviceRates& d) {
  return kernel_compute_s(k, d, d.sms) >= (k.dram_bytes > 0 ? k.dram_bytes / d.hbm_Bps : 0);
}

}  // namespace parallax
