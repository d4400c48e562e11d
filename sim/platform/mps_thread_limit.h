// File: sim/platform/mps_thread_limit.h
// MPS `CUDA_MPS_ACTIVE_THREAD_PERCENTAGE` as the simulator treats it: a limit, not a reservation
// (REFERENCE.md §6.2). A client at p % may occupy at most ceil(p/100 · SMs) SMs at once; nothing is
// set aside for it, so clients whose limits add up past 100 % contend for the same SMs. It maps to
// KernelProfile::max_sms of each kernel the client launches on the whole GPU.
//
//   mps_sm_limit(132, 50.0) == 66;   mps_sm_limit(132, 33.0) == 44 (43.56 rounded up)
#pragma once

#include <cmath>

#include <fmt/format.h>

#include "sim/platform/gpu_partitioning.h"

namespace parallax {

// Throws PartitionRuleError "MPS thread percentage" unless 0 < percentage <= 100.
inline int mps_sm_limit(int gpu_sms, double active_thread_percentage) {
  if (!(active_thread_percentage > 0) || active_thread_percentage > 100)
    throw PartitionRuleError("MPS thread percentage",
                             fmt::format("MPS active thread percentage {} is not in (0, 100]", active_thread_percentage));
  const int s = static_cast<int>(std::ceil(active_thread_percentage / 100.0 * gpu_sms - 1e-9));
  return s < 1 ? 1 : s;
}

// The kernel's SM cap under the limit: the grid's own need (0 = any) and the MPS limit, whichever
// is smaller.
inline int mps_kernel_max_sms(int grid_sm_need, int gpu_sms, double active_thread_percentage) {
  const int limit = mps_sm_limit(gpu_sms, active_thread_percentage);
  return grid_sm_need > 0 && grid_sm_need < limit ? grid_sm_need : limit;
}

}  // namespace parallax
