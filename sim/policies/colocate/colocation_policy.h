// File: sim/policies/colocate/colocation_policy.h
// How a colocation policy divides one GPU between a latency-sensitive (LS) inference service and
// best-effort (BE) work: it creates partitions on the Platform at setup, says where each LS kernel
// runs, and whether (and where) the next BE kernel may start now. ColocationNode drives it; the
// policies (static_colocation.h, orion_colocation.h, sgdrc_colocation.h) speak only to Platform.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "models/kernel_time.h"
#include "models/queueing_tail.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/platform/platform.h"

namespace parallax {

// Where a kernel runs: a partition (or the whole GPU) and the SMs it may occupy at once, and what
// it must wait for first (an LS kernel only): the running BE kernel's end (kernel-boundary
// eviction), or `drain`, the time the BE blocks in flight on the SMs it takes need to finish
// (block-boundary eviction). Either wait is before the platform's own launch latency.
struct KernelPlacement {
  PartitionId partition = kWholeGpu;
  int max_sms = 0;  // cap passed as KernelProfile::max_sms; also the s of wave quantisation
  bool after_be_kernel = false;
  Time drain = Time::zero();
  int be_keeps_sms = 0;  // with a drain: the SMs the evicted BE kernel goes on with
};

// What the BE admission rule may look at.
struct LsView {
  bool active = false;                      // an LS request is being served
  const KernelShape* running = nullptr;     // the LS kernel in flight (nullptr between kernels)
  double request_solo_s = 0;                // the LS request's isolated time
  int peak_sm_need = 0;                     // the largest SM need among the LS request's kernels
                                            // (known from offline profiling)
};

// The BE kernel in flight, as an LS placement may look at it.
struct BeView {
  const KernelShape* running = nullptr;  // nullptr when no BE kernel is in flight
  int sms = 0;                           // the SMs (whole TPCs) it was launched on
};

// One kernel of an LS request or a BE work unit (colocation_kernels.h makes them from a model).
struct ColocationKernel {
  std::string name;
  KernelShape shape;
};

// What a policy may know of its tenants offline, before setup (SGDRC profiles the LS model).
struct ColocationTenants {
  std::span<const ColocationKernel> ls_kernels;  // one LS request
  Time ls_slo;
  double slo_target = 0.99;  // the share of LS requests that must meet ls_slo
  ArrivalLoad ls_load;       // the LS arrivals' rate and burstiness (models/queueing_tail.h)
  double be_resident_bytes = 0;  // BE's tensors in HBM (what a channel colour taken from BE moves)
  std::span<const ColocationKernel> be_kernels;  // one BE work unit
};

struct ColocationGpu {
  GpuId gpu = 0;
  DeviceRates rates;
  const GpuPartitioning* partitioning = nullptr;
};

class ColocationPolicy {
 public:
  virtual ~ColocationPolicy() = default;
  virtual std::string name() const = 0;
  virtual void plan(const ColocationTenants&) {}  // called before setup
  virtual void setup(Platform& platform, const ColocationGpu& gpu) = 0;
  virtual bool runs_be() const { return true; }
  // Whether LS and BE share L2 and DRAM channels at this moment, asked at every launch: false
  // while they are isolated (MIG always; SGDRC while LS holds exclusive colours), and then a
  // kernel launched beside the other tenant takes no interference term.
  virtual bool shares_memory_system() const { return true; }
  virtual KernelPlacement place_ls(Platform& platform, const KernelShape& kernel, const BeView& be) = 0;
  // nullopt: the BE kernel waits; it is asked again at the next LS kernel start or end.
  virtual std::optional<KernelPlacement> place_be(Platform& platform, const KernelShape& kernel, const LsView& ls) = 0;
  // The LS service has no request left to serve.
  virtual void on_ls_idle(Platform&) {}
  // Figures of the run the policy keeps (summary.json's policies.<name>.policy), name and value.
  virtual std::vector<std::pair<std::string, double>> stats() const { return {}; }
};

}  // namespace parallax
