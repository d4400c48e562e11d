// File: sim/policies/multiplex/mig_layout_search.cpp
#include "sim/policies/multiplex/mig_layout_search.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/platform/mig_memory.h"
#include "sim/policies/multiplex/batch_latency.h"

namespace parallax {

double service_capacity_rps(const ServiceModel& service, const DeviceRates& rates, int sms, double bandwidth_share) {
  const auto lat = [&](int n) {
    return batch_latency_s(service.kernels_by_batch.at(static_cast<size_t>(n)), rates, sms, bandwidth_share);
  };
  const ServiceBatcher probe(service.batcher);
  const int n = probe.cap(lat);
  const double t = lat(n);
  return t > 0 ? n / t : 0;
}

namespace {

// The rate a layout is sized for: the service's sizing rate if set, else its mean rate.
double sizing_rate(const ServiceModel& service) {
  return std::max(service.sizing_rate_per_s > 0 ? service.sizing_rate_per_s : service.rate_per_s, 1e-9);
}

struct Search {
  const GpuPartitioning& gpu;
  std::span<const ServiceModel> services;
  std::vector<std::vector<double>> capacity;  // [service][profile]
  std::vector<int> profile_of;                // current assignment
  std::vector<MigPlacement> current;
  std::vector<int> instances_of_profile;
  MigSearchResult best;
  bool found = false;

  void leaf() {
    ++best.layouts_checked;
    std::vector<MigInstance> inst;
    try {
      inst = check_mig_layout(gpu, current);
    } catch (const PartitionRuleError&) {
      return;
    }
    double score = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < services.size(); ++i)
      score = std::min(score, capacity[i][static_cast<size_t>(profile_of[i])] / sizing_rate(services[i]));
    if (!found || score > best.score) {
      found = true;
      best.score = score;
      best.placements = current;
      best.instances = std::move(inst);
    }
  }

  void assign(size_t i, uint32_t memory_used, int compute_used) {
    if (i == services.size()) {
      leaf();
      return;
    }
    for (size_t p = 0; p < gpu.profiles.size(); ++p) {
      const MigProfile& prof = gpu.profiles[p];
      if (compute_used + prof.compute_slices > gpu.mig_compute_slices) continue;
      if (instances_of_profile[p] >= prof.max_instances) continue;
      if (!weights_fit(services[i].memory_bytes, prof)) continue;
      for (int start : prof.starts) {
        if (start < 0 || start + prof.memory_slices > gpu.mig_memory_slices) continue;
        const uint32_t mask = ((1u << prof.memory_slices) - 1u) << start;
        if ((memory_used & mask) != 0) continue;
        current.push_back({prof.name, start});
        profile_of.push_back(static_cast<int>(p));
        ++instances_of_profile[p];
        assign(i + 1, memory_used | mask, compute_used + prof.compute_slices);
        --instances_of_profile[p];
        profile_of.pop_back();
        current.pop_back();
      }
    }
  }
};

}  // namespace

MigSearchResult best_mig_layout(const GpuPartitioning& gpu, const DeviceRates& rates,
                                std::span<const ServiceModel> services) {
  if (services.empty() || static_cast<int>(services.size()) > gpu.mig_max_instances)
    throw std::invalid_argument(fmt::format("MIG search: {} services, but a {} holds 1 to {} instances",
                                            services.size(), gpu.name, gpu.mig_max_instances));
  Search s{gpu, services, {}, {}, {}, std::vector<int>(gpu.profiles.size(), 0), {}, false};
  for (const ServiceModel& svc : services) {
    std::vector<double> row;
    for (const MigProfile& p : gpu.profiles)
      row.push_back(service_capacity_rps(svc, rates, p.sms,
                                         static_cast<double>(p.memory_slices) / gpu.mig_memory_slices));
    s.capacity.push_back(std::move(row));
  }
  for (const ServiceModel& svc : services)
    if (!weights_fit(svc.memory_bytes, largest_memory_profile(gpu)))
      throw std::invalid_argument(fmt::format("MIG search: {}, more than any MIG instance of a {}",
                                              weights_needed(fmt::format("service '{}'", svc.name), svc.memory_bytes),
                                              gpu.name));
  s.assign(0, 0, 0);
  if (!s.found)
    throw std::invalid_argument(fmt::format(
        "MIG search: no legal layout of a {} gives {} services an instance each{}", gpu.name, services.size(),
        std::any_of(services.begin(), services.end(), [](const ServiceModel& v) { return v.memory_bytes > 0; })
            ? " that holds its weights"
            : ""));
  return s.best;
}

double mig_layout_score(std::span<const MigInstance> instances, std::span<const ServiceModel> services,
                        const DeviceRates& rates) {
  double score = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < services.size(); ++i)
    score = std::min(score, service_capacity_rps(services[i], rates, instances[i].sms, instances[i].bandwidth_share) /
                                sizing_rate(services[i]));
  return score;
}

std::vector<ServiceShare> create_mig_partitions(Platform& platform, int gpu, const MigSearchResult& layout,
                                                std::span<const ServiceModel> services,
                                                const std::function<std::string(size_t)>& name) {
  std::vector<ServiceShare> shares;
  for (size_t i = 0; i < services.size(); ++i) {
    const MigInstance& inst = layout.instances[i];
    ServiceShare s;
    s.partition = platform.create_partition(gpu, mig_partition_spec(inst, name(i)));
    s.sms = inst.sms;
    s.bandwidth_share = inst.bandwidth_share;
    shares.push_back(s);
  }
  return shares;
}

}  // namespace parallax
