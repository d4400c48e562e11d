// File: sim/policies/serverless/serverless_node_keepalive.cpp
// The keep-alive baseline of ServerlessNode (INFless-KA in Torpor Fig. 10), as the reference
// artifact runs it (torpor:scripts/baseline_keepalive.py, tools/export_keepalive.py):
//  * at the start, functions 0 .. slots*gpus-1 have a warm container, function i on GPU i mod gpus;
//  * each container stays while idle for the P99 of its function's inter-arrival gaps (linear
//    interpolation between ranks, as numpy's percentile; functions with < 2 arrivals: `keepalive`);
//  * a request of a function without a container waits; the function joins a first-come list;
//  * every 2 s tick: expired idle containers go (their slots free), waiting functions start on the
//    GPUs with a free slot and room (GPU order, list order), and functions whose container became
//    ready since the last tick release their waiting requests into the FIFO queue;
//  * functions_hosted counts the functions with a container started before the last arrival;
//  * a container start takes the model's cold start (catalog `cold_start_s`, Torpor Table 1) and
//    loads the model over PCIe (counted in swaps_pcie / swap_bytes_pcie and cold_starts).
#include <algorithm>
#include <cmath>

#include "sim/policies/serverless/serverless_node.h"

namespace parallax {

namespace {

Time p99_gap(std::vector<Time>& at, Time fallback) {
  if (at.size() < 2) return fallback;
  std::vector<double> gaps_s;
  for (size_t i = 1; i < at.size(); ++i) gaps_s.push_back((at[i] - at[i - 1]).to_seconds());
  std::sort(gaps_s.begin(), gaps_s.end());
  const double pos = 0.99 * static_cast<double>(gaps_s.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, gaps_s.size() - 1);
  return Time::seconds(gaps_s[lo] + (pos - static_cast<double>(lo)) * (gaps_s[hi] - gaps_s[lo]));
}

}  // namespace

void ServerlessNode::keepalive_setup() {
  const size_t functions = functions_.size();
  const int gpus = platform_.gpu_count();
  std::vector<std::vector<Time>> times(functions);
  for (const ServerlessArrival& a : arrivals_)
    if (a.function < functions) times[a.function].push_back(a.at);
  keepalive_window_.clear();
  for (size_t f = 0; f < functions; ++f)
    keepalive_window_.push_back(policy_.keepalive_p99_gaps ? p99_gap(times[f], policy_.keepalive) : policy_.keepalive);
  waiting_.assign(functions, {});
  waiting_requests_ = 0;
  containers_.clear();
  ready_.clear();
  in_wait_order_.assign(functions, false);
  launched_ever_.assign(functions, false);
  ready_unreleased_.assign(functions, false);
  queued_per_function_.assign(functions, 0);
  slots_used_.assign(static_cast<size_t>(gpus), 0);
  const size_t prewarmed = std::min(functions, static_cast<size_t>(gpus) * static_cast<size_t>(policy_.keepalive_slots));
  for (uint32_t f = 0; f < prewarmed; ++f) {
    const int g = static_cast<int>(f % static_cast<uint32_t>(gpus));
    if (!pools_[static_cast<size_t>(g)]->allocate(footprint_[f])) continue;
    native_gpu_[f] = g;
    containers_.insert(f);
    set_residency(f, g, Residency::resident);
    ++slots_used_[static_cast<size_t>(g)];
    launched_ever_[f] = true;
  }
  for (int g = 0; g < gpus; ++g) sample_pool(g);
}

void ServerlessNode::keepalive_arrive(uint32_t request) {
  const uint32_t f = requests_[request].function;
  const int g = native_gpu_[f];
  if (footprint_[f] > pools_[0]->capacity_bytes()) {  // can never start: dropped
    requests_[request].state = RequestState::dropped;
    add_outstanding(-1);
    retire(request);
    return;
  }
  if (g >= 0 && residency_.at(f, g).state == Residency::resident && !ready_unreleased_[f]) {
    queue_.push(request, f, requests_[request].sequence);
    ++queued_per_function_[f];
    return;
  }
  waiting_[f].push_back(request);
  ++waiting_requests_;
  if (g < 0 && !in_wait_order_[f]) {
    wait_order_.push_back(f);
    in_wait_order_[f] = true;
  }
}

void ServerlessNode::keepalive_ready(uint32_t function) {
  residency_.set_last_use(function, native_gpu_[function], platform_.now());
  set_residency(function, native_gpu_[function], Residency::resident);
  if (!ready_unreleased_[function]) ready_.push_back(function);
  ready_unreleased_[function] = true;
}

void ServerlessNode::keepalive_tick() {
  const Time now = platform_.now();
  // In function order, as a scan of every function would go.
  for (auto it = containers_.begin(); it != containers_.end();) {
    const uint32_t f = *it;
    const int g = native_gpu_[f];
    const ResidencyEntry& e = residency_.at(f, g);
    if (ready_unreleased_[f] || function_running_[f] || queued_per_function_[f] > 0 ||
        e.state != Residency::resident || now - e.last_use <= keepalive_window_[f]) {
      ++it;
      continue;
    }
    it = containers_.erase(it);
    pools_[static_cast<size_t>(g)]->free(footprint_[f]);
    set_residency(f, g, Residency::absent);
    --slots_used_[static_cast<size_t>(g)];
    native_gpu_[f] = -1;
    ++counters_.evictions;
    ++evictions_per_gpu_[static_cast<size_t>(g)];
  }
  for (int g = 0; g < platform_.gpu_count(); ++g) {
    GpuMemoryPool& pool = *pools_[static_cast<size_t>(g)];
    while (!wait_order_.empty() && slots_used_[static_cast<size_t>(g)] < policy_.keepalive_slots) {
      const uint32_t f = wait_order_.front();
      if (!pool.allocate(footprint_[f])) break;
      wait_order_.pop_front();
      in_wait_order_[f] = false;
      ++slots_used_[static_cast<size_t>(g)];
      native_gpu_[f] = g;
      containers_.insert(f);
      set_residency(f, g, Residency::loading);
      if (now <= arrivals_.back().at) launched_ever_[f] = true;  // started while the trace ran
      const ServedModel& m = model_of(f);
      ++counters_.cold_starts;
      count_load(SwapSource::host, m.param_bytes);
      const Time start = m.cold_start > Time::zero() ? m.cold_start : policy_.cold_start;
      platform_.call_at(now + start, *this, kColdStartBase + f);
    }
    sample_pool(g);
  }
  std::sort(ready_.begin(), ready_.end());  // function order, as a scan of every function would go
  for (uint32_t f : ready_) {
    ready_unreleased_[f] = false;
    waiting_requests_ -= waiting_[f].size();
    for (uint32_t request : waiting_[f]) {
      requests_[request].cold_start = true;
      queue_.push(request, f, requests_[request].sequence);
      ++queued_per_function_[f];
    }
    waiting_[f].clear();
  }
  ready_.clear();
  dispatch();
}

bool ServerlessNode::try_dispatch_keepalive(uint32_t request) {
  const uint32_t f = requests_[request].function;
  const int g = native_gpu_[f];
  if (g < 0 || activity_[static_cast<size_t>(g)] != GpuActivity::idle) return false;
  const ServedModel& m = model_of(f);
  ExecutorJob job;
  job.model = &m;
  job.run_s = m.native_s > 0 ? m.native_s : m.compute_s;
  job.closed_form = policy_.closed_form;
  --queued_per_function_[f];
  run(request, g, job, GpuActivity::run_local);
  return true;
}

}  // namespace parallax
