// File: hw/cuda_platform.cpp
#include "hw/cuda_platform.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

#include <fmt/format.h>

#include "hw/cuda_check.h"
#include "hw/device_probe.h"
#include "hw/green_split.h"
#include "hw/intensity_shape.h"
#include "hw/kernels.h"
#include "hw/nccl_api.h"

namespace parallax::hw {

namespace {

// Stream lanes of a GPU. Partition streams are lanes kPartitionLane + group index.
constexpr int kComputeLane = 0, kH2DLane = 1, kD2HLane = 2, kD2DLane = 3, kPeerLane = 4, kCollectiveLane = 5;
constexpr int kPartitionLane = 100;
constexpr size_t kMaxStreamsPerLane = 8;

}  // namespace

CudaPlatform::CudaPlatform(CudaPlatformOptions options)
    : options_(options), start_(std::chrono::steady_clock::now()) {
  const int n = cuda_device_count();
  gpus_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const ProbedDevice d = probe_device(i);
    GpuSpec& s = gpus_[static_cast<size_t>(i)].spec;
    s.model = d.name;
    s.sms = d.sms;
    s.memory_bytes = d.memory_bytes;
    s.hbm_Bps = d.hbm_Bps;
    s.peak_flops = 0;  // not readable from the device
    Gpu& g = gpus_[static_cast<size_t>(i)];
    if (d.green_min_sms > 0)
      g.rules = green_rules(d.name, d.sms, d.green_min_sms, d.green_multiple_sms);
    else
      g.green_error = d.green_error.empty() ? "green contexts unavailable" : d.green_error;
  }
  host_buffers_.resize(static_cast<size_t>(std::max(1, options_.host_count)));
}

CudaPlatform::~CudaPlatform() {
  // Errors are ignored here: destructors do not throw, and the process may be unwinding from one.
  for (size_t i = 0; i < gpus_.size(); ++i) {
    Gpu& g = gpus_[i];
    cudaSetDevice(static_cast<int>(i));
    cudaDeviceSynchronize();
    for (auto& [lane, slots] : g.lanes)
      for (StreamSlot& s : slots)
        if (s.owned) cudaStreamDestroy(s.stream);
    g.green.reset();
    for (cudaEvent_t e : g.free_events) cudaEventDestroy(e);
    for (Buffer* b : {&g.scratch, &g.kernel_buffer}) cudaFree(b->ptr);
    for (Buffer& b : g.retired) cudaFree(b.ptr);
  }
  for (auto& [group, comms] : nccl_comms_)
    for (void* c : comms) nccl_api().comm_destroy(static_cast<ncclComm_t>(c));
  for (Pending& p : pending_)
    for (auto& [gpu, e] : p.events) cudaEventDestroy(e);
  for (auto& [id, a] : allocations_) cudaFree(a.ptr);
  const auto free_host = [this](Buffer& b) {
    if (!b.ptr) return;
    if (options_.pinned_host)
      cudaFreeHost(b.ptr);
    else
      std::free(b.ptr);
  };
  for (Buffer& b : host_buffers_) free_host(b);
  for (Buffer& b : retired_host_) free_host(b);
}

Time CudaPlatform::now() const {
  return Time::ns(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count());
}

void CudaPlatform::call_at(Time at, CompletionListener& listener, uint64_t tag) {
  timers_.push({std::max(at, now()), next_timer_seq_++, &listener, tag});
}

void CudaPlatform::check_gpu(GpuId gpu) const {
  if (gpu < 0 || gpu >= gpu_count())
    throw PlatformError(fmt::format("no GPU {} (this machine has {})", gpu, gpu_count()));
}

const GpuSpec& CudaPlatform::gpu(GpuId id) const {
  check_gpu(id);
  return gpus_[static_cast<size_t>(id)].spec;
}

void CudaPlatform::check_host(int host) const {
  if (host < 0 || host >= host_count())
    throw PlatformError(fmt::format("no host {} (this machine has {})", host, host_count()));
}

