// File: sim/platform/channel_colouring.cpp
#include "sim/platform/channel_colouring.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace parallax {

ColourShare colour_share(const GpuPartitioning& gpu, int colours, int64_t gpu_memory_bytes) {
  if (colours < 1 || colours > gpu.channel_colours)
    throw PartitionRuleError("channel colours", fmt::format("{}: {} channel colours; a tenant holds 1 to {}", gpu.name,
                                                            colours, gpu.channel_colours));
  ColourShare s;
  s.colours = colours;
  s.bandwidth_share = static_cast<double>(colours) / gpu.channel_colours;
  s.memory_bytes = gpu_memory_bytes / gpu.channel_colours * colours;
  return s;
}

int colours_for_share(const GpuPartitioning& gpu, double bandwidth_share) {
  const int k = static_cast<int>(std::ceil(bandwidth_share * gpu.channel_colours - 1e-9));
  return std::clamp(k, 1, gpu.channel_colours);
}

}  // namespace parallax
