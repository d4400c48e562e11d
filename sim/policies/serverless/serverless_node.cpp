// File: sim/policies/serverless/serverless_node.cpp
#include "sim/policies/serverless/serverless_node.h"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace parallax {

ServerlessNode::ServerlessNode(Platform& platform, ServerlessPolicy policy, std::vector<ServedModel> models,
                               std::vector<ServedFunction> functions, NodeLinks links, RandomStream& rng)
    : platform_(platform),
      policy_(std::move(policy)),
      models_(std::move(models)),
      functions_(std::move(functions)),
      links_(std::move(links)),
      rng_(rng),
      residency_(static_cast<int>(functions_.size()), platform.gpu_count()),
      queue_(policy_.queue, static_cast<int>(functions_.size()), policy_.percentile) {
  const int gpus = platform.gpu_count();
  const bool swapping = policy_.hosting == HostingMode::swap;
  for (GpuId g = 0; g < gpus; ++g) {
    executors_.push_back(std::make_unique<SwapExecutor>(platform, g, *this, policy_.group_bytes));
    const int64_t reserve = swapping ? policy_.reserve_bytes : platform.gpu(g).memory_bytes;
    pools_.push_back(std::make_unique<GpuMemoryPool>(platform, g, reserve, policy_.block_bytes, policy_.segment_bytes));
  }
  for (ServedModel& m : models_) m.layer_group = models::swap_layer_groups(m.layers, policy_.group_bytes);
  for (const ServedFunction& f : functions_) {
    if (f.model >= models_.size()) throw std::invalid_argument("ServerlessNode: function names an unknown model");
    const ServedModel& m = models_[f.model];
    function_class_.push_back(m.heaviness);
    footprint_.push_back(pools_[0]->rounded(swapping ? m.param_bytes : m.native_footprint_bytes));
    // A model larger than the whole pool can never be loaded: its requests are dropped, as native
    // drops those of a function without a GPU (queued, they would wait forever while the resort
    // timer ran the clock out: property test, seed 13).
    fits_pool_.push_back(footprint_.back() <= pools_[0]->capacity_bytes());
  }
  for (GpuId g = 0; g < gpus; ++g) {
    const int sibling = links_.pcie_sibling.empty() ? -1 : links_.pcie_sibling[static_cast<size_t>(g)];
    if (sibling >= 0 && sibling < gpus) executors_[static_cast<size_t>(g)]->set_pcie_sibling(executors_[static_cast<size_t>(sibling)].get());
  }
  activity_.assign(static_cast<size_t>(gpus), GpuActivity::idle);
  idle_gpus_ = gpus;
  pool_samples_.resize(static_cast<size_t>(gpus));
  evictions_per_gpu_.assign(static_cast<size_t>(gpus), 0);
  busy_s_.assign(static_cast<size_t>(gpus), 0.0);
  busy_since_.assign(static_cast<size_t>(gpus), Time::zero());
  running_request_.assign(static_cast<size_t>(gpus), 0);
  function_running_.assign(functions_.size(), false);
  native_gpu_.assign(functions_.size(), -1);
  finished_of_.assign(functions_.size(), 0);
  if (policy_.hosting == HostingMode::native) place_native();
}

ServerlessNode::~ServerlessNode() = default;

// First fit in function order; the functions that do not fit on this node are counted towards
// the GPUs that would be needed (same capacity per GPU) and their requests are dropped.
void ServerlessNode::place_native() {
  const int64_t capacity = pools_[0]->capacity_bytes();
  std::vector<int64_t> used;  // per GPU, including virtual ones beyond the node
  for (uint32_t f = 0; f < functions_.size(); ++f) {
    const int64_t need = footprint_[f];
    size_t g = 0;
    while (g < used.size() && used[g] + need > capacity) ++g;
    if (g == used.size()) used.push_back(0);
    used[g] += need;
    if (g < pools_.size() && pools_[g]->allocate(need)) {
      native_gpu_[f] = static_cast<int>(g);
      set_residency(f, static_cast<int>(g), Residency::resident);
    }
  }
  native_gpus_needed_ = static_cast<int>(used.size());
  for (int g = 0; g < static_cast<int>(pools_.size()); ++g) sample_pool(g);
}

void ServerlessNode::count_load(SwapSource source, int64_t bytes) {
  if (source == SwapSource::peer) {
    ++counters_.nvlink;
    counters_.nvlink_bytes += static_cast<double>(bytes);
  } else {
    ++counters_.pcie;
    counters_.pcie_bytes += static_cast<double>(bytes);
  }
  if (policy_.record_timeline) load_samples_.push_back({platform_.now(), source, bytes});
}

