// File: sim/policies/multiplex/static_multiplex.cpp
#include "sim/policies/multiplex/static_multiplex.h"

#include <algorithm>
#include <cmath>

#include "sim/platform/mps_thread_limit.h"
#include "sim/policies/multiplex/batch_latency.h"

namespace parallax {

bool TimesliceMultiplex::may_start(int service, const std::vector<bool>& running) const {
  for (size_t i = 0; i < running.size(); ++i)
    if (running[i] && static_cast<int>(i) != service) return false;
  return true;
}

void TimesliceMultiplex::setup(Platform&, const MultiplexGpu&, std::span<const ServiceModel>) {
  last_ = -1;
  ready_ = Time::zero();
  switches_ = 0;
}

void TimesliceMultiplex::on_batch_start(Platform& platform, int service, int) {
  if (last_ >= 0 && last_ != service) {
    ready_ = platform.now() + switch_cost_;
    ++switches_;
  }
  last_ = service;
}

std::vector<double> load_proportional_percentages(std::span<const ServiceModel> services, const DeviceRates& rates) {
  std::vector<double> w;
  double total = 0;
  for (const ServiceModel& s : services) {
    w.push_back(offered_gpu_load(s, rates));
    total += w.back();
  }
  std::vector<double> p;
  for (double wi : w) {
    const double share = total > 0 ? 100.0 * wi / total : 100.0 / static_cast<double>(w.size());
    p.push_back(std::clamp(std::ceil(share), 1.0, 100.0));
  }
  return p;
}

void MpsMultiplex::setup(Platform&, const MultiplexGpu& gpu, std::span<const ServiceModel> services) {
  gpu_sms_ = gpu.rates.sms;
  percentages_ = load_proportional_percentages(services, gpu.rates);
}

ServiceShare MpsMultiplex::nominal_share(int service) const {
  ServiceShare s;
  s.sms = mps_sm_limit(gpu_sms_, percentage(service));
  return s;
}

}  // namespace parallax
