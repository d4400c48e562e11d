// File: sim/platform/sim_platform.h
// The simulated Platform: virtual time from the engine, transfers and kernels as activities of
// the FlowSolver, routes from the Topology. Policies see only Platform; this header is for the
// code that builds a simulation (tools/, tests).
//
// What is modelled:
//  * copy: waits the route's latency, then moves its bytes at the max-min fair rate of the link
//    directions it crosses (and of the GPUs' copy engines when the spec gives them a bandwidth).
//    A copy within one GPU reads and writes HBM (weight 2 on the HBM constraint).
//  * launch: a kernel's solo time on the whole GPU is T0 = max(flops / peak, bytes / HBM); it
//    progresses at rate λ (1 = solo speed) drawing λ·flops/T0 FLOP/s from its SM pool (the GPU's
//    unreserved SMs, or its partition) and λ·bytes/T0 B/s from HBM (and the partition's share).
//    Max-min over λ slows co-running kernels equally where they contend and not where they
//    complement each other (compute-bound next to memory-bound).
//    A kernel described by time (solo_s) is a compute kernel of solo_s x peak_flops FLOPs.
//    Block dispatch (no preemption on shared SMs, models/block_dispatch.h): a kernel whose
//    profile describes its blocks (block_s > 0), once its launch delay is over, looks at the
//    other such kernels running in its SM pool (the same partition, or the GPU's unreserved
//    SMs); if they hold more of the pool's SMs than its max_sms leaves free, its start waits
//    dispatch_wait_s for their resident blocks to retire, f = the share of its SMs a co-runner
//    holds (the overlap split over the co-runners by their SMs; the largest wait counts). Kernels
//    in different partitions never wait for each other.
//  * collective: NCCL's algorithms built of copies, step by step (see flow_collective.h).
//  * paths / copy_over: the Topology's disjoint routes of a box-local pair (Topology::routes), a
//    copy put on the one it names; path index 0 is copy()'s route.
//  * path: the Topology's route, its link directions named by capacity group, plus the copy
//    engines of the GPU ends when the spec bounds them (ids after the groups: out-engines of GPU g
//    at groups + g, in-engines at groups + gpus + g), exactly the constraints a copy is put on.
//  * memory: capacity per GPU; allocate() beyond it throws OutOfMemoryError.
// Not modelled yet: HBM traffic of inter-GPU copies, pinned vs pageable host memory.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/platform/activity_record.h"
#include "sim/platform/flow_solver.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/platform/platform.h"
#include "sim/platform/topology.h"

namespace parallax {

class FlowCollective;

class SimPlatform final : public Platform, private EventHandler {
 public:
  // `log` (optional) receives one record per finished activity. `partitioning`: the division
  // rules of the GPU models the spec names (matched by GpuPartitioning::models); partitioning()
  // of a GPU whose model is not among them throws PlatformError.
  SimPlatform(Engine& engine, const HardwareSpec& spec, ActivityLog* log = nullptr,
              std::vector<GpuPartitioning> partitioning = {});
  ~SimPlatform() override;

  Time now() const override { return engine_.now(); }
  void call_at(Time at, CompletionListener& listener, uint64_t tag) override;

  int gpu_count() const override { return cluster_gpu_count(spec_); }
  int host_count() const override { return cluster_host_count(spec_); }
  const GpuSpec& gpu(GpuId id) const override;
  const GpuPartitioning& partitioning(GpuId id) const override;
  Path path(Endpoint src, Endpoint dst) override;
  std::vector<Path> paths(Endpoint src, Endpoint dst) override;  // Topology::routes()

  ActivityId copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener,
                  uint64_t tag, std::string_view label = {}) override;
  ActivityId copy_over(Endpoint src, Endpoint dst, int path_index, Bytes bytes, CompletionListener& listener,
                       uint64_t tag, std::string_view label = {}) override;
  ActivityId launch(GpuId gpu, PartitionId partition, const KernelProfile& kernel,
                    CompletionListener& listener, uint64_t tag) override;
  ActivityId collective(CollectiveOp op, std::span<const GpuId> group, Bytes bytes,
                        CollectiveAlgo algo, CompletionListener& listener, uint64_t tag,
                        std::string_view label = {}) override;

  AllocationId allocate(GpuId gpu, Bytes bytes) override;
  void release(AllocationId allocation) override;
  Bytes memory_used(GpuId gpu) const override;

  PartitionId create_partition(GpuId gpu, const PartitionSpec& spec) override;
  void resize_partition(PartitionId partition, const PartitionSpec& spec) override;