void ServerlessNode::add_outstanding(int delta) {
  outstanding_ += static_cast<uint64_t>(static_cast<int64_t>(delta));
  if (watcher_) watcher_->load_changed(watch_index_, outstanding_);
}

void ServerlessNode::set_residency(uint32_t function, int gpu, Residency state) {
  const bool held = holds(function);
  residency_.set_state(function, gpu, state);
  if (watcher_ && held != holds(function)) watcher_->holds_changed(watch_index_, function, !held);
}

void ServerlessNode::sample_pool(int gpu) {
  if (!policy_.record_timeline) return;
  const auto g = static_cast<size_t>(gpu);
  pool_samples_[g].push_back({platform_.now(), pools_[g]->used_bytes(), evictions_per_gpu_[g]});
}

int ServerlessNode::functions_hosted() const {
  if (policy_.hosting == HostingMode::swap) return static_cast<int>(std::count(fits_pool_.begin(), fits_pool_.end(), true));
  if (policy_.hosting == HostingMode::keepalive)
    return static_cast<int>(std::count(launched_ever_.begin(), launched_ever_.end(), true));
  return static_cast<int>(std::count_if(native_gpu_.begin(), native_gpu_.end(), [](int g) { return g >= 0; }));
}

int ServerlessNode::gpus_used() const {
  if (policy_.hosting == HostingMode::native) return native_gpus_needed_;
  return static_cast<int>(std::count_if(busy_s_.begin(), busy_s_.end(), [](double s) { return s > 0; }));
}

void ServerlessNode::start(std::span<const ServerlessArrival> arrivals) {
  arrivals_.assign(arrivals.begin(), arrivals.end());
  if (policy_.record_requests) requests_.reserve(arrivals_.size());
  if (!arrivals_.empty()) platform_.call_at(arrivals_.front().at, *this, kArrival);
  if (policy_.hosting == HostingMode::keepalive) keepalive_setup();
  if ((policy_.queue == QueueKind::rrc || policy_.hosting == HostingMode::keepalive) && !arrivals_.empty()) {
    platform_.call_at(arrivals_.front().at + policy_.resort_period, *this, kResort);
    resort_pending_ = true;
  }
}

bool ServerlessNode::work_left() const {
  if (next_arrival_ < arrivals_.size() || !queue_.empty() || !wait_order_.empty()) return true;
  if (waiting_requests_ > 0) return true;
  return std::any_of(executors_.begin(), executors_.end(), [](const auto& e) { return e->busy(); });
}

void ServerlessNode::on_complete(uint64_t tag) {
  if (tag == kArrival) {
    arrive();
  } else if (tag >= kColdStartBase) {
    keepalive_ready(static_cast<uint32_t>(tag - kColdStartBase));
  } else if (tag == kResort) {
    resort_pending_ = false;
    queue_.resort();
    if (policy_.hosting == HostingMode::keepalive) keepalive_tick();
    if (work_left()) arm_resort();
  }
}

void ServerlessNode::arrive() {
  const Time now = platform_.now();
  while (next_arrival_ < arrivals_.size() && arrivals_[next_arrival_].at <= now) {
    const ServerlessArrival& a = arrivals_[next_arrival_++];
    accept(a.function, a.at);
  }
  if (next_arrival_ < arrivals_.size()) platform_.call_at(arrivals_[next_arrival_].at, *this, kArrival);
  dispatch();
}

void ServerlessNode::submit(uint32_t function) {
  if (policy_.hosting == HostingMode::keepalive)
    throw std::invalid_argument("ServerlessNode::submit: keep-alive runs on one node, from start()");
  accept(function, platform_.now());
  if (policy_.queue == QueueKind::rrc && !resort_pending_) arm_resort();
  dispatch();
}

void ServerlessNode::arm_resort() {
  platform_.call_at(platform_.now() + policy_.resort_period, *this, kResort);
  resort_pending_ = true;
}

void ServerlessNode::accept(uint32_t function, Time at) {
  if (function >= functions_.size()) throw std::invalid_argument("ServerlessNode: arrival for an unknown function");
  RequestRecord r;
  r.function = function;
  r.arrival = at;
  r.sequence = outcomes_.size();
  outcomes_.push_back({function, RequestState::queued, false, Time::zero(), Time::zero()});
  uint32_t id = 0;
  if (free_ids_.empty()) {
    id = static_cast<uint32_t>(requests_.size());
    requests_.push_back(r);
  } else {
    id = free_ids_.back();
    free_ids_.pop_back();
    requests_[id] = r;
  }
  if ((policy_.hosting == HostingMode::native && native_gpu_[function] < 0) ||
      (policy_.hosting == HostingMode::swap && !fits_pool_[function])) {
    requests_[id].state = RequestState::dropped;
    retire(id);
    return;
  }
  requests_[id].state = RequestState::queued;
  add_outstanding(1);
  if (policy_.hosting == HostingMode::keepalive) {
    keepalive_arrive(id);
  } else {
    queue_.push(id, function, r.sequence);
  }
}

