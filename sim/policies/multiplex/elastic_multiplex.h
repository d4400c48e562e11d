// File: sim/policies/multiplex/elastic_multiplex.h
// Elastic spatial-temporal sharing in the spirit of Bless (REFERENCE.md §6.1): every service has
// a platform partition (a TPC mask plus a bandwidth cap on hardware) that is resized to the rule of
// elastic_shares.h before every kernel launch of any service and at every batch end (per-kernel
// granularity, docs/multiplex.md §elastic):
//  - demand: a service with a batch in flight asks for its current kernel's SM need and that
//    kernel's peak HBM fraction; what it cannot use goes to the others (bubble filling), and an
//    idle service keeps only the floor (one TPC, 1 % of HBM);
//  - weight: the GPU fraction the service needs to finish in time, f_i · R_i / L_i, with f_i its
//    share of the offered GPU load (its quota), R_i the predicted time of the rest of its batch on
//    its quota (this kernel on) and L_i = deadline − now the time left to the oldest request's
//    deadline (at least 1 µs). A service with more slack (L − R) weighs less and yields SMs.
//  - batch size (adaptive batch): the batcher sizes a service's next batch on planning_share, the
//    share it would hold if its largest batch started now beside the batches in flight.
// A kernel already running keeps the SM cap it was launched with; its partition's new size caps it
// from the resize on. Deterministic: shares depend only on the event order.
//
// Reconfiguration cost: a resize of a service's partition holds that service's kernel launches for
// `resize_cost` after the resize (re-partition + relaunch: green-context re-creation, MPS
// re-partition); a kernel already running is not interrupted, and two resizes in a row do not add
// up (the service waits for the last one). With per-kernel shares the cost is paid per kernel whose
// share changes. Default 0: libsmctrl TPC masks are set per launch, at no measurable cost
// (REFERENCE.md §6.3, §6.8 table); GSLICE reports < 100 µs re-allocation downtime for MPS
// re-partitioning (§6.5). docs/multiplex.md shows where elastic loses its edge.
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

// The peak HBM fraction of `kernels` on `sms` SMs: max over kernels of D / (T(sms, 1) · B).
double elastic_bandwidth_demand(std::span<const OpKernel> kernels, const DeviceRates& rates, int sms);

class ElasticMultiplex final : public MultiplexPolicy {
 public:
  explicit ElasticMultiplex(Time resize_cost = Time::zero()) : resize_cost_(resize_cost) {}
  std::string name() const override { return "elastic"; }
  void setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) override;
  ServiceShare nominal_share(int service) const override { return quota_.at(static_cast<size_t>(service)); }
  ServiceShare share(int service) const override { return current_.at(static_cast<size_t>(service)); }
  ServiceShare planning_share(int service) const override;
  Time launch_ready_at(int service) const override { return ready_.at(static_cast<size_t>(service)); }
  void on_batch_start(Platform& platform, int service, int batch) override;
  void on_kernel(Platform& platform, int service, size_t kernel, Time deadline) override;
  void on_batch_end(Platform& platform, int service) override;
  const std::vector<ShareChange>& changes() const { return changes_; }

 private:
  struct InFlight {
    int batch = 0;
    size_t kernel = 0;
    Time deadline;
  };
  void apply(Platform& platform);
  // Σ of the kernel model's times of kernels k.. of a batch of n on the service's quota.
  double remaining_s(size_t service, int batch, size_t kernel);

  MultiplexGpu gpu_;
  std::span<const ServiceModel> services_;
  ElasticLimits limits_;
  std::vector<ElasticDemand> demands_;
  std::vector<double> quota_fraction_;     // f_i
  std::vector<ElasticDemand> full_batch_;  // per service: demand of its largest batch, weight f_i
  std::vector<InFlight> in_flight_;
  std::vector<std::vector<std::vector<double>>> remaining_;  // [service][n][k], filled on first use
  std::vector<ServiceShare> quota_;
  std::vector<ServiceShare> current_;
  std::vector<ShareChange> changes_;
  Time resize_cost_;
  std::vector<Time> ready_;  // per service: no launch before this (its last resize + cost)
};

}  // namespace parallax
