// File: sim/platform/green_context_groups.cpp
#include "sim/platform/green_context_groups.h"

#include <algorithm>

#include <fmt/format.h>

namespace parallax {

void check_green_context_groups(const GpuPartitioning& gpu, const std::vector<int>& group_sms) {
  int total = 0;
  for (size_t i = 0; i < group_sms.size(); ++i) {
    const int s = group_sms[i];
    if (s < gpu.green_min_sms || s % gpu.green_multiple_sms != 0)
      throw PartitionRuleError("green-context granularity",
                               fmt::format("{}: SM group {} has {} SMs; groups need at least {} SMs in multiples of {}",
                                           gpu.name, i, s, gpu.green_min_sms, gpu.green_multiple_sms));
    total += s;
  }
  if (total > gpu.sms)
    throw PartitionRuleError("green-context total",
                             fmt::format("{}: SM groups need {} SMs, the GPU has {}", gpu.name, total, gpu.sms));
}

int round_to_green_context(const GpuPartitioning& gpu, int sms) {
  const int m = gpu.green_multiple_sms;
  const int largest = gpu.sms / m * m;
  int s = std::max(sms, gpu.green_min_sms);
  s = (s + m - 1) / m * m;
  return std::min(s, largest);
}

int round_to_tpcs(const GpuPartitioning& gpu, int sms) {
  const int t = gpu.sms_per_tpc;
  const int s = (std::max(sms, 1) + t - 1) / t * t;
  return std::min(s, gpu.sms);
}

}  // namespace parallax