// A request that finished or was dropped: its outcome is kept, its id reused (unless every
// record is kept).
void ServerlessNode::retire(uint32_t request) {
  const RequestRecord& r = requests_[request];
  RequestOutcome& o = outcomes_[r.sequence];
  o.state = r.state;
  o.cold_start = r.cold_start;
  if (r.state == RequestState::finished) {
    o.latency = r.finish - r.arrival;
    o.queueing = r.dispatch - r.arrival;
    last_finish_ = std::max(last_finish_, r.finish);
    ++finished_of_[r.function];
  }
  if (!policy_.record_requests) free_ids_.push_back(request);
}

// Tries the queued requests in dispatch order while a GPU is idle, as Torpor's dispatcher scans its
// whole queue (router.py get_req), skipping requests whose function is running. A try that fails
// changes nothing and, with the torpor selector, native and keep-alive hosting, fails again until
// some other request starts; so a function that failed is set aside and comes back, at its next
// request past that start, only after one. The walk therefore visits functions, not every queued
// request, and does the same tries as the full scan (the random selector draws on every try, so
// its functions come back at their next request at once). O((G + functions tried) log n).
void ServerlessNode::dispatch() {
  if (dispatching_) return;
  dispatching_ = true;
  const bool repeatable = policy_.hosting != HostingMode::swap || policy_.selector != SelectorKind::random;
  std::set<RequestQueue::Key> returning;  // functions set aside, at their next request
  std::vector<uint32_t> set_aside;
  auto head = queue_.heads().begin();
  while (idle_gpus_ > 0) {
    const bool from_heads = head != queue_.heads().end() && (returning.empty() || *head < *returning.begin());
    if (!from_heads && returning.empty()) break;
    const RequestQueue::Key at = from_heads ? *head : *returning.begin();
    if (from_heads) {
      ++head;  // the dispatch below may erase `at`
    } else {
      returning.erase(returning.begin());
    }
    const uint32_t f = queue_.function_of(at.request);
    if (function_running_[f]) continue;
    bool started = false;
    switch (policy_.hosting) {
      case HostingMode::swap: started = try_dispatch_swap(at.request); break;
      case HostingMode::native: started = try_dispatch_native(at.request); break;
      case HostingMode::keepalive: started = try_dispatch_keepalive(at.request); break;
    }
    if (started) {
      for (uint32_t other : set_aside)
        if (const auto next = queue_.next_of(other, &at)) returning.insert(*next);
      set_aside.clear();
    } else if (repeatable) {
      set_aside.push_back(f);
    } else if (const auto next = queue_.next_of(f, &at)) {
      returning.insert(*next);
    }
  }
  dispatching_ = false;
}

bool ServerlessNode::make_room(int gpu, int64_t bytes, EvictorKind kind) {
  GpuMemoryPool& pool = *pools_[static_cast<size_t>(gpu)];
  const EvictionPlan plan = plan_eviction(kind, residency_, gpu, pool.rounded(bytes), pool.free_bytes(),
                                          function_class_, footprint_);
  if (!plan.possible) return false;
  for (uint32_t victim : plan.victims) {
    pool.free(footprint_[victim]);
    set_residency(victim, gpu, Residency::absent);
    ++counters_.evictions;
    ++evictions_per_gpu_[static_cast<size_t>(gpu)];
  }
  const bool ok = pool.allocate(bytes);
  sample_pool(gpu);
  return ok;
}

void ServerlessNode::run(uint32_t request, int gpu, const ExecutorJob& job, GpuActivity activity) {
  RequestRecord& r = requests_[request];
  queue_.erase(request);
  r.state = RequestState::running;
  r.dispatch = platform_.now();
  r.loaded = r.dispatch;
  r.gpu = gpu;
  r.swap = job.source;
  r.source = job.source == SwapSource::peer ? job.source_index : -1;
  function_running_[r.function] = true;
  activity_[static_cast<size_t>(gpu)] = activity;  // never idle: a run's activity
  --idle_gpus_;
  running_request_[static_cast<size_t>(gpu)] = request;
  busy_since_[static_cast<size_t>(gpu)] = platform_.now();
  residency_.set_running(r.function, gpu, true);
  executors_[static_cast<size_t>(gpu)]->start(job);
}

