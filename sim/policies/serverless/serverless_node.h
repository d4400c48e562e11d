// File: sim/policies/serverless/serverless_node.h
// One GPU server (Torpor §4.1): a controller with the global view of one node's GPUs, one
// executor per GPU, the memory pools, the evictor, the GPU selector and the request queue, driven
// by arrivals and completions on the Platform only. Every arrival ends as finished, dropped (native
// cannot host its function; swap: its model is larger than the whole pool) or still queued when
// the run is cut short.
//
//   ServerlessNode node(platform, policy, models, functions, links, streams.stream("gpu_select"));
//   node.start(arrivals);   // sorted by time
//   engine.run();
//   node.outcomes();        // per request, in arrival order: function, state, latency, queueing
//   node.requests();        // with policy.record_requests: arrival, dispatch, finish, path
#pragma once

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <memory>
#include <set>
#include <span>
#include <vector>

#include "sim/platform/platform.h"
#include "sim/policies/serverless/gpu_memory_pool.h"
#include "sim/policies/serverless/model_residency.h"
#include "sim/policies/serverless/request_queue.h"
#include "sim/policies/serverless/serverless_policy.h"
#include "sim/policies/serverless/swap_executor.h"

namespace parallax {

struct ServerlessArrival {
  Time at;
  uint32_t function = 0;
};

enum class RequestState : uint8_t { pending, queued, running, finished, dropped };

struct RequestRecord {
  uint32_t function = 0;
  uint64_t sequence = 0;  // arrival order on the node
  Time arrival, dispatch, finish;
  Time loaded;  // swaps: when the last group was ready; otherwise = dispatch
  RequestState state = RequestState::pending;
  SwapSource swap = SwapSource::none;
  bool cold_start = false;
  int gpu = -1;
  int source = -1;  // peer GPU of an NVLink swap
};

// What the summary needs of one request (serverless_metrics.h), kept for every request in arrival
// order: 24 bytes where the full record takes 64 (docs/serverless.md "Scale").
struct RequestOutcome {
  uint32_t function = 0;
  RequestState state = RequestState::queued;  // queued: queued or running when the run stopped
  bool cold_start = false;
  Time latency, queueing;  // finished: finish - arrival, dispatch - arrival
};

// Model memory of one GPU's pool after a change (recorded when the policy asks: trace output).
struct PoolSample {
  Time at;
  int64_t used_bytes = 0;
  uint64_t evictions = 0;  // on this GPU so far
};

// One model load into GPU memory (recorded when the policy asks: the report's swap timeline): when
// it started, its path (host = PCIe, peer = NVLink) and the bytes moved.
struct LoadSample {
  Time at;
  SwapSource source = SwapSource::none;
  int64_t bytes = 0;
};

struct SwapCounters {
  uint64_t pcie = 0, nvlink = 0, evictions = 0, cold_starts = 0;
  double pcie_bytes = 0, nvlink_bytes = 0;
};

// Told, as they happen, of a node's load and of which functions it holds: the cluster router's
// table, so that routing a request reads one array instead of every node (serverless_cluster.h).
class NodeWatcher {
 public:
  virtual void load_changed(size_t node, uint64_t outstanding) = 0;
  virtual void holds_changed(size_t node, uint32_t function, bool holds) = 0;

 protected:
  ~NodeWatcher() = default;
};

class ServerlessNode final : public CompletionListener, public ExecutorClient {
 public:
  ServerlessNode(Platform& platform, ServerlessPolicy policy, std::vector<ServedModel> models,
                 std::vector<ServedFunction> functions, NodeLinks links, RandomStream& rng);
  ~ServerlessNode();
  void start(std::span<const ServerlessArrival> arrivals);
  // A request of `function` arriving now, from a router in front of several nodes (swap and native
  // hosting; keep-alive needs the whole trace up front and runs through start() only).
  void submit(uint32_t function);
  // Whether some GPU of the node holds or is loading the function's model.
  bool holds(uint32_t function) const { return residency_.replicas(function) > 0; }
  // Requests accepted and not yet finished or dropped (queued or running).
  uint64_t outstanding() const { return outstanding_; }
  // From now on, `watcher` hears of this node's (as `index`) load and holds changes.
  void watch(NodeWatcher* watcher, size_t index) {
    watcher_ = watcher;
    watch_index_ = index;
  }

  // Every request in arrival order (ServerlessPolicy::record_requests; throws without it).
  const std::vector<RequestRecord>& requests() const {
    if (!policy_.record_requests) throw std::logic_error("ServerlessNode::requests: the policy does not record requests");
    return requests_;
  }
  const std::deque<RequestOutcome>& outcomes() const { return outcomes_; }
  // The function's finished requests (the summary sizes its buffers with these).
  uint64_t finished_of(uint32_t function) const { return finished_of_[function]; }
  Time last_finish() const { return last_finish_; }
  const SwapCounters& counters() const { return counters_; }
  // Per GPU, every change of its pool (ServerlessPolicy::record_timeline), in time order.
  const std::vector<std::vector<PoolSample>>& pool_samples() const { return pool_samples_; }
  // Every model load on the node, in start order (ServerlessPolicy::record_timeline).
  const std::vector<LoadSample>& load_samples() const { return load_samples_; }
  const GpuMemoryPool& pool(int gpu) const { return *pools_[static_cast<size_t>(gpu)]; }
  const std::vector<ServedFunction>& functions() const { return functions_; }
  const std::vector<ServedModel>& models() const { return models_; }
  const ServerlessPolicy& policy() const { return policy_; }
  size_t queued() const { return queue_.size(); }
  // GPUs that served at least one request; native: GPUs needed to host every function.
  int gpus_used() const;
  double busy_s(int gpu) const { return busy_s_[static_cast<size_t>(gpu)]; }
  // Native: functions that have a GPU (the others' requests are dropped); keepalive: functions
  // whose container started before the last arrival; swap: functions whose model fits the pool.
  int functions_hosted() const;
  // Keepalive: per function, how long its idle container stays.
  const std::vector<Time>& keepalive_windows() const { return keepalive_window_; }

