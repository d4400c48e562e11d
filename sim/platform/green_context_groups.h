// File: sim/platform/green_context_groups.h
// SM groups as green contexts (and TPC masks) make them: each group a multiple of the GPU's
// granularity and at least its minimum (Hopper: multiples of 8, min 8; Ampere: multiples of 2,
// min 4; REFERENCE.md §1.5), the groups together no more than the GPU's SMs. A group selects SMs
// but does not reserve bandwidth or L2 (REFERENCE.md §6.2).
//
//   check_green_context_groups(h200, {64, 64});   // ok: 128 of 132, remainder 4 unused
//   check_green_context_groups(h200, {60, 72});   // PartitionRuleError "green-context granularity"
//   round_to_green_context(h200, 61) == 64;        // up to the next legal size, capped at the GPU
#pragma once

#include <vector>

#include "sim/platform/gpu_partitioning.h"

namespace parallax {

// Throws PartitionRuleError: "green-context granularity" (size not a multiple or below the
// minimum) or "green-context total" (the groups need more SMs than the GPU has).
void check_green_context_groups(const GpuPartitioning& gpu, const std::vector<int>& group_sms);

// The smallest legal group size >= sms (at least the minimum); the largest legal size when that
// would exceed the GPU.
int round_to_green_context(const GpuPartitioning& gpu, int sms);

// A TPC mask allocates whole TPCs: sms rounded up to a multiple of sms_per_tpc, capped at the GPU.
int round_to_tpcs(const GpuPartitioning& gpu, int sms);

}  // namespace parallax
