// File: hw/cuda_platform.h
// The Platform interface on real GPUs. Policies written against Platform run unchanged: they ask
// for copies, kernels, collectives, memory and partitions, and hear back through
// CompletionListener::on_complete(tag), now in real time.
//
// How each call is realised:
//  * now(): wall-clock time since construction (steady clock), as Time.
//  * call_at(): a timer fired by run() at that real time (late by the loop's poll interval).
//  * copy(): cudaMemcpyAsync between scratch buffers on the endpoints (host buffers pinned or
//    pageable as CudaPlatformOptions says; GPU to GPU through cudaMemcpyPeerAsync), on a stream
//    of the copy's direction; the bytes are real, their contents are not.
//  * launch(): the tunable-intensity kernel (hw/kernels.h) with the profile's FLOPs and DRAM
//    bytes; a kernel described by time (solo_s) is that kernel with solo_s x
//    CudaPlatformOptions::kernel_flops_per_s FLOPs (the rate it was measured to reach), so it
//    takes about solo_s alone. max_sms > 0 launches one block per SM on exactly that many SMs. On a partition the
//    kernel runs on the green context's stream, so only on its SMs. Kernels on the whole GPU get
//    separate streams and may co-run; kernels on one partition share its one stream.
//  * collective(): NCCL (single-process communicators) when the group has two or more GPUs.
//  * allocate(): cudaMalloc; cudaErrorMemoryAllocation becomes OutOfMemoryError naming the GPU and
//    the bytes.
//  * path(): what the runtime tells without changing anything (nvidia-smi topo's questions through
//    the CUDA peer attributes): host<->GPU is the GPU's own PCIe link (one resource per direction;
//    which GPUs share a PCIe switch is not probed); GPU<->GPU with peer access is one direct link,
//    NVLink when the pair has native peer atomics, else PCIe; without peer access the copy is
//    staged through the host, over both GPUs' PCIe links. Bandwidths are not probed: 0 = unknown.
//  * partitioning(): the green-context granularity the driver reports (no MIG profiles: the
//    backend never changes a MIG layout); PlatformError when the driver has no green contexts.
//  * create_partition(): a green context cut from the SMs the GPU's earlier partitions left
//    (disjoint). bandwidth_share cannot be enforced on hardware (green contexts select SMs, not
//    HBM bandwidth or L2); it is recorded and ignored (docs/hardware.md).
//  * resize_partition(): every partition of the GPU is cut again, after waiting for the kernels
//    running on the partitions (a green context cannot change size or die under its kernels).
// run() is the event loop: it polls cudaEventQuery for every activity in flight and fires timers,
// calling listeners on the caller's thread, until nothing is pending. Nothing here changes a
// device setting (no cudaDeviceReset, clocks, MIG or compute mode).
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <map>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "hw/green_context.h"
#include "sim/platform/platform.h"

namespace parallax::hw {

struct CudaPlatformOptions {
  bool pinned_host = true;  // host scratch memory: pinned (cudaMallocHost) or pageable
  int host_count = 1;
  // The FLOP/s the intensity kernel reaches on the whole GPU (its measured FP32 rate): how launch()
  // realises a kernel described by time. 0 = unknown: such a launch throws PlatformError.
  double kernel_flops_per_s = 0;
};

class CudaPlatform final : public Platform {
 public:
  // Throws HardwareUnavailable without a GPU.
  explicit CudaPlatform(CudaPlatformOptions options = {});
  ~CudaPlatform() override;
  CudaPlatform(const CudaPlatform&) = delete;
  CudaPlatform& operator=(const CudaPlatform&) = delete;

  Time now() const override;
  void call_at(Time at, CompletionListener& listener, uint64_t tag) override;

  int gpu_count() const override { return static_cast<int>(gpus_.size()); }
  int host_count() const override { return options_.host_count; }
  const GpuSpec& gpu(GpuId id) const override;
  const GpuPartitioning& partitioning(GpuId id) const override;
  Path path(Endpoint src, Endpoint dst) override;

