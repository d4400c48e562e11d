// File: sim/policies/multiplex/multiplex_node.h
// One GPU shared by several batched inference services under a MultiplexPolicy, on any Platform.
// Each service's requests arrive at given times into its ServiceBatcher; when a batch is due
// (service_batcher.h) and the policy lets the service start, the batch runs as its kernel sequence
// at the batch's size, one kernel at a time, each on the policy's current share for the service.
// A service has at most one batch in flight. Each launch carries the kernel model's wave
// quantisation and tile efficiency for the SMs it is given (kernel_profile,
// sim/platform/platform.h); the per-SM bandwidth cap and HBM contention between services are the
// platform's (max-min sharing; no gpulet α here). Metrics: docs/multiplex.md.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <vector>

#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax {

struct ServiceMetrics {
  int64_t arrived = 0;
  int64_t finished = 0;
  int64_t within_slo = 0;
  int64_t batches = 0;
  double throughput_rps = 0;    // finished / window
  double goodput_rps = 0;       // within_slo / window
  double slo_attainment = 0;    // within_slo / arrived
  double mean_batch_fill = 0;   // mean over batches of (batch size / max_batch)
  double mean_batch_size = 0;
  // Instance saturation (docs/multiplex.md): the kernel-time-weighted mean, over every kernel the
  // service ran, of the share of its partition's SM block slots (sm), of its bandwidth share (hbm)
  // and of the busier of the two (instance) that the kernel keeps busy (batch_latency.h).
  double sm_saturation = 0;
  double hbm_saturation = 0;
  double instance_saturation = 0;
  double resize_wait_s = 0;     // Σ time kernel launches waited for a resize of the partition
  double p50_latency_s = 0;
  double p99_latency_s = 0;
  double mean_latency_s = 0;
};

struct MultiplexMetrics {
  std::vector<ServiceMetrics> services;
  double window_s = 0;           // max(duration, last finish)
  double makespan_s = 0;         // last finish
  double sm_utilisation = 0;     // Σ useful FLOPs / (η_c · peak · window)
  double hbm_utilisation = 0;    // Σ DRAM bytes / (peak BW · window)
  double throughput_rps = 0;     // all services
  double goodput_rps = 0;        // all services: within SLO / window
  double slo_attainment = 0;     // all services: within SLO / arrived
  double mean_latency_s = 0;     // all requests of all services
};

// One kernel from launch to finish (kept after record_kernel_spans(): the report's utilisation
// over time, sim/experiment/multiplex_series.h).
struct MultiplexKernelSpan {
  Time start, end;
  int service = 0;
  double useful_flops = 0;  // as sm_utilisation counts them
  double dram_bytes = 0;    // as hbm_utilisation counts them
};

class MultiplexNode final : private CompletionListener {
 public:
  MultiplexNode(Platform& platform, MultiplexPolicy& policy, MultiplexGpu gpu, std::span<const ServiceModel> services,
                Time duration);
  // Sets up the policy and schedules arrivals[i] (sorted) for service i.
  void start(const std::vector<std::vector<Time>>& arrivals);
  // After the engine ran dry. Throws std::logic_error if a request never finished.
  MultiplexMetrics metrics() const;
  // Keep every kernel's span (call before start()).
  void record_kernel_spans() { record_spans_ = true; }
  std::span<const MultiplexKernelSpan> kernel_spans() const { return spans_; }

 private:
  enum class Kind : uint64_t { arrival = 0, due = 1, kernel = 2, launch = 3 };
  struct Service {
    explicit Service(const BatcherConfig& config) : batcher(config) {}
    std::vector<Time> arrivals;
    size_t next_arrival = 0;
    ServiceBatcher batcher;
    // lat(n) for n = 0..max_batch on each planning share met so far, keyed by (SMs, bandwidth
    // share in millionths): static policies have one, elastic a few dozen.
    mutable std::map<std::pair<int, int64_t>, std::vector<double>> latency_by_share;
    bool running = false;
    std::set<Time> timers;                  // pending due-timers (at most one per time)
    std::vector<Time> batch;                // arrival times of the batch in flight
    size_t kernel = 0;
    bool kernel_announced = false;          // policy told of s.kernel (on_kernel) already
    std::vector<double> latencies_s;
    int64_t within_slo = 0;
    int64_t batches = 0;
    double fill_sum = 0;
    double size_sum = 0;
    double kernel_time_s = 0;               // Σ T(s, β) of launched kernels, the saturation weight
    double sm_busy_s = 0, hbm_busy_s = 0, busy_s = 0;  // Σ T·u for sm, hbm and max(sm, hbm)
    Time resize_wait;
    Time kernel_launched;                   // of the kernel in flight
  };

  void on_complete(uint64_t tag) override;
  void try_start_all();
  void try_start(size_t i);
  void launch_next_kernel(size_t i);
  BatchLatencyEstimate estimate(size_t i) const;

  Platform& platform_;
  MultiplexPolicy& policy_;
  MultiplexGpu gpu_;
  std::span<const ServiceModel> models_;
  Time duration_;
  std::vector<Service> services_;
  std::vector<bool> running_;
  double useful_flops_ = 0, bytes_ = 0;
  Time last_finish_;
  bool record_spans_ = false;
  std::vector<MultiplexKernelSpan> spans_;
};

}  // namespace parallax
