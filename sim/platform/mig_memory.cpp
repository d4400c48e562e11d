// File: sim/platform/mig_memory.cpp
#include "sim/platform/mig_memory.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace parallax {

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
}

int64_t mig_profile_memory_bytes(const MigProfile& profile) {
  return static_cast<int64_t>(std::llround(profile.memory_GiB * kGiB));
}

bool weights_fit(double weight_bytes, const MigProfile& profile) {
  return weight_bytes <= static_cast<double>(mig_profile_memory_bytes(profile));
}

const MigProfile& largest_memory_profile(const GpuPartitioning& gpu) {
  if (gpu.profiles.empty()) throw std::invalid_argument(fmt::format("the {} has no MIG profiles", gpu.name));
  const MigProfile* best = &gpu.profiles.front();
  for (const MigProfile& p : gpu.profiles)
    if (p.memory_GiB > best->memory_GiB) best = &p;
  return *best;
}

std::string weights_needed(std::string_view who, double weight_bytes) {
  return fmt::format("{} needs {:.3g} GiB ({:.0f} bytes) for its weights alone", who, weight_bytes / kGiB, weight_bytes);
}

}  // namespace parallax
