// File: sim/scenario/gpu_partitioning_reader.h
// Reads scenarios/partitioning/gpu-partitioning.yaml (compiled in) into GpuPartitioning entries:
// MIG profiles, green-context granularity, SMs per TPC and channel colours per GPU model. Every
// entry needs `sources:` for mig, green_context and channel_colours; a bad value is an InputError
// at its file:line:col. The legality rules themselves are in sim/platform/mig_layout.h and friends.
//
//   const GpuPartitioning& h200 = gpu_partitioning_for("H200-SXM");   // InputError if unknown
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/platform/gpu_partitioning.h"

namespace parallax {

std::vector<GpuPartitioning> read_gpu_partitioning(std::string_view yaml, const std::string& file);
// The embedded file, parsed once.
const std::vector<GpuPartitioning>& embedded_gpu_partitioning();
// The entry whose `models` lists gpu_model; InputError naming the known models otherwise.
const GpuPartitioning& gpu_partitioning_for(std::string_view gpu_model);

inline constexpr std::string_view kEmbeddedPartitioningPath = "scenarios/partitioning/gpu-partitioning.yaml";

}  // namespace parallax
