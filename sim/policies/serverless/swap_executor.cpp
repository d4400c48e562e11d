// File: sim/policies/serverless/swap_executor.cpp
#include "sim/policies/serverless/swap_executor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace parallax {

SwapExecutor::SwapExecutor(Platform& platform, GpuId gpu, ExecutorClient& client, int64_t group_bytes)
    : platform_(platform),
      gpu_(gpu),
      client_(client),
      group_bytes_(group_bytes) {}

void SwapExecutor::start(const ExecutorJob& job) {
  if (busy_) throw std::logic_error("SwapExecutor::start: the GPU is busy");
  busy_ = true;
  job_ = job;
  n_groups_ = 0;
  groups_sent_ = groups_ready_ = next_layer_ = 0;
  kernel_running_ = false;
  started_ = false;
  closed_ = transfer_pending_ = false;
  if (job_.delay > Time::zero()) {
    platform_.call_at(platform_.now() + job_.delay, *this, kDelayDone);
  } else {
    begin();
  }
}

Endpoint SwapExecutor::source() const {
  return job_.source == SwapSource::host ? Endpoint::host(job_.source_index) : Endpoint::gpu(job_.source_index);
}

int64_t SwapExecutor::group_size(size_t g) const {
  const int64_t sent = static_cast<int64_t>(g) * group_bytes_now_;
  return std::min(group_bytes_now_, job_.model->param_bytes - sent);
}

void SwapExecutor::begin() {
  started_ = true;
  const ServedModel& m = *job_.model;
  single_kernel_ = job_.source == SwapSource::none || !job_.pipelined;
  if (job_.source != SwapSource::none) {
    group_bytes_now_ = job_.pipelined ? group_bytes_ : std::max<int64_t>(m.param_bytes, 1);
    n_groups_ = static_cast<size_t>((m.param_bytes + group_bytes_now_ - 1) / group_bytes_now_);
    if (job_.pipelined) {
      if (m.layer_group.size() == m.layers.size()) {
        layer_group_ = &m.layer_group;
      } else {
        own_layer_group_ = models::swap_layer_groups(m.layers, group_bytes_);
        layer_group_ = &own_layer_group_;
      }
    }
  }
  if (job_.closed_form && (job_.source == SwapSource::none || (job_.route != nullptr && n_groups_ > 0))) {
    begin_closed_form();
    return;
  }
  if (job_.source == SwapSource::none) {
    launch(job_.run_s >= 0 ? job_.run_s : m.compute_s);
    return;
  }
  if (n_groups_ == 0) {  // nothing to move
    try_launch();
    return;
  }
  issue_copy();
  try_launch();
}

// A lone kernel of `seconds` on the platform: its solo time at rate 1, rounded to the picosecond as
// the flow solver rounds its completions. Described by time, it pays no launch delay (its time
// includes the launch; sim/platform/platform.h).
Time SwapExecutor::kernel_time(double seconds) const {
  return Time::ps(static_cast<int64_t>(std::nearbyint(seconds * 1e12)));
}

void SwapExecutor::begin_closed_form() {
  const ServedModel& m = *job_.model;
  closed_ = true;
  ++closed_form_jobs_;
  ++generation_;
  start_at_ = platform_.now();
  const uint64_t gen = generation_ << kTagBits;
  if (job_.source == SwapSource::none) {
    end_at_ = start_at_ + kernel_time(job_.run_s >= 0 ? job_.run_s : m.compute_s);
    platform_.call_at(end_at_, *this, gen | kClosedDone);
    return;
  }
  const LoadShape& shape = load_shape();
  ready_.resize(n_groups_);
  for (size_t g = 0; g < n_groups_; ++g) ready_[g] = start_at_ + shape.ready[g];
  end_at_ = start_at_ + shape.end;
  transfer_pending_ = true;
  platform_.call_at(ready_.back(), *this, gen | kClosedTransfer);
  platform_.call_at(end_at_, *this, gen | kClosedDone);
}

// Group g is issued when g-1 is ready, starts after the route latency, moves at the route's rate
// and is ready after the group overhead (the sibling is not loading: no contention); the layers
// run as their groups become ready.
const SwapExecutor::LoadShape& SwapExecutor::load_shape() {
  const auto key = std::make_tuple(job_.model, job_.route, job_.group_overhead.ps(), job_.pipelined);
  const auto found = shapes_.find(key);
  if (found != shapes_.end()) return found->second;
  const ServedModel& m = *job_.model;
  const RouteCost& r = *job_.route;
  LoadShape shape;
  shape.ready.resize(n_groups_);
  Time t = Time::zero();
  for (size_t g = 0; g < n_groups_; ++g) {
    const double bytes = static_cast<double>(group_size(g));
    t = t + r.latency + Time::ps(static_cast<int64_t>(std::nearbyint(bytes / r.Bps * 1e12))) + job_.group_overhead;
    shape.ready[g] = t;
  }
  Time done = Time::zero();  // when the layers so far are done
  if (single_kernel_) {
    done = shape.ready.back() + kernel_time(m.compute_s);
  } else {
    for (size_t i = 0; i < m.layers.size(); ++i) {
      const int64_t g = (*layer_group_)[i];
      const Time start = g >= 0 ? std::max(done, shape.ready[static_cast<size_t>(g)]) : done;
      done = m.layers[i].compute_s > 0 ? start + kernel_time(m.layers[i].compute_s) : start;
    }
  }
  shape.end = std::max(done, shape.ready.back());
  return shapes_.emplace(key, std::move(shape)).first->second;
}

