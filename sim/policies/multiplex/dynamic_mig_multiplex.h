// File: sim/policies/multiplex/dynamic_mig_multiplex.h
// Dynamic MIG: one MIG instance per service, as rigid MIG (rigid_mig_multiplex.h), but the layout
// follows the load. Every `period` = 10 × the reconfiguration cost (so re-cuts take at most a
// tenth of the time), at the first arrival or batch end after the period ends, the policy measures
// each service's arrival rate over the period and asks best_mig_layout (mig_layout_search.h) for
// the layout those rates call for. It re-cuts only if that layout's score (min capacity/rate) is
// at least 1.1 × the current layout's score at the same rates [assumption: a 10 % margin against
// flapping]. A re-cut changes the instances whose (profile, start) differ:
//  1. drain: those services start no new batch; their batches in flight finish;
//  2. re-cut: when the last of them is idle, their partitions take the new instances' SMs and
//     bandwidth (shrinks first), and for `reconfig_cost` they launch nothing (destroy + create of
//     the GPU and compute instances; a GI with a live process cannot be destroyed, REFERENCE.md
//     §1.4); instances that do not change keep serving throughout.
// reconfig_cost: REFERENCE.md §1.4 and §6.8 give MIG reshapes as "seconds" with the instance idle
// (no measured figure); the scenario default is 1 s [assumption: the low end of "seconds"].
#pragma once

#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/policies/multiplex/elastic_multiplex.h"
#include "sim/policies/multiplex/mig_layout_search.h"

namespace parallax {

class DynamicMigMultiplex final : public MultiplexPolicy {
 public:
  explicit DynamicMigMultiplex(Time reconfig_cost);
  std::string name() const override { return "dynamic_mig"; }
  void setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) override;
  ServiceShare nominal_share(int service) const override { return shares_.at(static_cast<size_t>(service)); }
  Time launch_ready_at(int service) const override { return ready_.at(static_cast<size_t>(service)); }
  bool may_start(int service, const std::vector<bool>& running) const override;
  void on_arrival(Platform& platform, int service) override;
  void on_batch_start(Platform& platform, int service, int batch) override;
  void on_batch_end(Platform& platform, int service) override;

  const MigSearchResult& initial_layout() const { return initial_; }
  const MigSearchResult& layout() const { return layout_; }
  int reconfigurations() const { return reconfigurations_; }
  // Every re-cut instance's new size, for the share tracks (as elastic's resizes).
  const std::vector<ShareChange>& changes() const { return changes_; }
  Time period() const { return period_; }

 private:
  void maybe_decide(Platform& platform);
  void maybe_recut(Platform& platform);

  Time cost_, period_;
  MultiplexGpu gpu_;
  std::vector<ServiceModel> sized_;  // the services, sizing_rate_per_s = the measured rate
  MigSearchResult initial_, layout_, pending_;
  std::vector<bool> changing_;       // drains for pending_
  bool has_pending_ = false;
  std::vector<bool> running_;
  std::vector<int64_t> arrivals_in_period_;
  Time period_start_;
  std::vector<ServiceShare> shares_;
  std::vector<Time> ready_;
  std::vector<ShareChange> changes_;
  int reconfigurations_ = 0;
};

}  // namespace parallax