  void on_complete(uint64_t tag) override;
  void on_transfer_done(GpuId gpu) override;
  void on_job_done(GpuId gpu) override;

 private:
  enum Tag : uint64_t { kArrival = 1, kResort = 2, kColdStartBase = 16 };  // + function
  void arrive();
  void accept(uint32_t function, Time at);
  void arm_resort();
  void dispatch();
  bool try_dispatch_swap(uint32_t request);
  bool try_dispatch_native(uint32_t request);
  bool try_dispatch_keepalive(uint32_t request);
  // Keep-alive baseline (serverless_node_keepalive.cpp).
  void keepalive_setup();
  void keepalive_arrive(uint32_t request);
  void keepalive_tick();
  void keepalive_ready(uint32_t function);
  bool make_room(int gpu, int64_t bytes, EvictorKind kind);
  void run(uint32_t request, int gpu, const ExecutorJob& job, GpuActivity activity);
  const RouteCost* lone_route(int gpu, const ExecutorJob& job);
  void place_native();
  bool work_left() const;
  const ServedModel& model_of(uint32_t function) const { return models_[functions_[function].model]; }

  Platform& platform_;
  ServerlessPolicy policy_;
  std::vector<ServedModel> models_;
  std::vector<ServedFunction> functions_;
  NodeLinks links_;
  RandomStream& rng_;
  std::vector<std::unique_ptr<SwapExecutor>> executors_;
  std::vector<std::unique_ptr<GpuMemoryPool>> pools_;
  ModelResidency residency_;
  RequestQueue queue_;
  std::vector<ModelClass> function_class_;
  std::vector<int64_t> footprint_;       // per function, bytes as the pools round them
  std::vector<bool> fits_pool_;          // per function: its footprint fits an empty pool
  std::vector<GpuActivity> activity_;
  int idle_gpus_ = 0;  // GPUs whose activity_ is idle
  std::vector<double> busy_s_;
  std::vector<Time> busy_since_;
  std::vector<uint32_t> running_request_;  // per GPU
  std::vector<bool> function_running_;
  std::vector<int> native_gpu_;            // native/keepalive: the function's GPU, -1 = none
  int native_gpus_needed_ = 0;
  std::vector<Time> keepalive_window_;               // per function
  std::vector<std::vector<uint32_t>> waiting_;       // per function: requests without a container
  uint64_t waiting_requests_ = 0;                    // in all of waiting_
  // A tick visits these only, not every function (docs/performance.md "Serverless overload"):
  std::set<uint32_t> containers_;                    // functions with a container, ascending
  std::vector<uint32_t> ready_;                      // functions with ready_unreleased_ set
  std::deque<uint32_t> wait_order_;                  // functions waiting for a slot, first come first
  std::vector<bool> in_wait_order_, launched_ever_, ready_unreleased_;
  std::vector<int> slots_used_;                      // per GPU
  std::vector<uint32_t> queued_per_function_;
  std::vector<ServerlessArrival> arrivals_;
  size_t next_arrival_ = 0;
  // Full records by request id. With record_requests the id is the arrival sequence and nothing
  // is reused; otherwise the id of a finished or dropped request is reused (free_ids_), so that
  // the records and the queue's per-request state grow with the requests in flight only.
  std::vector<RequestRecord> requests_;
  std::vector<uint32_t> free_ids_;
  std::deque<RequestOutcome> outcomes_;  // by sequence; a deque grows without copying
  std::vector<uint64_t> finished_of_;    // per function
  Time last_finish_;
  void retire(uint32_t request);
  SwapCounters counters_;
  uint64_t outstanding_ = 0;
  NodeWatcher* watcher_ = nullptr;
  size_t watch_index_ = 0;
  void add_outstanding(int delta);
  // residency_.set_state, telling the watcher when the function's first copy comes or its last goes.
  void set_residency(uint32_t function, int gpu, Residency state);
  std::vector<std::vector<PoolSample>> pool_samples_;
  std::vector<uint64_t> evictions_per_gpu_;
  std::vector<LoadSample> load_samples_;
  void sample_pool(int gpu);
  // Counts a load of `bytes` over `source`'s path (swaps_pcie/nvlink and their bytes) and records it.
  void count_load(SwapSource source, int64_t bytes);
  bool dispatching_ = false;
  bool resort_pending_ = false;
};

}  // namespace parallax