const GpuPartitioning& CudaPlatform::partitioning(GpuId id) const {
  check_gpu(id);
  const Gpu& g = gpus_[static_cast<size_t>(id)];
  if (!g.green_error.empty())
    throw PlatformError(fmt::format("GPU {} ('{}') cannot be partitioned: {}", id, g.spec.model, g.green_error));
  return g.rules;
}

// Resources: GPU g's PCIe link is 2g (towards the GPU) and 2g + 1 (from it); a direct peer link
// a -> b is 2G + a*G + b.
PathLink CudaPlatform::pcie_link(GpuId gpu, bool to_gpu) const {
  return {static_cast<uint32_t>(2 * gpu + (to_gpu ? 0 : 1)), LinkKind::pcie, false, 0.0};
}

Path CudaPlatform::path(Endpoint src, Endpoint dst) {
  for (const Endpoint e : {src, dst})
    if (e.kind == Endpoint::Kind::gpu) check_gpu(e.index); else check_host(e.index);
  if (src == dst) throw PlatformError("path from an endpoint to itself");
  if (src.kind == Endpoint::Kind::host && dst.kind == Endpoint::Kind::host)
    throw PlatformError(fmt::format("host {} -> host {}: hosts are not joined on this platform", src.index, dst.index));
  Path p;
  if (src.kind == Endpoint::Kind::host) {
    p.links.push_back(pcie_link(dst.index, true));
    return p;
  }
  if (dst.kind == Endpoint::Kind::host) {
    p.links.push_back(pcie_link(src.index, false));
    return p;
  }
  int peer = 0, atomics = 0;
  PX_CUDA(src.index, cudaDeviceCanAccessPeer(&peer, src.index, dst.index));
  if (peer == 0) {  // staged through the host
    p.links.push_back(pcie_link(src.index, false));
    p.links.push_back(pcie_link(dst.index, true));
    return p;
  }
  PX_CUDA(src.index, cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, src.index, dst.index));
  const auto g = static_cast<uint32_t>(gpu_count());
  p.links.push_back({2 * g + static_cast<uint32_t>(src.index) * g + static_cast<uint32_t>(dst.index),
                     atomics != 0 ? LinkKind::nvlink : LinkKind::pcie, false, 0.0});
  return p;
}

