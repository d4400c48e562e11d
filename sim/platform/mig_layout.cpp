// File: sim/platform/mig_layout.cpp
#include "sim/platform/mig_layout.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/platform/mig_memory.h"

namespace parallax {

std::vector<MigInstance> check_mig_layout(const GpuPartitioning& gpu, const std::vector<MigPlacement>& layout) {
  std::vector<MigInstance> out;
  std::map<std::string, int> per_profile;
  int compute = 0;
  std::vector<int> owner(static_cast<size_t>(gpu.mig_memory_slices), -1);
  for (size_t i = 0; i < layout.size(); ++i) {
    const MigPlacement& want = layout[i];
    const MigProfile* p = gpu.find_profile(want.profile);
    if (p == nullptr) {
      std::string names;
      for (const MigProfile& q : gpu.profiles) names += (names.empty() ? "" : ", ") + q.name;
      throw PartitionRuleError("profile", fmt::format("{}: MIG instance {}: unknown profile '{}'; profiles: {}",
                                                      gpu.name, i, want.profile, names));
    }
    if (std::find(p->starts.begin(), p->starts.end(), want.start) == p->starts.end())
      throw PartitionRuleError(
          "placement start",
          fmt::format("{}: MIG instance {} ({}) cannot start at memory slice {}; legal starts: {}", gpu.name, i,
                      p->name, want.start, fmt::join(p->starts, ", ")));
    if (++per_profile[p->name] > p->max_instances)
      throw PartitionRuleError("instances of profile",
                               fmt::format("{}: more than {} instances of {} (instance {})", gpu.name,
                                           p->max_instances, p->name, i));
    if (static_cast<int>(i) + 1 > gpu.mig_max_instances)
      throw PartitionRuleError("instances", fmt::format("{}: {} MIG instances, at most {}", gpu.name,
                                                        layout.size(), gpu.mig_max_instances));
    compute += p->compute_slices;
    if (compute > gpu.mig_compute_slices)
      throw PartitionRuleError("compute slices",
                               fmt::format("{}: instances 0..{} use {} compute slices, at most {}", gpu.name, i,
                                           compute, gpu.mig_compute_slices));
    for (int s = want.start; s < want.start + p->memory_slices; ++s) {
      if (s >= gpu.mig_memory_slices || owner[static_cast<size_t>(s)] >= 0)
        throw PartitionRuleError(
            "memory slices overlap",
            s >= gpu.mig_memory_slices
                ? fmt::format("{}: MIG instance {} ({}) runs past memory slice {}", gpu.name, i, p->name,
                              gpu.mig_memory_slices - 1)
                : fmt::format("{}: MIG instances {} and {} both use memory slice {}", gpu.name,
                              owner[static_cast<size_t>(s)], i, s));
      owner[static_cast<size_t>(s)] = static_cast<int>(i);
    }
    MigInstance m;
    m.profile = p->name;
    m.start = want.start;
    m.sms = p->sms;
    m.memory_slices = p->memory_slices;
    m.bandwidth_share = static_cast<double>(p->memory_slices) / gpu.mig_memory_slices;
    m.memory_bytes = mig_profile_memory_bytes(*p);
    out.push_back(std::move(m));
  }
  return out;
}

PartitionSpec mig_partition_spec(const MigInstance& instance, const std::string& name) {
  return PartitionSpec{instance.sms, instance.bandwidth_share, name};
}

}  // namespace parallax
