// File: sim/platform/channel_colouring.h
// Bandwidth partitions by memory-channel colouring (FGPU, SGDRC; REFERENCE.md §6.6-6.7): a tenant
// whose pages map only to k of the GPU's C channel colours gets at most k/C of HBM bandwidth and
// k/C of its capacity, isolated from tenants on the other colours.
//
//   ColourShare s = colour_share(h200, 3);   // C = 8: bandwidth_share 0.375, capacity 0.375·141 GB
#pragma once

#include <cstdint>

#include "sim/platform/gpu_partitioning.h"

namespace parallax {

struct ColourShare {
  int colours = 0;
  double bandwidth_share = 0;  // k / C
  int64_t memory_bytes = 0;    // floor(k / C · capacity)
};

// Throws PartitionRuleError "channel colours" unless 1 <= k <= C.
ColourShare colour_share(const GpuPartitioning& gpu, int colours, int64_t gpu_memory_bytes);

// Fewest colours whose share covers `bandwidth_share` (rounded up), within [1, C].
int colours_for_share(const GpuPartitioning& gpu, double bandwidth_share);

}  // namespace parallax