// An idle stream of the lane, else a new one (up to kMaxStreamsPerLane), else the least loaded.
// Pending activities point at slots: a lane's vector reserves its full size when first used, so
// it never reallocates; partition lanes hold only the green context's stream.
CudaPlatform::StreamSlot& CudaPlatform::stream_for(GpuId gpu, int lane) {
  std::vector<StreamSlot>& slots = gpus_[static_cast<size_t>(gpu)].lanes[lane];
  for (StreamSlot& s : slots)
    if (s.in_flight == 0) return s;
  if (lane < kPartitionLane && slots.size() < kMaxStreamsPerLane) {
    if (slots.empty()) slots.reserve(kMaxStreamsPerLane);
    StreamSlot& s = slots.emplace_back();
    PX_CUDA(gpu, cudaSetDevice(gpu));
    PX_CUDA(gpu, cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
    return s;
  }
  if (slots.empty()) throw PlatformError(fmt::format("GPU {}: no stream for lane {}", gpu, lane));
  return *std::min_element(slots.begin(), slots.end(),
                           [](const StreamSlot& a, const StreamSlot& b) { return a.in_flight < b.in_flight; });
}

cudaEvent_t CudaPlatform::take_event(GpuId gpu) {
  Gpu& g = gpus_[static_cast<size_t>(gpu)];
  if (!g.free_events.empty()) {
    cudaEvent_t e = g.free_events.back();
    g.free_events.pop_back();
    return e;
  }
  cudaEvent_t e = nullptr;
  PX_CUDA(gpu, cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
  return e;
}

void* CudaPlatform::device_scratch(GpuId gpu, size_t bytes) {
  Buffer& b = gpus_[static_cast<size_t>(gpu)].scratch;
  if (b.bytes < 2 * bytes) {
    if (b.ptr) gpus_[static_cast<size_t>(gpu)].retired.push_back(b);
    b = {};
    PX_CUDA(gpu, cudaSetDevice(gpu));
    PX_CUDA(gpu, cudaMalloc(&b.ptr, 2 * bytes));
    b.bytes = 2 * bytes;
  }
  return b.ptr;
}

void* CudaPlatform::host_scratch(int host, size_t bytes) {
  if (host < 0 || host >= host_count()) throw PlatformError(fmt::format("no host {} (this machine has {})", host, host_count()));
  Buffer& b = host_buffers_[static_cast<size_t>(host)];
  if (b.bytes < bytes) {
    if (b.ptr) retired_host_.push_back(b);
    b = {};
    if (options_.pinned_host) {
      PX_CUDA(-1, cudaMallocHost(&b.ptr, bytes));
    } else {
      b.ptr = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
      if (!b.ptr) throw OutOfMemoryError(fmt::format("host {}: cannot allocate {} bytes of pageable memory", host, bytes));
    }
    b.bytes = bytes;
  }
  return b.ptr;
}

ActivityId CudaPlatform::finish_enqueue(std::vector<std::pair<int, StreamSlot*>> streams, CompletionListener& listener,
                                        uint64_t tag) {
  Pending p;
  p.id = next_activity_++;
  p.listener = &listener;
  p.tag = tag;
  for (auto [gpu, slot] : streams) {
    cudaEvent_t e = take_event(gpu);
    PX_CUDA(gpu, cudaEventRecord(e, slot->stream));
    p.events.push_back({gpu, e});
    p.slots.push_back(slot);
    ++slot->in_flight;
  }
  pending_.push_back(std::move(p));
  return pending_.back().id;
}

ActivityId CudaPlatform::copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener, uint64_t tag,
                              std::string_view) {
  const size_t n = static_cast<size_t>(std::max<int64_t>(bytes.count(), 0));
  const bool src_gpu = src.kind == Endpoint::Kind::gpu, dst_gpu = dst.kind == Endpoint::Kind::gpu;
  if (!src_gpu && !dst_gpu) throw PlatformError("copy between two hosts: the CUDA platform moves only bytes that touch a GPU");
  if (src_gpu) check_gpu(src.index);
  if (dst_gpu) check_gpu(dst.index);
  if (n == 0) {
    call_at(now(), listener, tag);
    return next_activity_++;
  }
  if (src_gpu && dst_gpu && src.index == dst.index) {
    auto* base = static_cast<char*>(device_scratch(src.index, n));
    StreamSlot& s = stream_for(src.index, kD2DLane);
    PX_CUDA(src.index, cudaMemcpyAsync(base + n, base, n, cudaMemcpyDeviceToDevice, s.stream));
    return finish_enqueue({{src.index, &s}}, listener, tag);
  }
  if (src_gpu && dst_gpu) {
    void* from = device_scratch(src.index, n);
    auto* to = static_cast<char*>(device_scratch(dst.index, n)) + n;
    StreamSlot& s = stream_for(src.index, kPeerLane);
    PX_CUDA(src.index, cudaMemcpyPeerAsync(to, dst.index, from, src.index, n, s.stream));
    return finish_enqueue({{src.index, &s}}, listener, tag);
  }
  const int gpu = src_gpu ? src.index : dst.index;
  void* host = host_scratch(src_gpu ? dst.index : src.index, n);
  void* device = device_scratch(gpu, n);
  StreamSlot& s = stream_for(gpu, src_gpu ? kD2HLane : kH2DLane);
  PX_CUDA(gpu, cudaSetDevice(gpu));
  if (src_gpu)
    PX_CUDA(gpu, cudaMemcpyAsync(host, device, n, cudaMemcpyDeviceToHost, s.stream));
  else
    PX_CUDA(gpu, cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, s.stream));
  return finish_enqueue({{gpu, &s}}, listener, tag);
}