bool ServerlessNode::try_dispatch_swap(uint32_t request) {
  const uint32_t f = requests_[request].function;
  SelectionInput in{f, &residency_, activity_, busy_s_, &links_};
  const Placement p = select_gpu(policy_.selector, in, rng_);
  if (!p.found) return false;
  const ServedModel& m = model_of(f);
  ExecutorJob job;
  job.model = &m;
  job.source = p.source;
  job.pipelined = policy_.pipelined;
  job.closed_form = policy_.closed_form;
  GpuActivity activity = GpuActivity::run_local;
  if (p.source != SwapSource::none) {
    if (p.source == SwapSource::peer) residency_.add_reader(f, p.peer, 1);  // locked while read
    if (!make_room(p.gpu, m.param_bytes, policy_.evictor)) {
      if (p.source == SwapSource::peer) residency_.add_reader(f, p.peer, -1);
      return false;
    }
    set_residency(f, p.gpu, Residency::loading);
    if (p.source == SwapSource::peer) {
      job.source_index = p.peer;
      job.group_overhead = policy_.peer_group_overhead;
      activity = GpuActivity::run_nvlink;
    } else {
      job.source_index = links_.host;
      job.group_overhead = policy_.host_group_overhead;
      job.contended_group_overhead = policy_.host_group_overhead_contended;
      activity = m.heaviness == ModelClass::light    ? GpuActivity::pcie_light
                 : m.heaviness == ModelClass::median ? GpuActivity::pcie_median
                                                     : GpuActivity::pcie_heavy;
    }
    count_load(p.source, m.param_bytes);
  }
  if (p.source != SwapSource::none && policy_.closed_form) job.route = lone_route(p.gpu, job);
  run(request, p.gpu, job, activity);
  return true;
}

// The route of a load about to start on `gpu`, or nullptr when another load in flight crosses one
// of its link directions; those other loads, if computed in closed form, move onto the platform.
const RouteCost* ServerlessNode::lone_route(int gpu, const ExecutorJob& job) {
  const int gpus = platform_.gpu_count();
  const auto source_row = [&](const ExecutorJob& j) { return j.source == SwapSource::host ? gpus : j.source_index; };
  const RouteCost* mine = links_.route(source_row(job), gpu);
  if (mine == nullptr) return nullptr;
  bool alone = true;
  for (int g = 0; g < gpus; ++g) {
    SwapExecutor& other = *executors_[static_cast<size_t>(g)];
    if (g == gpu || !other.transferring()) continue;
    const RouteCost* theirs = links_.route(source_row(other.job()), g);
    if (theirs != nullptr && !routes_share(*mine, *theirs)) continue;
    alone = false;
    other.materialise();
  }
  return alone ? mine : nullptr;
}

bool ServerlessNode::try_dispatch_native(uint32_t request) {
  const uint32_t f = requests_[request].function;
  const int g = native_gpu_[f];
  if (activity_[static_cast<size_t>(g)] != GpuActivity::idle) return false;
  ExecutorJob job;
  job.model = &model_of(f);
  job.run_s = model_of(f).native_s > 0 ? model_of(f).native_s : model_of(f).compute_s;
  job.closed_form = policy_.closed_form;
  run(request, g, job, GpuActivity::run_local);
  return true;
}

void ServerlessNode::on_transfer_done(GpuId gpu) {
  RequestRecord& r = requests_[running_request_[static_cast<size_t>(gpu)]];
  r.loaded = platform_.now();
  if (r.swap != SwapSource::peer) return;
  for (int g = 0; g < residency_.gpus(); ++g) {
    if (g != gpu && residency_.at(r.function, g).readers > 0) {
      residency_.add_reader(r.function, g, -1);
      return;
    }
  }
}

void ServerlessNode::on_job_done(GpuId gpu) {
  const auto g = static_cast<size_t>(gpu);
  const uint32_t request = running_request_[g];
  RequestRecord& r = requests_[request];
  const Time now = platform_.now();
  r.finish = now;
  r.state = RequestState::finished;
  add_outstanding(-1);
  residency_.set_last_use(r.function, gpu, now);
  set_residency(r.function, gpu, Residency::resident);
  residency_.set_running(r.function, gpu, false);
  function_running_[r.function] = false;
  activity_[g] = GpuActivity::idle;
  ++idle_gpus_;
  busy_s_[g] += (now - busy_since_[g]).to_seconds();
  const double latency_s = (now - r.arrival).to_seconds();
  queue_.record(r.function, latency_s, now - r.arrival <= model_of(r.function).slo);
  retire(request);
  dispatch();
}

}  // namespace parallax