  ActivityId copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener, uint64_t tag,
                  std::string_view label = {}) override;
  ActivityId launch(GpuId gpu, PartitionId partition, const KernelProfile& kernel, CompletionListener& listener,
                    uint64_t tag) override;
  ActivityId collective(CollectiveOp op, std::span<const GpuId> group, Bytes bytes, CollectiveAlgo algo,
                        CompletionListener& listener, uint64_t tag, std::string_view label = {}) override;

  AllocationId allocate(GpuId gpu, Bytes bytes) override;
  void release(AllocationId allocation) override;
  Bytes memory_used(GpuId gpu) const override;

  PartitionId create_partition(GpuId gpu, const PartitionSpec& spec) override;
  void resize_partition(PartitionId partition, const PartitionSpec& spec) override;

  // The event loop: delivers completions and timers until nothing is pending.
  void run();
  // Same, but returns at `until` (platform time) even if work remains; true when work remains.
  bool run_until(Time until);
  size_t in_flight() const { return pending_.size(); }
  // SMs a partition got from the driver (the request rounded to the green-context granularity).
  int partition_sms(PartitionId partition) const;

 private:
  struct StreamSlot {
    cudaStream_t stream = nullptr;
    int in_flight = 0;
    bool owned = true;  // false: a green context's stream (destroyed with the context)
  };
  struct Pending {
    ActivityId id = 0;
    std::vector<std::pair<int, cudaEvent_t>> events;  // (gpu, event) that must all complete
    std::vector<StreamSlot*> slots;
    CompletionListener* listener = nullptr;
    uint64_t tag = 0;
  };
  struct Timer {
    Time at;
    uint64_t seq;
    CompletionListener* listener;
    uint64_t tag;
    bool operator>(const Timer& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Buffer {  // scratch memory that only grows; old ones live until the platform ends
    void* ptr = nullptr;
    size_t bytes = 0;
  };
  using LaneNode = std::map<int, std::vector<StreamSlot>>::node_type;
  struct Gpu {
    GpuSpec spec;
    GpuPartitioning rules;     // green-context granularity as probed
    std::string green_error;   // why there are no green contexts (rules unusable), else empty
    std::map<int, std::vector<StreamSlot>> lanes;  // lane -> streams (see lane ids in the .cpp)
    // Partition lanes a resize replaced while activities on them were still undelivered.
    std::vector<LaneNode> retired_lanes;
    std::vector<cudaEvent_t> free_events;
    Buffer scratch;          // copies: source half and destination half
    Buffer kernel_buffer;    // the intensity kernel's buffer
    std::vector<Buffer> retired;
    std::unique_ptr<GreenContexts> green;
    std::vector<int> partition_sms_asked;  // per green group, in creation order
    int64_t memory_used = 0;
  };
  struct Partition {
    GpuId gpu;
    int group;  // index into the GPU's green groups
    PartitionSpec spec;
  };
  struct Allocation {
    GpuId gpu;
    void* ptr;
    int64_t bytes;
  };

  void check_gpu(GpuId gpu) const;
  void check_host(int host) const;
  PathLink pcie_link(GpuId gpu, bool to_gpu) const;
  StreamSlot& stream_for(GpuId gpu, int lane);
  cudaEvent_t take_event(GpuId gpu);
  void* device_scratch(GpuId gpu, size_t bytes);  // 2*bytes: [src | dst]
  void* host_scratch(int host, size_t bytes);
  ActivityId finish_enqueue(std::vector<std::pair<int, StreamSlot*>> streams, CompletionListener& listener, uint64_t tag);
  bool poll();
  void rebuild_partitions(GpuId gpu);

  CudaPlatformOptions options_;
  std::chrono::steady_clock::time_point start_;
  std::vector<Gpu> gpus_;
  std::vector<Buffer> host_buffers_;
  std::vector<Buffer> retired_host_;
  std::vector<Partition> partitions_;
  std::unordered_map<AllocationId, Allocation> allocations_;
  std::vector<Pending> pending_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::map<std::vector<GpuId>, std::vector<void*>> nccl_comms_;  // ncclComm_t per group member
  ActivityId next_activity_ = 1;
  AllocationId next_allocation_ = 1;
  uint64_t next_timer_seq_ = 0;
};

}  // namespace parallax::hw