ActivityId CudaPlatform::launch(GpuId gpu, PartitionId partition, const KernelProfile& kernel,
                                CompletionListener& listener, uint64_t tag) {
  check_gpu(gpu);
  Gpu& g = gpus_[static_cast<size_t>(gpu)];
  int lane = kComputeLane, sms = g.spec.sms;
  if (partition != kWholeGpu) {
    if (partition < 0 || partition >= static_cast<PartitionId>(partitions_.size()) ||
        partitions_[static_cast<size_t>(partition)].gpu != gpu)
      throw PlatformError(fmt::format("GPU {} has no partition {}", gpu, partition));
    const Partition& p = partitions_[static_cast<size_t>(partition)];
    lane = kPartitionLane + p.group;
    sms = g.green->groups()[static_cast<size_t>(p.group)].sms;
  }
  PX_CUDA(gpu, cudaSetDevice(gpu));
  if (!g.kernel_buffer.ptr) {
    PX_CUDA(gpu, cudaMalloc(&g.kernel_buffer.ptr, kIntensityBufferBytes));
    g.kernel_buffer.bytes = kIntensityBufferBytes;
  }
  double flops = kernel.flops;
  if (kernel.solo_s > 0) {
    if (kernel.flops > 0 || kernel.dram_bytes > 0)
      throw PlatformError(fmt::format("kernel '{}': a kernel described by time has no flops or dram_bytes", kernel.name));
    if (!(options_.kernel_flops_per_s > 0))
      throw PlatformError(fmt::format("kernel '{}' is described by time ({} s), but the platform was given no "
                                      "kernel_flops_per_s to realise it with",
                                      kernel.name, kernel.solo_s));
    flops = kernel.solo_s * options_.kernel_flops_per_s;
  }
  const bool pinned_sms = kernel.max_sms > 0 && kernel.max_sms < sms;
  if (pinned_sms) prepare_one_block_per_sm(gpu);
  const IntensityShape shape =
      pinned_sms ? intensity_shape(flops, kernel.dram_bytes, kernel.max_sms, 1024, kIntensityBufferBytes)
                 : intensity_shape(flops, kernel.dram_bytes, sms * kBlocksPerSm, kThreadsPerBlock, kIntensityBufferBytes);
  StreamSlot& s = stream_for(gpu, lane);
  launch_intensity(shape, g.kernel_buffer.ptr, pinned_sms, s.stream);
  return finish_enqueue({{gpu, &s}}, listener, tag);
}

ActivityId CudaPlatform::collective(CollectiveOp op, std::span<const GpuId> group, Bytes bytes, CollectiveAlgo,
                                    CompletionListener& listener, uint64_t tag, std::string_view) {
  if (group.size() < 2)
    throw PlatformError(fmt::format("{} needs two or more GPUs, got {}", to_string(op), group.size()));
  // The ops SimPlatform added for issue 18 (all_to_all, broadcast, reduce, send_recv) are not wired
  // to NCCL here yet: refuse them rather than run a reduce-scatter in their place.
  if (op != CollectiveOp::all_reduce && op != CollectiveOp::all_gather && op != CollectiveOp::reduce_scatter)
    throw PlatformError(fmt::format("the CUDA backend runs all_reduce, all_gather and reduce_scatter, not {}", to_string(op)));
  for (GpuId g : group) check_gpu(g);
  const NcclApi& nccl = nccl_api();
  const std::vector<GpuId> key(group.begin(), group.end());
  std::vector<void*>& comms = nccl_comms_[key];
  if (comms.empty()) {
    std::vector<ncclComm_t> c(key.size());
    PX_NCCL(nccl, key.front(), nccl.comm_init_all(c.data(), static_cast<int>(c.size()), key.data()));
    comms.assign(c.begin(), c.end());
  }
  const size_t p = key.size();
  const size_t total = static_cast<size_t>(bytes.count()) / sizeof(float) / p * p;  // floats, a multiple of P
  std::vector<std::pair<int, StreamSlot*>> streams;
  PX_NCCL(nccl, key.front(), nccl.group_start());
  for (size_t r = 0; r < p; ++r) {
    const int dev = key[r];
    auto* buf = static_cast<float*>(device_scratch(dev, total * sizeof(float)));
    StreamSlot& s = stream_for(dev, kCollectiveLane);
    const auto comm = static_cast<ncclComm_t>(comms[r]);
    PX_CUDA(dev, cudaSetDevice(dev));
    if (op == CollectiveOp::all_reduce)
      PX_NCCL(nccl, dev, nccl.all_reduce(buf, buf, total, ncclFloat, ncclSum, comm, s.stream));
    else if (op == CollectiveOp::all_gather)  // in place: each rank's input is its slice of the output
      PX_NCCL(nccl, dev, nccl.all_gather(buf + r * (total / p), buf, total / p, ncclFloat, comm, s.stream));
    else  // reduce_scatter in place: the output is the rank's slice of the input
      PX_NCCL(nccl, dev, nccl.reduce_scatter(buf, buf + r * (total / p), total / p, ncclFloat, ncclSum, comm, s.stream));
    streams.push_back({dev, &s});
  }
  PX_NCCL(nccl, key.front(), nccl.group_end());
  return finish_enqueue(std::move(streams), listener, tag);
}

