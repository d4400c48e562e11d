// File: sim/policies/multiplex/multiplex_policy.h
// How a multiplexing policy divides one GPU among several batched inference services: it sets up
// partitions on the Platform, says where each service's kernels run now (its share), whether a
// service may start a batch now, and hears when batches start and end. MultiplexNode drives it;
// the policies (timeslice, mps, mig, elastic: multiplex_presets.h) speak only to Platform.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "models/op_kernels.h"
#include "models/kernel_time.h"
#include "sim/platform/gpu_partitioning.h"
#include "sim/platform/platform.h"
#include "sim/policies/multiplex/service_batcher.h"

namespace parallax {

// One service as policies and the node see it.
struct ServiceModel {
  std::string name;
  // kernels_by_batch[n] = one batch of n (n = 1..max_batch; [0] is empty).
  std::vector<std::vector<OpKernel>> kernels_by_batch;
  double rate_per_s = 0;  // mean offered load
  // The rate a MIG layout is sized for (mig_layout_search.h); 0 = rate_per_s. Set to a peak rate
  // under `mig_sizing: peak` (peak_rate.h).
  double sizing_rate_per_s = 0;
  BatcherConfig batcher;
  // Device memory the service needs at least (its weights; 0 = not checked): a MIG instance with
  // less memory cannot host it (mig_layout_search.h).
  double memory_bytes = 0;
};

struct MultiplexGpu {
  GpuId gpu = 0;
  DeviceRates rates;
  const GpuPartitioning* partitioning = nullptr;
};

// Where a service's next kernel runs: a partition (or the whole GPU), the SMs a kernel may occupy
// at once (0 = the whole GPU) and the bandwidth share it is capped at (for the latency estimate;
// a partition enforces it on the platform).
struct ServiceShare {
  PartitionId partition = kWholeGpu;
  int sms = 0;
  double bandwidth_share = 1.0;
};

class MultiplexPolicy {
 public:
  virtual ~MultiplexPolicy() = default;
  virtual std::string name() const = 0;
  virtual void setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) = 0;
  // The share the batcher plans with (guaranteed quota; the actual share may be larger).
  virtual ServiceShare nominal_share(int service) const = 0;
  // The share for the service's next kernel.
  virtual ServiceShare share(int service) const { return nominal_share(service); }
  // The share the service's next batch is sized on (adaptive batch, service_batcher.h): the
  // nominal share for static policies; elastic, what the service would hold if it started now.
  virtual ServiceShare planning_share(int service) const { return nominal_share(service); }
  // The earliest time the service's next kernel may launch: a resize of its partition in progress
  // (elastic with a resize cost) holds its launches until then.
  virtual Time launch_ready_at(int /*service*/) const { return Time::zero(); }
  // running[i]: service i has a batch in flight.
  virtual bool may_start(int /*service*/, const std::vector<bool>& /*running*/) const { return true; }
  // A request of the service arrived (before the node tries to start a batch).
  virtual void on_arrival(Platform& /*platform*/, int /*service*/) {}
  virtual void on_batch_start(Platform& /*platform*/, int /*service*/, int /*batch*/) {}
  virtual void on_batch_end(Platform& /*platform*/, int /*service*/) {}
  // Before the service's kernel `kernel` of its batch in flight is first offered for launch;
  // `deadline` = the oldest request of the batch's arrival + SLO (elastic's slack, per kernel).
  virtual void on_kernel(Platform& /*platform*/, int /*service*/, size_t /*kernel*/, Time /*deadline*/) {}
};

}  // namespace parallax
