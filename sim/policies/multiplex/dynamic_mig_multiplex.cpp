// File: sim/policies/multiplex/dynamic_mig_multiplex.cpp
#include "sim/policies/multiplex/dynamic_mig_multiplex.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace parallax {

namespace {

// A re-cut must promise this much more min capacity/rate than the layout in place.
constexpr double kDynamicMigMargin = 1.1;
// Requests per second a service with no arrivals in a period is sized for.
constexpr double kDynamicMigMinRate = 1e-3;

bool same_placement(const MigPlacement& a, const MigPlacement& b) { return a.profile == b.profile && a.start == b.start; }

}  // namespace

DynamicMigMultiplex::DynamicMigMultiplex(Time reconfig_cost) : cost_(reconfig_cost) {
  if (reconfig_cost <= Time::zero()) throw std::invalid_argument("dynamic_mig: the reconfiguration cost must be > 0");
  period_ = reconfig_cost * 10;
}

void DynamicMigMultiplex::setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) {
  if (gpu.partitioning == nullptr) throw std::invalid_argument("dynamic_mig: the GPU has no partitioning data");
  gpu_ = gpu;
  sized_.assign(services.begin(), services.end());
  initial_ = layout_ = best_mig_layout(*gpu.partitioning, gpu.rates, services);
  // Named without the profile: a re-cut changes it.
  shares_ = create_mig_partitions(platform, gpu.gpu, layout_, services,
                                  [&](size_t i) { return "dmig-" + services[i].name; });
  changing_.assign(services.size(), false);
  running_.assign(services.size(), false);
  arrivals_in_period_.assign(services.size(), 0);
  ready_.assign(services.size(), Time::zero());
  period_start_ = platform.now();
}

bool DynamicMigMultiplex::may_start(int service, const std::vector<bool>& /*running*/) const {
  return !changing_.at(static_cast<size_t>(service));
}

void DynamicMigMultiplex::on_arrival(Platform& platform, int service) {
  ++arrivals_in_period_.at(static_cast<size_t>(service));
  maybe_decide(platform);
}

void DynamicMigMultiplex::on_batch_start(Platform& /*platform*/, int service, int /*batch*/) {
  running_.at(static_cast<size_t>(service)) = true;
}

void DynamicMigMultiplex::on_batch_end(Platform& platform, int service) {
  running_.at(static_cast<size_t>(service)) = false;
  maybe_decide(platform);
  maybe_recut(platform);
}

void DynamicMigMultiplex::maybe_decide(Platform& platform) {
  const Time now = platform.now();
  if (has_pending_ || now < period_start_ + period_) return;
  const double seconds = (now - period_start_).to_seconds();
  // A quiet service's rate is kept above 0: the layout search reads 0 as "use the mean rate".
  for (size_t i = 0; i < sized_.size(); ++i)
    sized_[i].sizing_rate_per_s = std::max(static_cast<double>(arrivals_in_period_[i]) / seconds, kDynamicMigMinRate);
  std::fill(arrivals_in_period_.begin(), arrivals_in_period_.end(), 0);
  period_start_ = now;
  MigSearchResult next = best_mig_layout(*gpu_.partitioning, gpu_.rates, sized_);
  if (next.score < kDynamicMigMargin * mig_layout_score(layout_.instances, sized_, gpu_.rates)) return;
  bool any = false;
  for (size_t i = 0; i < sized_.size(); ++i) {
    changing_[i] = !same_placement(next.placements[i], layout_.placements[i]);
    any = any || changing_[i];
  }
  if (!any) return;
  pending_ = std::move(next);
  has_pending_ = true;
  maybe_recut(platform);
}

void DynamicMigMultiplex::maybe_recut(Platform& platform) {
  if (!has_pending_) return;
  for (size_t i = 0; i < sized_.size(); ++i)
    if (changing_[i] && running_[i]) return;  // still draining
  const Time now = platform.now();
  // Shrink first so that the SMs reserved never exceed the GPU between two resizes.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < sized_.size(); ++i) {
      if (!changing_[i]) continue;
      const MigInstance& inst = pending_.instances[i];
      if ((pass == 0) != (inst.sms < shares_[i].sms)) continue;
      platform.resize_partition(shares_[i].partition, mig_partition_spec(inst, {}));
      shares_[i].sms = inst.sms;
      shares_[i].bandwidth_share = inst.bandwidth_share;
      ready_[i] = now + cost_;
      changing_[i] = false;
      changes_.push_back({now, static_cast<int>(i), inst.sms, inst.bandwidth_share});
    }
  }
  layout_ = std::move(pending_);
  has_pending_ = false;
  ++reconfigurations_;
}

}  // namespace parallax