Platform::AllocationId CudaPlatform::allocate(GpuId gpu, Bytes bytes) {
  check_gpu(gpu);
  void* p = nullptr;
  PX_CUDA(gpu, cudaSetDevice(gpu));
  const cudaError_t e = cudaMalloc(&p, static_cast<size_t>(bytes.count()));
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    cudaGetLastError();
    throw OutOfMemoryError(fmt::format("GPU {} ({}): cannot allocate {} bytes ({} of {} bytes free): cudaMalloc: {}", gpu,
                                       gpus_[static_cast<size_t>(gpu)].spec.model, bytes.count(), free_b, total_b,
                                       cudaGetErrorString(e)));
  }
  check_cuda(e, "cudaMalloc(&p, bytes)", gpu);
  const AllocationId id = next_allocation_++;
  allocations_[id] = {gpu, p, bytes.count()};
  gpus_[static_cast<size_t>(gpu)].memory_used += bytes.count();
  return id;
}

void CudaPlatform::release(AllocationId allocation) {
  const auto it = allocations_.find(allocation);
  if (it == allocations_.end()) throw PlatformError(fmt::format("release of unknown allocation {}", allocation));
  PX_CUDA(it->second.gpu, cudaSetDevice(it->second.gpu));
  PX_CUDA(it->second.gpu, cudaFree(it->second.ptr));
  gpus_[static_cast<size_t>(it->second.gpu)].memory_used -= it->second.bytes;
  allocations_.erase(it);
}

Bytes CudaPlatform::memory_used(GpuId gpu) const {
  check_gpu(gpu);
  return Bytes(gpus_[static_cast<size_t>(gpu)].memory_used);
}

PartitionId CudaPlatform::create_partition(GpuId gpu, const PartitionSpec& spec) {
  check_gpu(gpu);
  Gpu& g = gpus_[static_cast<size_t>(gpu)];
  if (!g.green) g.green = std::make_unique<GreenContexts>(gpu);
  const GreenGroup& group = g.green->append(spec.sms);
  g.partition_sms_asked.push_back(spec.sms);
  const int index = static_cast<int>(g.green->groups().size()) - 1;
  g.lanes[kPartitionLane + index] = {StreamSlot{group.stream, 0, false}};
  partitions_.push_back({gpu, index, spec});
  return static_cast<PartitionId>(partitions_.size() - 1);
}

void CudaPlatform::resize_partition(PartitionId partition, const PartitionSpec& spec) {
  if (partition < 0 || partition >= static_cast<PartitionId>(partitions_.size()))
    throw PlatformError(fmt::format("no partition {}", partition));
  Partition& p = partitions_[static_cast<size_t>(partition)];
  Gpu& g = gpus_[static_cast<size_t>(p.gpu)];
  g.partition_sms_asked[static_cast<size_t>(p.group)] = spec.sms;
  p.spec = spec;
  rebuild_partitions(p.gpu);
}

