// File: sim/platform/gpu_partitioning.h
// Plain data describing how one GPU model can be divided: its MIG profiles (SMs, compute and
// memory slices, legal placement starts), the green-context SM granularity, SMs per TPC and the
// number of memory-channel colours. Filled from scenarios/partitioning/gpu-partitioning.yaml by
// sim/scenario/gpu_partitioning_reader.h; the rules over it live in mig_layout.h,
// green_context_groups.h, channel_colouring.h and mps_thread_limit.h.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/platform/platform.h"

namespace parallax {

struct MigProfile {
  std::string name;          // e.g. "3g.71gb"
  int compute_slices = 0;    // of GpuPartitioning::mig_compute_slices (7)
  int memory_slices = 0;     // of GpuPartitioning::mig_memory_slices (8)
  int sms = 0;
  double memory_GiB = 0;
  int max_instances = 0;
  std::vector<int> starts;   // legal placement starts, in memory slices
};

struct GpuPartitioning {
  std::string name;                 // e.g. "H200-141GB"
  std::vector<std::string> models;  // GpuSpec::model strings this entry describes
  int sms = 0;
  int sms_per_tpc = 2;
  int green_min_sms = 1;            // smallest green-context group
  int green_multiple_sms = 1;       // group sizes are multiples of this
  int channel_colours = 1;          // memory-channel colours C (bandwidth and capacity unit)
  int mig_compute_slices = 7;
  int mig_memory_slices = 8;
  int mig_max_instances = 7;
  std::vector<MigProfile> profiles;

  const MigProfile* find_profile(const std::string& profile_name) const {
    for (const MigProfile& p : profiles)
      if (p.name == profile_name) return &p;
    return nullptr;
  }
};

// An illegal partition layout. `rule()` names the rule that was broken ("memory slices overlap",
// "compute slices", "placement start", "instances of profile", "instances", "green-context
// granularity", ...); what() says it with the numbers.
class PartitionRuleError : public PlatformError {
 public:
  PartitionRuleError(std::string rule, const std::string& message)
      : PlatformError(message), rule_(std::move(rule)) {}
  const std::string& rule() const { return rule_; }

 private:
  std::string rule_;
};

}  // namespace parallax