  // What each link direction carried (index = Topology::directions()), counted as copies begin
  // and end: cheap enough to keep on in every run, log or not.
  struct alignas(64) LinkUsage {  // (a line each: a copy updates two or more as it begins and ends)
    double bytes = 0;       // payload of the copies that crossed it
    Time busy;              // time with at least one copy moving bytes on it
    uint64_t transfers = 0;
    int64_t active = 0;
    Time busy_since;
  };
  const std::vector<LinkUsage>& link_usage() const { return link_usage_; }
  // Finished activities by kind (index = ActivityKind).
  uint64_t finished(ActivityKind kind) const { return finished_by_kind_[static_cast<int>(kind)]; }

  // For reports and tests.
  const HardwareSpec& spec() const { return spec_; }
  Topology& topology() { return topology_; }
  const Topology& topology() const { return topology_; }
  double bytes_copied() const { return bytes_copied_; }  // payload of finished copies
  const FlowSolver& solver() const { return solver_; }
  // Whether the solver holds changes that running flows still wait on (the platform's solve at
  // this instant is to come). Changes made while no flow runs wait for the next start's solve,
  // so an idle solver may stay unsolved across time: no rate is in use.
  bool solve_due() const { return solver_.needs_solve() && solver_.active_flows() > 0; }
  uint64_t activities_started() const { return next_activity_id_ - 1; }
  uint64_t activities_finished() const { return finished_; }
  Time last_finish() const { return last_finish_; }

  // Used by the collective schedules (flow_collective.h): a copy whose record names a parent
  // collective; a phase run as a child; the end of a schedule (destroys it). A schedule that
  // repeats a hop (a ring's 2(P-1) steps) resolves its route once with step_route().
  struct StepRoute {
    int src_node, dst_node;
    uint32_t route;  // index into routes_, or kOwnRoute (composed per copy: between boxes)
  };
  StepRoute step_route(int src_gpu, int dst_gpu);
  ActivityId copy_step(const StepRoute& route, double bytes, CompletionListener& listener, uint64_t tag,
                       ActivityId parent, std::string_view label) {
    return start_copy(route.src_node, route.dst_node, route.route, bytes, listener, tag, label, parent);
  }
  void start_child(std::unique_ptr<FlowCollective> c);
  void finish_collective(FlowCollective* c);

 private:
  // The first cache line holds all a copy reads as it begins and ends (a ring step begins and
  // ends hundreds of copies, each evicting the others' lines); a kernel's fields follow.
  struct alignas(64) Activity {
    CompletionListener* listener = nullptr;
    uint64_t tag = 0;
    ActivityId id = 0;
    double amount = 0;
    std::unique_ptr<ActivityRecord> record;  // only when logging
    FlowClassId cls = 0;
    uint32_t route = UINT32_MAX;   // copies: index into routes_, or kOwnRoute
    ActivityKind kind = ActivityKind::copy;
    bool ephemeral_class = false;  // released when the activity ends (kernels)
    bool dispatched = false;  // kernels with blocks: their dispatch wait is behind them
    // Kernels with described blocks (KernelProfile::block_s > 0), for block dispatch.
    GpuId gpu = 0;
    PartitionId partition = kWholeGpu;
    int sms = 0;         // max_sms (0 = the whole pool)
    double block_s = 0;
    double own_s = 0;    // its time alone on its SMs
    Time began;               // when its blocks began (a resident kernel)
    std::vector<uint32_t> own_directions;  // kOwnRoute: the copy's route (between cluster nodes)
  };
  // Wakes a kernel whose blocks waited for a co-runner's (tag = its activity slot).
  struct DispatchWake final : CompletionListener {
    SimPlatform* platform = nullptr;
    void on_complete(uint64_t slot) override { platform->begin(static_cast<uint32_t>(slot)); }
  };
  struct alignas(64) CachedRoute {  // (one cache line: every copy on the route reads it twice)
    Time latency;
    std::vector<uint32_t> directions;
    FlowClassId cls;
    uint32_t lane;
    int src_node, dst_node;
  };
  struct GpuState {
    ConstraintId sm_pool = 0;  // the GPU's unreserved SMs
    ConstraintId hbm = 0;
    int reserved_sms = 0;
    int64_t memory_used = 0;
    std::vector<uint32_t> resident_kernels;  // slots of its running kernels with block_s > 0
  };
  struct Partition {
    GpuId gpu;
    PartitionSpec spec;
    ConstraintId sms;
    ConstraintId bandwidth;     // share·HBM, for every kernel on it
    ConstraintId sm_bandwidth;  // sms·bw_per_SM, for its grids (max_sms > 0)
  };
  struct Timer {
    CompletionListener* listener;
    uint64_t tag;
  };
  // Activities that wait the same latency begin in the order they were issued, so each distinct
  // latency keeps a FIFO and one pending engine event for its head, instead of one heap entry per
  // activity (a ring step issues P copies at once; this keeps the event list small). The FIFO is
  // a vector read from `head`: a ring's lane empties every step, and then it starts over.
  struct LatencyLane {
    std::vector<std::pair<Time, uint32_t>> waiting;  // (begin time, activity slot), from head on
    size_t head = 0;
    bool scheduled = false;
    bool empty() const { return head == waiting.size(); }
  };