// Green contexts cannot grow or shrink: every partition of the GPU is cut again, in creation
// order. A green context cannot be destroyed under running kernels, so the resize first waits for
// the partitions' kernels to finish (blocking the event loop: on hardware a re-cut costs the
// running kernels' remaining time; SimPlatform resizes instantly).
void CudaPlatform::rebuild_partitions(GpuId gpu) {
  Gpu& g = gpus_[static_cast<size_t>(gpu)];
  split_green_groups(g.green->rules(), g.partition_sms_asked);  // PartitionRuleError before touching anything
  for (auto& [lane, slots] : g.lanes)
    if (lane >= kPartitionLane)
      for (const StreamSlot& s : slots)
        if (s.in_flight > 0) PX_CUDA(gpu, cudaStreamSynchronize(s.stream));
  // Activities on the old streams are complete but not yet delivered (the next poll does): their
  // slots must outlive the lanes. A map node keeps its element's address when extracted.
  std::erase_if(g.retired_lanes, [](const LaneNode& n) {
    return std::all_of(n.mapped().begin(), n.mapped().end(), [](const StreamSlot& s) { return s.in_flight == 0; });
  });
  for (auto it = g.lanes.begin(); it != g.lanes.end();) {
    const auto next = std::next(it);
    if (it->first >= kPartitionLane) g.retired_lanes.push_back(g.lanes.extract(it));
    it = next;
  }
  const std::vector<GreenGroup>& groups = g.green->split(g.partition_sms_asked, false);
  for (size_t i = 0; i < groups.size(); ++i)
    g.lanes[kPartitionLane + static_cast<int>(i)] = {StreamSlot{groups[i].stream, 0, false}};
}

int CudaPlatform::partition_sms(PartitionId partition) const {
  const Partition& p = partitions_.at(static_cast<size_t>(partition));
  return gpus_[static_cast<size_t>(p.gpu)].green->groups()[static_cast<size_t>(p.group)].sms;
}

bool CudaPlatform::poll() {
  bool fired = false;
  while (!timers_.empty() && timers_.top().at <= now()) {
    const Timer t = timers_.top();
    timers_.pop();
    t.listener->on_complete(t.tag);
    fired = true;
  }
  // Collect first: listeners may start new activities (which append to pending_).
  std::vector<Pending> done;
  for (size_t i = 0; i < pending_.size();) {
    Pending& p = pending_[i];
    bool complete = true;
    for (auto& [gpu, e] : p.events) {
      const cudaError_t q = cudaEventQuery(e);
      if (q == cudaErrorNotReady) {
        complete = false;
        break;
      }
      check_cuda(q, "cudaEventQuery(e)", gpu);
    }
    if (!complete) {
      ++i;
      continue;
    }
    for (auto& [gpu, e] : p.events) gpus_[static_cast<size_t>(gpu)].free_events.push_back(e);
    for (StreamSlot* s : p.slots) --s->in_flight;
    done.push_back(std::move(p));
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i));
  }
  for (const Pending& p : done) p.listener->on_complete(p.tag);
  return fired || !done.empty();
}

void CudaPlatform::run() { run_until(Time::max()); }

bool CudaPlatform::run_until(Time until) {
  while (!pending_.empty() || !timers_.empty()) {
    if (now() >= until) return true;
    if (poll()) continue;
    if (!pending_.empty()) {
      std::this_thread::yield();  // busy-poll: completions are seen within microseconds
    } else {
      // Only timers: sleep until 50 us before the next one, then spin.
      const Time wake = std::min(timers_.top().at, until) - Time::us(50);
      const Time left = wake - now();
      if (left > Time::zero()) std::this_thread::sleep_for(std::chrono::nanoseconds(left.ps() / 1000));
    }
  }
  return false;
}

}  // namespace parallax::hw
