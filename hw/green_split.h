// File: hw/green_split.h
// The SM counts a chain of green-context splits gives: each partition is cut from what the
// previous ones left (cuDevSmResourceSplitByCount with one group, then the remainder), rounded up
// to the granularity rules of sim/platform/green_context_groups.h (Hopper: min 8, multiples of 8).
// CudaPlatform cuts its partitions this way so they are disjoint (two splits of the whole device
// may overlap, REFERENCE.md §6.2); the plan uses it to name the SMs a case will get.
//
//   split_green_groups(green_rules("H200", 132, 8, 8), {30, 64})  // groups {32, 64}, remaining 36
#pragma once

#include <string>
#include <vector>

#include "sim/platform/gpu_partitioning.h"

namespace parallax::hw {

// A GpuPartitioning carrying only what green contexts need (from the device or the dry-run facts).
GpuPartitioning green_rules(const std::string& name, int sms, int min_sms, int multiple_sms);

struct GreenSplit {
  std::vector<int> groups;  // SMs each requested group gets
  int remaining = 0;        // SMs left over
};

// Throws PartitionRuleError ("green-context total") when the rounded groups need more SMs than
// the GPU has, and for a request below 1 SM ("green-context granularity").
GreenSplit split_green_groups(const GpuPartitioning& gpu, const std::vector<int>& requested);

}  // namespace parallax::hw
