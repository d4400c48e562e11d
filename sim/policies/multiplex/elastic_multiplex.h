// File: sim/policies/multiplex/elastic_multiplex.h
// Elastic spatial-temporal sharing in the spirit of Bless (REFERENCE.md §6.1): every service has
// a platform partition (a TPC mask plus a bandwidth cap on hardware) that is resized to the rule of
// elastic_shares.h whenever any batch starts or ends: a service expands into the SMs and bandwidth
// idle services leave (bubble filling) and shrinks to its weighted quota when another's batch
// arrives. Weights are the services' offered GPU loads (as mps's percentages). A kernel already
// running keeps the SM cap it was launched with; its partition's new size caps it from the
// resize on.
//
// Reconfiguration cost: a resize of a service's partition holds that service's kernel launches for
// `resize_cost` after the resize (re-partition + relaunch: green-context re-creation, MPS
// re-partition); a kernel already running is not interrupted, and two resizes in a row do not add
// up (the service waits for the last one). Default 0: libsmctrl TPC masks are set per launch, at no
// measurable cost (REFERENCE.md §6.3, §6.8 table); GSLICE reports < 100 µs re-allocation downtime
// for MPS re-partitioning (§6.5). docs/multiplex.md shows where elastic loses its edge.
#pragma once

#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/policies/multiplex/elastic_shares.h"
#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax {

// One resize, for the share tracks (trace and shares.csv).
struct ShareChange {
  Time at;
  int service = 0;
  int sms = 0;
  double bandwidth_share = 0;
};

class ElasticMultiplex final : public MultiplexPolicy {
 public:
  explicit ElasticMultiplex(Time resize_cost = Time::zero()) : resize_cost_(resize_cost) {}
  std::string name() const override { return "elastic"; }
  void setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) override;
  ServiceShare nominal_share(int service) const override { return quota_.at(static_cast<size_t>(service)); }
  ServiceShare share(int service) const override { return current_.at(static_cast<size_t>(service)); }
  Time launch_ready_at(int service) const override { return ready_.at(static_cast<size_t>(service)); }
  void on_batch_start(Platform& platform, int service, int batch) override;
  void on_batch_end(Platform& platform, int service) override;
  const std::vector<ShareChange>& changes() const { return changes_; }

 private:
  void apply(Platform& platform);

  MultiplexGpu gpu_;
  std::span<const ServiceModel> services_;
  ElasticLimits limits_;
  std::vector<ElasticDemand> demands_;
  std::vector<ServiceShare> quota_;
  std::vector<ServiceShare> current_;
  std::vector<ShareChange> changes_;
  Time resize_cost_;
  std::vector<Time> ready_;  // per service: no launch before this (its last resize + cost)
};

}  // namespace parallax
