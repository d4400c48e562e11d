// File: sim/policies/multiplex/static_multiplex.h
// The two whole-GPU baselines:
//  - timeslice: one batch on the GPU at a time (the driver's time slicing at batch granularity: a
//    context switch happens only between batches); waiting services are served in order of their
//    batch's due time. A batch of another service than the last one's waits `switch_cost` before
//    its first kernel launches (the context switch: save and restore of the other process's state;
//    REFERENCE.md §6.2 leaves the figure to measure, so the scenario's value is an [assumption]).
//  - mps: every service runs concurrently on the whole GPU, each kernel capped by its MPS active
//    thread percentage p_i (a limit, not a reservation: sim/platform/mps_thread_limit.h), with
//    p_i proportional to the service's offered GPU load, rounded up to a whole percent, floor 1 %.
//    HBM bandwidth is shared (max-min) with no cap.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax {

class TimesliceMultiplex final : public MultiplexPolicy {
 public:
  explicit TimesliceMultiplex(Time switch_cost = Time::zero()) : switch_cost_(switch_cost) {}
  std::string name() const override { return "timeslice"; }
  void setup(Platform&, const MultiplexGpu&, std::span<const ServiceModel>) override;
  ServiceShare nominal_share(int) const override { return {}; }
  bool may_start(int service, const std::vector<bool>& running) const override;
  Time launch_ready_at(int service) const override { return service == last_ ? ready_ : Time::zero(); }
  void on_batch_start(Platform& platform, int service, int batch) override;
  int64_t switches() const { return switches_; }

 private:
  Time switch_cost_;
  int last_ = -1;     // the service whose context the GPU holds
  Time ready_;        // its launches wait until then (the switch to it)
  int64_t switches_ = 0;
};

class MpsMultiplex final : public MultiplexPolicy {
 public:
  std::string name() const override { return "mps"; }
  void setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) override;
  ServiceShare nominal_share(int service) const override;
  double percentage(int service) const { return percentages_.at(static_cast<size_t>(service)); }

 private:
  int gpu_sms_ = 0;
  std::vector<double> percentages_;
};

// p_i = ceil(100 · w_i / Σw), at least 1, at most 100; w = offered GPU load (batch_latency.h).
std::vector<double> load_proportional_percentages(std::span<const ServiceModel> services, const DeviceRates& rates);

}  // namespace parallax
