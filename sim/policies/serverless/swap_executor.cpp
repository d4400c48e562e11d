// File: sim/policies/serverless/swap_executor.cpp
#include "sim/policies/serverless/swap_executor.h"

#include <stdexcept>

namespace parallax {

SwapExecutor::SwapExecutor(Platform& platform, GpuId gpu, ExecutorClient& client, int64_t group_bytes)
    : platform_(platform), gpu_(gpu), client_(client), group_bytes_(group_bytes) {}

void SwapExecutor::start(const ExecutorJob& job) {
  if (busy_) throw std::logic_error("SwapExecutor::start: the GPU is busy");
  busy_ = true;
  job_ = job;
  groups_.clear();
  layer_group_.clear();
  groups_sent_ = groups_ready_ = next_layer_ = 0;
  kernel_running_ = false;
  started_ = false;
  if (job_.delay > Time::zero()) {
    platform_.call_at(platform_.now() + job_.delay, *this, kDelayDone);
  } else {
    begin();
  }
}

Endpoint SwapExecutor::source() const {
  return job_.source == SwapSource::host ? Endpoint::host(job_.source_index) : Endpoint::gpu(job_.source_index);
}

void SwapExecutor::begin() {
  started_ = true;
  const ServedModel& m = *job_.model;
  single_kernel_ = job_.source == SwapSource::none || !job_.pipelined;
  if (job_.source == SwapSource::none) {
    launch(job_.run_s >= 0 ? job_.run_s : m.compute_s);
    return;
  }
  if (job_.pipelined) {
    groups_ = models::swap_group_sizes(m.param_bytes, group_bytes_);
    layer_group_ = models::swap_layer_groups(m.layers, group_bytes_);
  } else {
    groups_ = {m.param_bytes};
  }
  issue_copy();
  try_launch();
}

void SwapExecutor::issue_copy() {
  const int64_t bytes = groups_[groups_sent_++];
  platform_.copy(source(), Endpoint::gpu(gpu_), Bytes(bytes), *this, kCopyDone, job_.model->name);
}

void SwapExecutor::launch(double seconds) {
  kernel_running_ = true;
  KernelProfile k;
  k.name = job_.model->name;
  k.flops = seconds * platform_.gpu(gpu_).peak_flops;
  platform_.launch(gpu_, kWholeGpu, k, *this, kKernelDone);
}

void SwapExecutor::try_launch() {
  if (kernel_running_ || job_.source == SwapSource::none) return;
  const ServedModel& m = *job_.model;
  if (single_kernel_) {
    if (groups_ready_ == groups_.size() && next_layer_ == 0) launch(m.compute_s);
    return;
  }
  while (next_layer_ < m.layers.size()) {
    const int64_t g = layer_group_[next_layer_];
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
  const bool transfer_done = groups_ready_ == groups_.size();
  const bool compute_done = single_kernel_ ? (next_layer_ > 0 && !kernel_running_)
                                           : next_layer_ == job_.model->layers.size() && !kernel_running_;
  if (!transfer_done || !compute_done) return;
  busy_ = false;
  client_.on_job_done(gpu_);
}

void SwapExecutor::on_complete(uint64_t tag) {
  switch (tag) {
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
      if (groups_sent_ < groups_.size()) {
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