  void handle_event(uint64_t tag) override;
  uint32_t new_activity_slot() {
    if (free_slots_.empty()) return grow_activities();
    const uint32_t s = free_slots_.back();
    free_slots_.pop_back();
    return s;
  }
  uint32_t grow_activities();
  uint32_t route_of(int src_node, int dst_node, int path_index);  // cached_route() or kOwnRoute
  ActivityId start_copy(int src_node, int dst_node, uint32_t route_id, double bytes, CompletionListener& listener,
                        uint64_t tag, std::string_view label, ActivityId parent);
  Path path_of(const Topology::Route& r, Endpoint src, Endpoint dst) const;
  uint32_t lane_for(Time latency);
  void begin_after(uint32_t lane, Time latency, uint32_t slot);
  void drain_lane(uint32_t lane);
  void begin(uint32_t slot);
  double dispatch_wait(const Activity& a) const;
  int pool_sms(GpuId gpu, PartitionId partition) const;
  void complete(uint32_t slot);
  void request_solve() {
    if (solve_pending_) return;
    solve_pending_ = true;
    schedule_solve();
  }
  void schedule_solve();
  void reschedule_completion();
  static uint64_t route_key(int src_node, int dst_node);
  static constexpr uint32_t kOwnRoute = UINT32_MAX - 1;
  uint32_t cached_route(int src_node, int dst_node, int path_index);  // index into routes_
  double copy_bound(int src_node, int dst_node) const;
  void add_copy_hbm(int src_node, int dst_node, std::vector<FlowElement>& elements) const;
  FlowClassId fabric_class(int src_node, int dst_node, Activity& a, Time& latency);
  const std::vector<uint32_t>& directions_of(const Activity& a) const {
    return a.route == kOwnRoute ? a.own_directions : routes_[a.route].directions;
  }
  int endpoint_node(Endpoint e) const;
  void check_gpu(GpuId gpu) const;
  std::unique_ptr<ActivityRecord> new_record(ActivityKind kind, std::string_view label,
                                             std::string src, std::string dst) const;

  Engine& engine_;
  HardwareSpec spec_;
  ActivityLog* log_;
  std::vector<GpuPartitioning> partitioning_;
  Topology topology_;
  FlowSolver solver_;
  std::vector<ConstraintId> link_capacity_;  // capacity group -> constraint
  std::vector<ConstraintId> copy_out_, copy_in_;  // per GPU; UINT32_MAX when unbounded
  std::vector<GpuState> gpus_;
  std::vector<Partition> partitions_;
  std::unordered_map<uint64_t, uint32_t> route_index_;
  std::vector<CachedRoute> routes_;
  std::vector<Activity> activities_;
  std::vector<uint32_t> free_slots_;
  std::vector<Timer> timers_;
  DispatchWake dispatch_wake_;
  std::vector<LatencyLane> lanes_;
  std::unordered_map<int64_t, uint32_t> lane_index_;  // latency ps -> lane
  std::vector<uint32_t> free_timers_;
  std::unordered_map<AllocationId, std::pair<GpuId, int64_t>> allocations_;
  std::vector<std::unique_ptr<FlowCollective>> collectives_;
  std::vector<uint64_t> completed_scratch_;
  std::vector<FlowElement> class_elements_;  // fabric_class() and cached_route() scratch
  std::unordered_map<ActivityId, std::unique_ptr<ActivityRecord>> collective_records_;
  ActivityId next_activity_id_ = 1;
  AllocationId next_allocation_ = 1;
  uint64_t finished_ = 0;
  uint64_t finished_by_kind_[3] = {0, 0, 0};
  double bytes_copied_ = 0;
  std::vector<LinkUsage> link_usage_;
  Time last_finish_;
  bool solve_pending_ = false;
  Time completion_at_ = Time::max();
  uint64_t completion_generation_ = 0;
};

}  // namespace parallax
