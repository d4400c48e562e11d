// File: models/block_dispatch.cpp
#include "models/block_dispatch.h"

#include <algorithm>
#include <cmath>

namespace parallax {

double kernel_block_s(const KernelShape& k, const DeviceRates& d, int sms) {
  const int s = std::max(1, std::min(sms, k.sm_need()));
  const double solo = kernel_time_s(k, d, s, 1.0) - d.launch_s;
  return solo / static_cast<double>(kernel_waves(k, s));
}

double dispatch_wait_s(double held_fraction, double block_s, double elapsed_s, double own_s) {
  if (!(held_fraction > 0) || !(block_s > 0)) return 0;
  const double f = std::min(held_fraction, 1.0);
  const double own = std::max(own_s, 0.0);
  if (elapsed_s < block_s) {  // first wave: every held SM frees at r
    const double r = block_s - std::max(elapsed_s, 0.0);
    if (f < 1 && own <= (1 - f) * r) return own * f / (1 - f);
    return f * r;
  }
  if (own >= block_s * (1 - f / 2)) return f * block_s / 2;
  // Finishes while the held SMs are still freeing: (f / 2b)·t² + (1 − f)·t − own = 0.
  const double t = block_s * (std::sqrt((1 - f) * (1 - f) + 2 * f * own / block_s) - (1 - f)) / f;
  return std::max(0.0, t - own);
}

}  // namespace parallax
