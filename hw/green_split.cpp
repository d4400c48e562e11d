// File: hw/green_split.cpp
#include "hw/green_split.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/platform/green_context_groups.h"

namespace parallax::hw {

GpuPartitioning green_rules(const std::string& name, int sms, int min_sms, int multiple_sms) {
  GpuPartitioning p;
  p.name = name;
  p.sms = sms;
  p.green_min_sms = min_sms;
  p.green_multiple_sms = multiple_sms;
  return p;
}

GreenSplit split_green_groups(const GpuPartitioning& gpu, const std::vector<int>& requested) {
  GreenSplit out;
  int left = gpu.sms;
  for (size_t i = 0; i < requested.size(); ++i) {
    if (requested[i] < 1)
      throw PartitionRuleError("green-context granularity",
                               fmt::format("{}: SM group {} asks for {} SMs", gpu.name, i, requested[i]));
    // Round against the whole GPU (the rule), then check what is left (the chain).
    const int want = std::max(requested[i], gpu.green_min_sms);
    const int m = gpu.green_multiple_sms;
    const int g = (want + m - 1) / m * m;
    if (g > left)
      throw PartitionRuleError("green-context total",
                               fmt::format("{}: SM group {} needs {} SMs (asked {}), {} of {} are left", gpu.name, i, g,
                                           requested[i], left, gpu.sms));
    out.groups.push_back(g);
    left -= g;
  }
  check_green_context_groups(gpu, out.groups);
  out.remaining = left;
  return out;
}

}  // namespace parallax::hw
