// File: tests/property/checked_platform.h
// A Platform that forwards every call to a SimPlatform and checks the machine's invariants on the
// way, for property tests: whatever drives it (a random workload, a colocation, multiplex or
// serverless node) sees the same platform, and every violation is a gtest failure.
//
// Checked at every call and callback:
//  * time never decreases from one callback to the next; a timer fires exactly at its time;
//  * every activity (kernel, copy, collective) and timer completes exactly once (check_drained()
//    after the run: nothing outstanding);
//  * partitions: the SMs reserved on a GPU never exceed its SMs, and a request is refused with a
//    PlatformError exactly when it is illegal by the documented rules (SMs <= 0 or beyond the
//    unreserved ones, bandwidth share outside (0, 1], unknown GPU or partition); a refused request
//    changes nothing;
//  * memory: the bytes allocated on a GPU never exceed its capacity; allocate() throws
//    OutOfMemoryError exactly when the request would exceed it, and then leaves memory_used as it
//    was; memory_used always equals the sum of the live allocations;
//  * kernels: none finishes before its roofline lower bound on the most it could use while it ran:
//    launch delay + max(flops / (peak · s / S), dram_bytes / (HBM · share)), s the most SMs its
//    partition (or the GPU's unreserved pool) held during its life, capped by max_sms, share the
//    largest bandwidth share its partition had (1 unpartitioned); a kernel described by time no
//    sooner than launch delay + solo_s · S / s;
//  * capacities: after each call and callback, once the platform has re-solved at that instant,
//    usage(c) <= capacity(c) · (1 + 1e-9) for every flow-solver constraint.
// trace() lists every callback as (activity number, time): two runs of one seed must agree.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"

namespace parallax::property {

class CheckedPlatform final : public Platform, private CompletionListener, private EventHandler {
 public:
  CheckedPlatform(Engine& engine, SimPlatform& inner);

  Time now() const override { return inner_.now(); }
  void call_at(Time at, CompletionListener& listener, uint64_t tag) override;
  int gpu_count() const override { return inner_.gpu_count(); }
  int host_count() const override { return inner_.host_count(); }
  const GpuSpec& gpu(GpuId id) const override { return inner_.gpu(id); }
  const GpuPartitioning& partitioning(GpuId id) const override { return inner_.partitioning(id); }
  Path path(Endpoint src, Endpoint dst) override { return inner_.path(src, dst); }
  std::vector<Path> paths(Endpoint src, Endpoint dst) override { return inner_.paths(src, dst); }
  ActivityId copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener, uint64_t tag,
                  std::string_view label = {}) override;
  ActivityId copy_over(Endpoint src, Endpoint dst, int path_index, Bytes bytes, CompletionListener& listener,
                       uint64_t tag, std::string_view label = {}) override;
  ActivityId launch(GpuId gpu, PartitionId partition, const KernelProfile& kernel, CompletionListener& listener,
                    uint64_t tag) override;
  ActivityId collective(CollectiveOp op, std::span<const GpuId> group, Bytes bytes, CollectiveAlgo algo,
                        CompletionListener& listener, uint64_t tag, std::string_view label = {}) override;
  AllocationId allocate(GpuId gpu, Bytes bytes) override;
  void release(AllocationId allocation) override;
  Bytes memory_used(GpuId gpu) const override { return inner_.memory_used(gpu); }
  PartitionId create_partition(GpuId gpu, const PartitionSpec& spec) override;
  void resize_partition(PartitionId partition, const PartitionSpec& spec) override;

  // After the engine ran dry: every activity and timer completed once, none left in the platform.
  void check_drained() const;

  struct Counts {
    uint64_t kernels = 0, copies = 0, collectives = 0, timers = 0;
    uint64_t kernels_on_partitions = 0, kernels_on_empty_pool = 0;  // launched where no SM was free
    uint64_t partitions_refused = 0, allocations_refused = 0, capacity_checks = 0;
  };
  const Counts& counts() const { return counts_; }
  const std::vector<std::pair<uint64_t, int64_t>>& trace() const { return trace_; }
  int reserved_sms(GpuId gpu) const { return reserved_[static_cast<size_t>(gpu)]; }
  int partition_sms(PartitionId p) const { return partitions_[static_cast<size_t>(p)].sms; }

 private:
  enum class Kind : uint8_t { timer, kernel, copy, collective };
  struct Relay {
    CompletionListener* listener = nullptr;
    uint64_t tag = 0;
    Kind kind = Kind::timer;
    int completions = 0;
    Time issued, due;  // due: timers only
    // Kernels: what bounds their time from below.
    GpuId gpu = 0;
    PartitionId partition = kWholeGpu;
    KernelProfile profile;
    int most_sms = 0;          // the most SMs its pool held since the launch
    double most_share = 0;     // the largest bandwidth share since the launch
  };
  struct PartitionState {
    GpuId gpu;
    int sms;
    double share;
  };

  uint64_t relay(CompletionListener& listener, uint64_t tag, Kind kind);
  void on_complete(uint64_t index) override;
  void handle_event(uint64_t) override;
  void check_after_solve();
  void check_kernel_bound(const Relay& r) const;
  int pool_sms(GpuId gpu, PartitionId partition) const;
  double pool_share(PartitionId partition) const;
  void widen_running_kernels(GpuId gpu);
  bool legal_partition(GpuId gpu, int others_reserved, const PartitionSpec& spec) const;
  void check_partition_accounting(GpuId gpu) const;

  Engine& engine_;
  SimPlatform& inner_;
  std::vector<Relay> relays_;
  std::vector<uint64_t> running_kernels_;
  std::vector<PartitionState> partitions_;
  std::vector<int> reserved_;
  std::vector<int64_t> allocated_;
  std::map<AllocationId, std::pair<GpuId, int64_t>> allocations_;
  std::vector<std::pair<uint64_t, int64_t>> trace_;
  Time last_callback_;
  bool check_pending_ = false;
  Counts counts_;
};

}  // namespace parallax::property
