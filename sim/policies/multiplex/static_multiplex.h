// File: sim/policies/multiplex/static_multiplex.h
// The two whole-GPU baselines:
//  - timeslice: one batch on the GPU at a time (the driver's time slicing at batch granularity:
//    a context switch happens only between batches, with no switch cost); waiting services are
//    served in order of their batch's due time.
//  - mps: every service runs concurrently on the whole GPU, each kernel capped by its MPS active
//    thread percentage p_i (a limit, not a reservation: sim/platform/mps_thread_limit.h), with
//    p_i proportional to the service's offered GPU load, rounded up to a whole percent, floor 1 %.
//    HBM bandwidth is shared (max-min) with no cap.
#pragma once

#include <vector>

#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax {

class TimesliceMultiplex final : public MultiplexPolicy {
 public:
  std::string name() const override { return "timeslice"; }
  void setup(Platform&, const MultiplexGpu&, std::span<const ServiceModel>) override {}
  ServiceShare nominal_share(int) const override { return {}; }
  bool may_start(int service, const std::vector<bool>& running) const override;
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
