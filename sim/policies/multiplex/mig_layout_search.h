// File: sim/policies/multiplex/mig_layout_search.h
// The best static MIG layout for a set of services: one instance per service, searched over every
// assignment of (profile, legal start) that the MIG validator (sim/platform/mig_layout.h) accepts.
//
// Score of a layout = min over services of capacity_i / rate_i (rate_i = the service's
// sizing_rate_per_s if set, else its mean rate_per_s), where capacity_i = n_i / lat_i(n_i)
// requests per second on its instance, n_i the service's SLO-aware batch cap there
// (service_batcher.h) and lat_i the kernel model on the instance's SMs and bandwidth share
// (batch_latency.h). The layout with the highest score wins; ties go to the first in enumeration
// order (profiles in file order, starts ascending, services in order), so the search is
// deterministic. Pruning (memory-slice overlap, compute slices, instance counts) only skips
// layouts; every returned layout has passed check_mig_layout. A profile whose memory is less than
// a service's memory_bytes is never given to it (the model would not fit: an OOM on hardware).
//
//   H200, services A (heavy) and B (light): 4g.71gb@0 for A and 3g.71gb@4 for B beats 3g+3g when
//   A offers more than B.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sim/platform/mig_layout.h"
#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax {

struct MigSearchResult {
  std::vector<MigPlacement> placements;  // service order
  std::vector<MigInstance> instances;    // from check_mig_layout, service order
  double score = 0;
  int64_t layouts_checked = 0;           // complete layouts passed to the validator
};

// The capacity (requests/s) of a service on `sms` SMs with bandwidth share β, at its SLO cap.
double service_capacity_rps(const ServiceModel& service, const DeviceRates& rates, int sms, double bandwidth_share);

// Throws std::invalid_argument when no legal layout gives every service an instance.
MigSearchResult best_mig_layout(const GpuPartitioning& gpu, const DeviceRates& rates,
                                std::span<const ServiceModel> services);

// The search's score of a layout already chosen (`instances` in service order) for these services,
// e.g. the one in place after their rates changed.
double mig_layout_score(std::span<const MigInstance> instances, std::span<const ServiceModel> services,
                        const DeviceRates& rates);

// One platform partition per service on `gpu`, sized as its instance of `layout`; `name(i)` names
// service i's partition.
std::vector<ServiceShare> create_mig_partitions(Platform& platform, int gpu, const MigSearchResult& layout,
                                                std::span<const ServiceModel> services,
                                                const std::function<std::string(size_t)>& name);

}  // namespace parallax
