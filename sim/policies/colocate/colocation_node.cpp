// File: sim/policies/colocate/colocation_node.cpp
#include "sim/policies/colocate/colocation_node.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/block_dispatch.h"

namespace parallax {

namespace {

constexpr uint64_t kTagShift = 62;

uint64_t make_tag(uint64_t kind, uint64_t index) { return (kind << kTagShift) | index; }

// Nearest-rank percentile of sorted values (docs/colocate.md).
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

TenantUtilisation utilisation_of(const KernelShape& k, const DeviceRates& d) {
  const double t = kernel_time_s(k, d, d.sms, 1.0);
  const double u = t > 0 ? std::min(1.0, k.dram_bytes / (t * d.hbm_Bps)) : 0;
  return {u, u};  // L2 proxied by DRAM utilisation (models/kernel_interference.h)
}

}  // namespace

ColocationNode::ColocationNode(Platform& platform, ColocationPolicy& policy, ColocationSetup setup)
    : platform_(platform), policy_(policy), setup_(std::move(setup)) {
  if (setup_.ls_kernels.empty()) throw std::invalid_argument("colocation: the LS request has no kernels");
  if (policy_.runs_be() && setup_.be_kernels.empty()) throw std::invalid_argument("colocation: the BE job has no kernels");
  for (const ColocationKernel& k : setup_.ls_kernels) {
    ls_solo_s_ += kernel_time_s(k.shape, setup_.gpu.rates, setup_.gpu.rates.sms, 1.0);
    ls_peak_sm_need_ = std::max(ls_peak_sm_need_, k.shape.sm_need());
  }
}

void ColocationNode::start(std::span<const Time> ls_arrivals) {
  arrivals_.assign(ls_arrivals.begin(), ls_arrivals.end());
  std::stable_sort(arrivals_.begin(), arrivals_.end());
  finish_s_.assign(arrivals_.size(), -1.0);
  if (setup_.record_kernels) request_activities_.assign(arrivals_.size(), {});
  std::vector<double> arrivals_s;
  for (Time t : arrivals_) arrivals_s.push_back(t.to_seconds());
  policy_.plan({setup_.ls_kernels, setup_.ls_slo, setup_.slo_target, arrival_load(arrivals_s), setup_.be_resident_bytes,
                setup_.be_kernels});
  policy_.setup(platform_, setup_.gpu);
  if (!arrivals_.empty()) platform_.call_at(arrivals_[0], *this, make_tag(0, 0));
  try_be();
}

ActivityId ColocationNode::launch(const ColocationKernel& k, const KernelPlacement& where, const KernelShape* other,
                                  uint64_t tag, bool ls, double wait_s) {
  const DeviceRates& d = setup_.gpu.rates;
  double alpha = 1.0;
  if (other != nullptr && setup_.interference_on && policy_.shares_memory_system())
    alpha = interference_slowdown(setup_.interference, utilisation_of(k.shape, d), utilisation_of(*other, d));
  // The platform bounds the grid's DRAM draw by its SMs (the per-SM cap); interference stretches both works.
  const KernelProfile p = kernel_profile(k.name, k.shape, d, where.max_sms, alpha);
  const int s = p.max_sms;
  useful_flops_ += k.shape.flops;
  bytes_ += k.shape.dram_bytes;
  const ActivityId id = platform_.launch(setup_.gpu.gpu, where.partition, p, *this, tag);
  if (setup_.record_spans) open_span_[ls] = {platform_.now(), Time::zero(), ls, s, k.shape.dram_bytes};
  if (setup_.record_kernels) {
    const double solo = kernel_time_s(k.shape, d, std::min(k.shape.sm_need(), d.sms), 1.0) - d.launch_s;
    notes_.push_back({id, ls, s, solo, alpha, wait_s});
    if (ls) request_activities_[ls_request_].push_back(id);
  }
  return id;
}

void ColocationNode::close_span(bool ls, Time now) {
  if (!setup_.record_spans) return;
  open_span_[ls].end = now;
  spans_.push_back(open_span_[ls]);
}

void ColocationNode::on_complete(uint64_t tag) {
  const uint64_t kind = tag >> kTagShift;
  const Time now = platform_.now();
  if (kind == 0) {  // arrival
    ls_queue_.push_back(next_arrival_);
    ++next_arrival_;
    if (next_arrival_ < arrivals_.size()) platform_.call_at(arrivals_[next_arrival_], *this, make_tag(0, 0));
    if (!ls_busy_) start_next_ls();
    return;
  }
  if (kind == 3) {  // the BE blocks in the LS kernel's way have drained
    launch_placed_ls();
    return;
  }
  last_finish_ = std::max(last_finish_, now);
  close_span(kind == 1, now);
  if (kind == 1) {
    ls_kernel_running_ = false;
    if (++ls_kernel_ < setup_.ls_kernels.size()) {
      launch_ls();
    } else {
      finish_s_[ls_request_] = now.to_seconds();
      ls_busy_ = false;
      start_next_ls();
    }
    try_be();
    return;
  }
  be_running_ = false;
  be_sms_ = 0;
  ++be_done_;
  be_last_finish_ = now;
  be_kernel_ = (be_kernel_ + 1) % setup_.be_kernels.size();
  if (ls_waiting_for_be_) {
    ls_waiting_for_be_ = false;
    launch_ls();
  }
  try_be();
}

void ColocationNode::start_next_ls() {
  if (ls_queue_.empty()) {
    policy_.on_ls_idle(platform_);
    return;
  }
  ls_request_ = ls_queue_.front();
  ls_queue_.pop_front();
  ls_busy_ = true;
  ls_kernel_ = 0;
  launch_ls();
  try_be();
}

void ColocationNode::launch_ls() {
  const ColocationKernel& k = setup_.ls_kernels[ls_kernel_];
  if (!ls_kernel_running_) ls_asked_ = platform_.now();
  BeView be;
  if (be_running_) be = {&setup_.be_kernels[be_kernel_].shape, be_sms_};
  ls_placed_ = policy_.place_ls(platform_, k.shape, be);
  ls_kernel_running_ = true;
  if (ls_placed_.after_be_kernel && be_running_) {
    ls_waiting_for_be_ = true;
    return;
  }
  if (ls_placed_.drain > Time::zero()) {
    be_sms_ = std::min(be_sms_, ls_placed_.be_keeps_sms);  // its blocks go on only on the TPCs left
    platform_.call_at(platform_.now() + ls_placed_.drain, *this, make_tag(3, 0));
    return;
  }
  launch_placed_ls();
}

void ColocationNode::launch_placed_ls() {
  const KernelShape* other = be_running_ ? &setup_.be_kernels[be_kernel_].shape : nullptr;
  launch(setup_.ls_kernels[ls_kernel_], ls_placed_, other, make_tag(1, ls_request_), true,
         (platform_.now() - ls_asked_).to_seconds());
}

void ColocationNode::try_be() {
  if (!policy_.runs_be() || be_running_ || platform_.now() >= setup_.be_stop) return;
  const ColocationKernel& k = setup_.be_kernels[be_kernel_];
  LsView ls;
  ls.active = ls_busy_;
  ls.running = ls_kernel_running_ ? &setup_.ls_kernels[ls_kernel_].shape : nullptr;
  ls.request_solo_s = ls_solo_s_;
  ls.peak_sm_need = ls_peak_sm_need_;
  const std::optional<KernelPlacement> where = policy_.place_be(platform_, k.shape, ls);
  if (!where) return;
  be_running_ = true;
  be_sms_ = std::max(1, where->max_sms > 0 ? where->max_sms : std::min(k.shape.sm_need(), setup_.gpu.rates.sms));
  launch(k, *where, ls.running, make_tag(2, be_kernel_), false, 0);
}

ColocationMetrics ColocationNode::metrics() const {
  ColocationMetrics m;
  m.ls_arrived = static_cast<int64_t>(next_arrival_);
  std::vector<double> sorted;
  int64_t within = 0;
  double sum = 0;
  for (size_t i = 0; i < finish_s_.size(); ++i) {
    if (finish_s_[i] < 0) continue;
    const double l = finish_s_[i] - arrivals_[i].to_seconds();
    m.ls_latencies_s.push_back(l);
    sorted.push_back(l);
    sum += l;
    if (Time::seconds(l) <= setup_.ls_slo) ++within;
  }
  m.ls_finished = static_cast<int64_t>(sorted.size());
  std::sort(sorted.begin(), sorted.end());
  m.ls_p50_latency_s = percentile(sorted, 50);
  m.ls_p99_latency_s = percentile(sorted, 99);
  m.ls_mean_latency_s = sorted.empty() ? 0 : sum / static_cast<double>(sorted.size());
  m.ls_slo_attainment = m.ls_arrived > 0 ? static_cast<double>(within) / static_cast<double>(m.ls_arrived) : 1.0;
  m.be_kernels = be_done_;
  m.be_work_units = setup_.be_kernels.empty() ? 0 : static_cast<double>(be_done_) / static_cast<double>(setup_.be_kernels.size());
  const double be_window = std::max(setup_.be_stop, be_last_finish_).to_seconds();
  m.be_throughput = be_window > 0 ? m.be_work_units / be_window : 0;
  m.makespan_s = last_finish_.to_seconds();
  const DeviceRates& d = setup_.gpu.rates;
  if (m.makespan_s > 0) {
    m.sm_utilisation = useful_flops_ / (d.eta_compute * d.peak_flops * m.makespan_s);
    m.hbm_utilisation = bytes_ / (d.hbm_Bps * m.makespan_s);
  }
  return m;
}

}  // namespace parallax
