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

// A kernel as the cost model sees it. Its duration alone on `s` SMs with bandwidth B is the
// roofline max(flops / (s * flops_per_sm), dram_bytes / B); co-running kernels share SM throughput
// and HBM bandwidth through the platform's max-min sharing.
struct KernelProfile {
  std::string name;
  double flops = 0;
  double dram_bytes = 0;
  int max_sms = 0;  // SMs the grid can occupy at once (0 = all it is given)
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

class Platform {
 public:
  virtual ~Platform() = default;

  virtual Time now() const = 0;
  // on_complete(tag) is called at time `at` (>= now()).
  virtual void call_at(Time at, CompletionListener& listener, uint64_t tag) = 0;

  virtual int gpu_count() const = 0;
  virtual int host_count() const = 0;
  virtual const GpuSpec& gpu(GpuId id) const = 0;

  // Copies `bytes` from src to dst (host↔GPU, GPU↔GPU, or within one GPU).
  virtual ActivityId copy(Endpoint src, Endpoint dst, Bytes bytes, CompletionListener& listener,
                          uint64_t tag, std::string_view label = {}) = 0;
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
