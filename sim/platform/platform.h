// File: sim/platform/platform.h
// The one seam between policies and machines. A policy is written once against Platform and runs
// unchanged on SimPlatform (virtual time, flow-level sharing) or on the CUDA backend (real streams,
// kernels, copies and NCCL). It asks for work and is told when the work is done; it never learns
// which clock drives it.
//
// Completions arrive through CompletionListener::on_complete(tag): a typed interface and a 64-bit
// tag chosen by the caller (ASTRA-sim's network API, minus the void*). Every call that starts work
// returns an ActivityId, unique within the platform.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include <vector>

#include "models/kernel_time.h"
#include "sim/engine/sim_time.h"
#include "sim/platform/hardware_spec.h"

namespace parallax {

using GpuId = int32_t;
using ActivityId = uint64_t;
using PartitionId = int32_t;
inline constexpr PartitionId kWholeGpu = -1;

// Where bytes live: a GPU's memory or a host's memory.
struct Endpoint {
  enum class Kind : uint8_t { gpu, host };
  Kind kind = Kind::gpu;
  int32_t index = 0;
  static constexpr Endpoint gpu(int32_t i) { return {Kind::gpu, i}; }
  static constexpr Endpoint host(int32_t i) { return {Kind::host, i}; }
  friend constexpr bool operator==(Endpoint, Endpoint) = default;
};

class CompletionListener {
 public:
  virtual void on_complete(uint64_t tag) = 0;

 protected:
  ~CompletionListener() = default;
};

// A kernel as the cost model sees it, described by its work or by its time. By work: its duration
// alone on `s` SMs with bandwidth B is the roofline max(flops / (s * flops_per_sm), dram_bytes / B).
// By time (solo_s > 0, flops and dram_bytes 0): a compute kernel that takes solo_s seconds alone
// on the whole GPU, for clients that know a layer's time but not its FLOPs; the platform turns the
// time into the work its machine does at that rate. Either way co-running kernels share SM
// throughput and HBM bandwidth through the platform's max-min sharing.
struct KernelProfile {
  std::string name;
  double flops = 0;
  double dram_bytes = 0;
  int max_sms = 0;    // SMs the grid can occupy at once (0 = all it is given)
  double solo_s = 0;  // > 0: described by time (then flops and dram_bytes must be 0)
  // The lifetime of one of its blocks (one wave on its SMs, models/block_dispatch.h), for the
  // platform's block dispatch: a kernel with block_s > 0 launched onto SMs that another such
  // kernel's blocks hold waits for them to retire (no preemption). 0: blocks not described; the
  // kernel neither waits nor makes others wait.
  double block_s = 0;
  // The work was derived from a measured or fitted kernel time that already includes the launch
  // (the overlap runner's GEMM curves, models/gemm_cost.h's overhead_s): no launch delay, as for
  // a kernel described by time. False: the kernel model's work, which pays the GPU's
  // kernel_launch_s before it starts.
  bool launch_included = false;
};

// One shared resource a path crosses: a link direction (one capacity for both directions of a
// half-duplex link) or, at a GPU end, that GPU's copy engines of the direction. Paths that name the
// same `resource` contend for it; that is how a policy learns which GPU pairs share what.
struct PathLink {
  uint32_t resource = 0;
  LinkKind kind = LinkKind::other;
  bool copy_engine = false;   // a GPU's copy engines: bandwidth_Bps is one engine's, one copy's bound
  double bandwidth_Bps = 0;   // capacity of the resource
};

// The route bytes take between two endpoints, in order from source to destination, and its
// latency (what a lone copy waits before its bytes move).
struct Path {
  std::vector<PathLink> links;
  Time latency;
  // The smallest bandwidth on the path (copy engines included): a lone copy's rate.
  double bottleneck_Bps() const;
  // True when every link (copy engines aside) is of kind k.
  bool only(LinkKind k) const;
  // True when the two paths cross a common resource.
  bool shares_with(const Path& other) const;
};

struct PartitionSpec {
  int sms = 0;                  // SMs reserved for the partition
  double bandwidth_share = 1.0; // cap on the share of HBM bandwidth, in (0, 1]
  std::string name;
};

enum class CollectiveOp : uint8_t { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send_recv };
// ring: NCCL's ring (broadcast and reduce: the chain along it); tree: NCCL's tree (chains inside
// nodes, a binary tree of nodes; all_reduce, broadcast, reduce); p2p: all_to_all and send_recv;
// hierarchical: intra-node, then per-rail inter-node rings (all_reduce, all_gather, reduce_scatter).
enum class CollectiveAlgo : uint8_t { ring, tree, p2p, hierarchical };

const char* to_string(CollectiveOp op);
const char* to_string(CollectiveAlgo algo);
// The op or algorithm of that name (to_string's inverse), or nullopt.
std::optional<CollectiveOp> collective_op_named(std::string_view name);
std::optional<CollectiveAlgo> collective_algo_named(std::string_view name);
// The algorithm an op runs when none is asked for: p2p for all_to_all and send_recv, else ring.
CollectiveAlgo default_algo(CollectiveOp op);
// Whether SimPlatform runs `op` with `algo`.
bool runs(CollectiveAlgo algo, CollectiveOp op);

// Thrown for requests the machine cannot satisfy (unknown GPU, memory exhausted, illegal partition).
// The message names the GPU and the numbers involved.
class PlatformError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutOfMemoryError : public PlatformError {
 public:
  using PlatformError::PlatformError;
};

struct GpuPartitioning;  // sim/platform/gpu_partitioning.h

// The fraction of peak FLOP/s a kernel reaches at full waves (models/kernel_time.h,
// DeviceRates::eta_compute) when the GPU has no fitted GEMM curve: GemmEfficiency's eta_max default.
inline constexpr double kPlannedComputeEfficiency = 0.75;

// The kernel-time model's rates of one GPU: SMs, peak FLOP/s, HBM, the per-SM bandwidth cap, the
// launch delay, and η_c = the fitted GEMM curve's eta_max (kPlannedComputeEfficiency without one).
// The one place a GpuSpec becomes DeviceRates.
DeviceRates device_rates_of(const GpuSpec& gpu);

// A kernel of models/kernel_time.h as Platform::launch runs it on `sms` SMs (0 = the whole GPU; at
// most its SM need, which becomes max_sms): FLOPs as peak-rate work, F / (η_c·e) · q(s), so the
// platform's SM share reproduces T_comp(s); DRAM bytes as they are. The per-SM bandwidth cap
// min(β·B, s·bw_per_SM) is the platform's to apply (SimPlatform bounds a max_sms grid and a
// partition by it; real hardware does it by itself), not folded into the work. `slowdown` >= 1
// stretches both FLOPs and bytes (a co-runner's cache interference, models/kernel_interference.h).
// block_s = kernel_block_s on s SMs (block dispatch on shared SMs, models/block_dispatch.h).
// The one GpuSpec/KernelShape → KernelProfile path: every runner launches model kernels through it.
KernelProfile kernel_profile(std::string name, const KernelShape& kernel, const DeviceRates& rates, int sms,
                             double slowdown = 1.0);

class Platform {
 public:
  virtual ~Platform() = default;

