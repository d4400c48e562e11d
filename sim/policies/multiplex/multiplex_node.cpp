// File: sim/policies/multiplex/multiplex_node.cpp
#include "sim/policies/multiplex/multiplex_node.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/policies/multiplex/batch_latency.h"

namespace parallax {

namespace {

constexpr uint64_t kKindShift = 62;
constexpr uint64_t kServiceShift = 40;
constexpr uint64_t kIndexMask = (uint64_t{1} << kServiceShift) - 1;

uint64_t make_tag(uint64_t kind, size_t service, uint64_t index) {
  return (kind << kKindShift) | (static_cast<uint64_t>(service) << kServiceShift) | (index & kIndexMask);
}

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

}  // namespace

MultiplexNode::MultiplexNode(Platform& platform, MultiplexPolicy& policy, MultiplexGpu gpu,
                             std::span<const ServiceModel> services, Time duration)
    : platform_(platform), policy_(policy), gpu_(gpu), models_(services), duration_(duration) {
  if (services.empty()) throw std::invalid_argument("multiplex: no services");
  for (const ServiceModel& s : services) {
    if (s.kernels_by_batch.size() != static_cast<size_t>(s.batcher.max_batch) + 1)
      throw std::invalid_argument(fmt::format("multiplex: service '{}' needs kernels for batch 1..{}", s.name,
                                              s.batcher.max_batch));
    services_.emplace_back(s.batcher);
  }
  running_.assign(services.size(), false);
}

BatchLatencyEstimate MultiplexNode::estimate(size_t i) const {
  const ServiceShare plan = policy_.planning_share(static_cast<int>(i));
  const auto key = std::make_pair(plan.sms, std::llround(plan.bandwidth_share * 1e6));
  auto [it, fresh] = services_[i].latency_by_share.try_emplace(key);
  if (fresh) {
    it->second.assign(1, 0.0);
    for (int n = 1; n <= models_[i].batcher.max_batch; ++n)
      it->second.push_back(batch_latency_s(models_[i].kernels_by_batch[static_cast<size_t>(n)], gpu_.rates, plan.sms,
                                           plan.bandwidth_share));
  }
  const std::vector<double>* table = &it->second;
  return [table](int n) { return (*table)[static_cast<size_t>(n)]; };
}

void MultiplexNode::start(const std::vector<std::vector<Time>>& arrivals) {
  if (arrivals.size() != services_.size()) throw std::invalid_argument("multiplex: one arrival list per service");
  policy_.setup(platform_, gpu_, models_);
  for (size_t i = 0; i < services_.size(); ++i) {
    Service& s = services_[i];
    s.arrivals = arrivals[i];
    std::stable_sort(s.arrivals.begin(), s.arrivals.end());
    if (!s.arrivals.empty()) platform_.call_at(s.arrivals[0], *this, make_tag(0, i, 0));
  }
}

void MultiplexNode::on_complete(uint64_t tag) {
  const auto kind = static_cast<Kind>(tag >> kKindShift);
  const size_t i = static_cast<size_t>((tag >> kServiceShift) & ((uint64_t{1} << (kKindShift - kServiceShift)) - 1));
  Service& s = services_.at(i);
  const Time now = platform_.now();
  switch (kind) {
    case Kind::arrival:
      s.batcher.push(s.arrivals[s.next_arrival]);
      ++s.next_arrival;
      if (s.next_arrival < s.arrivals.size()) platform_.call_at(s.arrivals[s.next_arrival], *this, make_tag(0, i, 0));
      policy_.on_arrival(platform_, static_cast<int>(i));
      try_start(i);
      return;
    case Kind::due:
      s.timers.erase(now);
      try_start(i);
      return;
    case Kind::launch:
      launch_next_kernel(i);
      return;
    case Kind::kernel:
      last_finish_ = std::max(last_finish_, now);
      if (record_spans_) {
        const KernelShape& k = models_[i].kernels_by_batch[s.batch.size()][s.kernel].shape;
        spans_.push_back({s.kernel_launched, now, static_cast<int>(i), k.flops, k.dram_bytes});
      }
      s.kernel_announced = false;
      if (++s.kernel < models_[i].kernels_by_batch[s.batch.size()].size()) {
        launch_next_kernel(i);
        return;
      }
      for (Time a : s.batch) {
        s.latencies_s.push_back((now - a).to_seconds());
        if (now - a <= models_[i].batcher.slo) ++s.within_slo;
      }
      s.batch.clear();
      s.running = false;
      running_[i] = false;
      policy_.on_batch_end(platform_, static_cast<int>(i));
      try_start_all();
      return;
  }
}

// Services in order of their batch's due time (earliest first; lower index on ties).
void MultiplexNode::try_start_all() {
  std::vector<std::pair<Time, size_t>> order;
  for (size_t i = 0; i < services_.size(); ++i) {
    if (services_[i].running) continue;
    if (const std::optional<Time> d = services_[i].batcher.due(estimate(i))) order.emplace_back(*d, i);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [due, i] : order) try_start(i);
}

void MultiplexNode::try_start(size_t i) {
  Service& s = services_[i];
  if (s.running) return;
  const BatchLatencyEstimate lat = estimate(i);
  const std::optional<Time> due = s.batcher.due(lat);
  if (!due) return;
  const Time now = platform_.now();
  if (*due > now) {
    // A pending timer at or before `due` will ask again; only an earlier due needs a new one.
    if (s.timers.empty() || *s.timers.begin() > *due) {
      s.timers.insert(*due);
      platform_.call_at(*due, *this, make_tag(1, i, 0));
    }
    return;
  }
  if (!policy_.may_start(static_cast<int>(i), running_)) return;  // asked again when a batch ends
  s.batch = s.batcher.take(lat);
  s.running = true;
  running_[i] = true;
  s.kernel = 0;
  s.kernel_announced = false;
  ++s.batches;
  s.size_sum += static_cast<double>(s.batch.size());
  s.fill_sum += static_cast<double>(s.batch.size()) / models_[i].batcher.max_batch;
  policy_.on_batch_start(platform_, static_cast<int>(i), static_cast<int>(s.batch.size()));
  launch_next_kernel(i);
}

void MultiplexNode::launch_next_kernel(size_t i) {
  Service& s = services_[i];
  const Time now = platform_.now();
  if (!s.kernel_announced) {  // once per kernel: a launch held by a resize is not a new kernel
    s.kernel_announced = true;
    policy_.on_kernel(platform_, static_cast<int>(i), s.kernel, s.batch.front() + models_[i].batcher.slo);
  }
  const Time ready = policy_.launch_ready_at(static_cast<int>(i));
  if (ready > now) {  // asked again then; a later resize may push it further
    s.resize_wait += ready - now;
    platform_.call_at(ready, *this, make_tag(3, i, s.kernel));
    return;
  }
  const OpKernel& k = models_[i].kernels_by_batch[s.batch.size()][s.kernel];
  const ServiceShare share = policy_.share(static_cast<int>(i));
  const int sms = kernel_sms(k.shape, gpu_.rates, share.sms);
  const KernelSaturation u =
      kernel_saturation(k.shape, gpu_.rates, share.sms > 0 ? share.sms : gpu_.rates.sms, share.bandwidth_share);
  s.kernel_time_s += u.time_s;
  s.sm_busy_s += u.time_s * u.sm;
  s.hbm_busy_s += u.time_s * u.hbm;
  s.busy_s += u.time_s * std::max(u.sm, u.hbm);
  const KernelProfile p = kernel_profile(models_[i].name + "/" + k.name, k.shape, gpu_.rates, sms);
  useful_flops_ += k.shape.flops;
  bytes_ += k.shape.dram_bytes;
  s.kernel_launched = now;
  platform_.launch(gpu_.gpu, share.partition, p, *this, make_tag(2, i, s.kernel));
}

MultiplexMetrics MultiplexNode::metrics() const {
  MultiplexMetrics m;
  m.makespan_s = last_finish_.to_seconds();
  m.window_s = std::max(duration_.to_seconds(), m.makespan_s);
  int64_t arrived = 0, finished = 0, within = 0;
  double latency_sum_s = 0;
  for (size_t i = 0; i < services_.size(); ++i) {
    const Service& s = services_[i];
    ServiceMetrics sm;
    sm.arrived = static_cast<int64_t>(s.next_arrival);
    sm.finished = static_cast<int64_t>(s.latencies_s.size());
    if (sm.finished != sm.arrived || s.batcher.queued() != 0)
      throw std::logic_error(fmt::format("multiplex/{}: {} of {} requests of '{}' never finished", policy_.name(),
                                         sm.arrived - sm.finished, sm.arrived, models_[i].name));
    sm.within_slo = s.within_slo;
    sm.batches = s.batches;
    sm.throughput_rps = m.window_s > 0 ? static_cast<double>(sm.finished) / m.window_s : 0;
    sm.goodput_rps = m.window_s > 0 ? static_cast<double>(sm.within_slo) / m.window_s : 0;
    sm.slo_attainment = sm.arrived > 0 ? static_cast<double>(sm.within_slo) / static_cast<double>(sm.arrived) : 1.0;
    sm.mean_batch_fill = s.batches > 0 ? s.fill_sum / static_cast<double>(s.batches) : 0;
    sm.mean_batch_size = s.batches > 0 ? s.size_sum / static_cast<double>(s.batches) : 0;
    if (s.kernel_time_s > 0) {
      sm.sm_saturation = s.sm_busy_s / s.kernel_time_s;
      sm.hbm_saturation = s.hbm_busy_s / s.kernel_time_s;
      sm.instance_saturation = s.busy_s / s.kernel_time_s;
    }
    sm.resize_wait_s = s.resize_wait.to_seconds();
    std::vector<double> sorted = s.latencies_s;
    std::sort(sorted.begin(), sorted.end());
    sm.p50_latency_s = percentile(sorted, 50);
    sm.p99_latency_s = percentile(sorted, 99);
    sm.mean_latency_s = sorted.empty() ? 0 : std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    latency_sum_s += sm.mean_latency_s * static_cast<double>(sm.finished);
    arrived += sm.arrived;
    finished += sm.finished;
    within += sm.within_slo;
    m.services.push_back(sm);
  }
  m.throughput_rps = m.window_s > 0 ? static_cast<double>(finished) / m.window_s : 0;
  m.goodput_rps = m.window_s > 0 ? static_cast<double>(within) / m.window_s : 0;
  m.slo_attainment = arrived > 0 ? static_cast<double>(within) / static_cast<double>(arrived) : 1.0;
  m.mean_latency_s = finished > 0 ? latency_sum_s / static_cast<double>(finished) : 0;
  if (m.window_s > 0) {
    m.sm_utilisation = useful_flops_ / (gpu_.rates.eta_compute * gpu_.rates.peak_flops * m.window_s);
    m.hbm_utilisation = bytes_ / (gpu_.rates.hbm_Bps * m.window_s);
  }
  return m;
}

}  // namespace parallax
