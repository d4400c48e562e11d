// File: sim/platform/mig_memory.h
// Model weights against MIG instance memory (issue 5). A MIG instance has its own memory slices;
// a model whose weights exceed them cannot be loaded there (an OOM on hardware). One rule for
// every workload that places models on MIG instances: the multiplex layout search and loader
// (docs/multiplex.md, Memory) and the colocate loader (docs/colocate.md, Memory).
//
//   weights_fit(24.2 GiB, 1g.18gb) == false   // 16.5 GiB
//   weights_needed("service 'qa' (llama2_13b)", 26031728640)
//     == "service 'qa' (llama2_13b) needs 24.2 GiB (26031728640 bytes) for its weights alone"
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/platform/gpu_partitioning.h"

namespace parallax {

// The profile's memory_GiB in bytes (rounded to a whole byte).
int64_t mig_profile_memory_bytes(const MigProfile& profile);

// Weights only: activations, workspace and KV cache come on top, so a false answer is certain
// and a true one is a lower bound.
bool weights_fit(double weight_bytes, const MigProfile& profile);

// The profile with the most memory (the first of equals); throws std::invalid_argument when the
// GPU has no MIG profiles.
const MigProfile& largest_memory_profile(const GpuPartitioning& gpu);

// "<who> needs X GiB (N bytes) for its weights alone": the start of every such error message.
std::string weights_needed(std::string_view who, double weight_bytes);

}  // namespace parallax