  virtual Time now() const = 0;
  // on_complete(tag) is called at time `at` (>= now()).
  virtual void call_at(Time at, CompletionListener& listener, uint64_t tag) = 0;

  virtual int gpu_count() const = 0;
  virtual int host_count() const = 0;
  virtual const GpuSpec& gpu(GpuId id) const = 0;

  // What a policy sizes its work on one GPU with: device_rates_of(gpu(id)) and the rules for
  // dividing it (MIG profiles, green-context granularity). partitioning() throws PlatformError
  // when the platform was not told them for that GPU model.
  DeviceRates device_rates(GpuId id) const;
  virtual const GpuPartitioning& partitioning(GpuId id) const = 0;

  // The path between two distinct endpoints (GPU<->GPU, host<->GPU). Throws PlatformError for an
  // unknown endpoint, the same endpoint twice, or a path the platform cannot tell.
  virtual Path path(Endpoint src, Endpoint dst) = 0;
  // Every path a copy between the two endpoints may take, path(src, dst) first; paths after the
  // first share no link with an earlier one (an NVLink-bridged pair: the bridge, then PCIe). The
  // default is path(src, dst) alone, for platforms that route every copy one way.
  virtual std::vector<Path> paths(Endpoint src, Endpoint dst);

  // Copies `bytes` from src to dst (host↔GPU, GPU↔GPU, or within one GPU).
  virtual ActivityId copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener,
                          uint64_t tag, std::string_view label = {}) = 0;
  // copy() along paths(src, dst)[path_index], so that one pair can use NVLink and PCIe at once.
  // The default runs path 0 as copy() and throws PlatformError for any other index.
  virtual ActivityId copy_over(Endpoint src, Endpoint dst, int path_index, Bytes bytes,
                               CompletionListener& listener, uint64_t tag, std::string_view label = {});
  // Runs a kernel on a GPU, or on one of its partitions.
  virtual ActivityId launch(GpuId gpu, PartitionId partition, const KernelProfile& kernel,
                            CompletionListener& listener, uint64_t tag) = 0;
  // A collective over `group` (GPU ids, in ring order; group[0] is the root of broadcast and
  // reduce). `bytes` is nccl-tests' S: the full buffer for all-reduce, broadcast and reduce, the
  // full output for all-gather, the full input for reduce-scatter, what one rank sends for
  // all-to-all (its own share included) and send/recv.
  virtual ActivityId collective(CollectiveOp op, std::span<const GpuId> group, Bytes bytes,
                                CollectiveAlgo algo, CompletionListener& listener, uint64_t tag,
                                std::string_view label = {}) = 0;

  // Device memory. allocate() throws OutOfMemoryError beyond the GPU's capacity.
  using AllocationId = uint64_t;
  virtual AllocationId allocate(GpuId gpu, Bytes bytes) = 0;
  virtual void release(AllocationId allocation) = 0;
  virtual Bytes memory_used(GpuId gpu) const = 0;

  // SM/bandwidth partitions of one GPU (green contexts on hardware).
  virtual PartitionId create_partition(GpuId gpu, const PartitionSpec& spec) = 0;
  virtual void resize_partition(PartitionId partition, const PartitionSpec& spec) = 0;
};

}  // namespace parallax