void SwapExecutor::materialise() {
  if (!closed_form_loading()) return;
  const ServedModel& m = *job_.model;
  const Time now = platform_.now();
  closed_ = false;
  transfer_pending_ = false;
  ++generation_;  // the closed-form events become stale
  ++materialised_jobs_;
  // Groups ready by now stay ready; group k is in flight (or in its overhead).
  size_t k = 0;
  while (k < n_groups_ && ready_[k] <= now) ++k;
  groups_ready_ = k;
  groups_sent_ = k + 1;
  const RouteCost& r = *job_.route;
  const Time copy_begin = (k == 0 ? start_at_ : ready_[k - 1]) + r.latency;
  const int64_t size = group_size(k);
  const Time copy_end = copy_begin + Time::ps(static_cast<int64_t>(std::nearbyint(static_cast<double>(size) / r.Bps * 1e12)));
  if (now < copy_end) {
    const double moved = now > copy_begin ? (now - copy_begin).to_seconds() * r.Bps : 0.0;
    const auto left = std::max<int64_t>(1, static_cast<int64_t>(std::llround(static_cast<double>(size) - moved)));
    platform_.copy(source(), Endpoint::gpu(gpu_), Bytes(left), *this, kCopyDone, m.name);
  } else {
    platform_.call_at(ready_[k], *this, kGroupReady);
  }
  // Layers: the ones done by now stay done; a kernel running now ends at its computed time.
  next_layer_ = 0;
  kernel_running_ = false;
  if (single_kernel_) return;  // its one kernel waits for the last group
  Time done = start_at_;
  while (next_layer_ < m.layers.size()) {
    const int64_t g = (*layer_group_)[next_layer_];
    if (g >= 0 && static_cast<size_t>(g) >= k) return;  // waits for a group not ready yet
    const Time start = g >= 0 ? std::max(done, ready_[static_cast<size_t>(g)]) : done;
    if (m.layers[next_layer_].compute_s > 0) {
      const Time end = start + kernel_time(m.layers[next_layer_].compute_s);
      if (end > now) {
        kernel_running_ = true;
        platform_.call_at(end, *this, kKernelDone);
        return;
      }
      done = end;
    } else {
      done = start;
    }
    ++next_layer_;
  }
}

void SwapExecutor::issue_copy() {
  const int64_t bytes = group_size(groups_sent_++);
  platform_.copy(source(), Endpoint::gpu(gpu_), Bytes(bytes), *this, kCopyDone, job_.model->name);
}

void SwapExecutor::launch(double seconds) {
  kernel_running_ = true;
  KernelProfile k;
  k.name = job_.model->name;
  k.solo_s = seconds;
  platform_.launch(gpu_, kWholeGpu, k, *this, kKernelDone);
}

void SwapExecutor::try_launch() {
  if (kernel_running_ || job_.source == SwapSource::none) return;
  const ServedModel& m = *job_.model;
  if (single_kernel_) {
    if (groups_ready_ == n_groups_ && next_layer_ == 0) launch(m.compute_s);
    return;
  }
  while (next_layer_ < m.layers.size()) {
    const int64_t g = (*layer_group_)[next_layer_];
    if (g >= 0 && static_cast<size_t>(g) >= groups_ready_) return;
    if (m.layers[next_layer_].compute_s > 0) {
      launch(m.layers[next_layer_].compute_s);
      return;
    }
    ++next_layer_;  // nothing to run: a layer without FLOPs
  }
  maybe_finish();
}

void SwapExecutor::maybe_finish() {
  const bool transfer_done = groups_ready_ == n_groups_;
  const bool compute_done = single_kernel_ ? (next_layer_ > 0 && !kernel_running_)
                                           : next_layer_ == job_.model->layers.size() && !kernel_running_;
  if (!transfer_done || !compute_done) return;
  busy_ = false;
  client_.on_job_done(gpu_);
}

void SwapExecutor::on_complete(uint64_t tag) {
  const uint64_t kind = tag & ((uint64_t{1} << kTagBits) - 1);
  if (kind == kClosedTransfer || kind == kClosedDone) {
    if ((tag >> kTagBits) != generation_ || !closed_) return;  // materialised since
    if (kind == kClosedTransfer) {
      transfer_pending_ = false;
      client_.on_transfer_done(gpu_);
    } else {
      closed_ = false;
      busy_ = false;
      client_.on_job_done(gpu_);
    }
    return;
  }
  switch (kind) {
    case kDelayDone:
      begin();
      return;
    case kCopyDone: {
      Time overhead = job_.group_overhead;
      if (job_.source == SwapSource::host && job_.contended_group_overhead > Time::zero() && sibling_ != nullptr &&
          sibling_->host_loading()) {
        overhead = job_.contended_group_overhead;
        ++contended_groups_;
      }
      platform_.call_at(platform_.now() + overhead, *this, kGroupReady);
      return;
    }
    case kGroupReady:
      ++groups_ready_;
      if (groups_sent_ < n_groups_) {
        issue_copy();
      } else {
        client_.on_transfer_done(gpu_);
      }
      try_launch();
      return;
    case kKernelDone:
      kernel_running_ = false;
      ++next_layer_;
      if (single_kernel_) {
        maybe_finish();
      } else {
        try_launch();
      }
      return;
    default:
      throw std::logic_error("SwapExecutor: unknown completion tag");
  }
}

}  // namespace parallax
