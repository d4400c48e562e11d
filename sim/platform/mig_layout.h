// File: sim/platform/mig_layout.h
// MIG layouts: a list of (profile, placement start) checked against a GPU's MIG rules, and what
// each instance then gets: its SMs, its share of HBM bandwidth and L2 (memory slices / 8,
// isolated) and its memory capacity. REFERENCE.md §1.4.
//
//   GpuPartitioning h200 = ...;                      // from gpu-partitioning.yaml
//   auto layout = check_mig_layout(h200, {{"4g.71gb", 0}, {"3g.71gb", 4}});
//   layout[1].sms == 60; layout[1].bandwidth_share == 0.5;
//
// Rules, each a PartitionRuleError naming it: unknown profile ("profile"); start not among the
// profile's legal starts ("placement start"); more instances of a profile than it allows
// ("instances of profile"); more than 7 instances ("instances"); compute slices summing past 7
// ("compute slices"); two instances sharing a memory slice ("memory slices overlap").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/platform/gpu_partitioning.h"

namespace parallax {

struct MigPlacement {
  std::string profile;
  int start = 0;  // memory-slice offset
};

struct MigInstance {
  std::string profile;
  int start = 0;
  int sms = 0;
  int memory_slices = 0;
  double bandwidth_share = 0;  // memory_slices / mig_memory_slices
  int64_t memory_bytes = 0;
};

// Throws PartitionRuleError on the first broken rule (checked in the order above).
std::vector<MigInstance> check_mig_layout(const GpuPartitioning& gpu, const std::vector<MigPlacement>& layout);

// The instance as a Platform partition spec (SMs and bandwidth cap), named `name`.
PartitionSpec mig_partition_spec(const MigInstance& instance, const std::string& name);

}  // namespace parallax
