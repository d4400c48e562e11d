// File: sim/policies/colocate/colocation_node.h
// One GPU shared by an LS inference service and a BE job under a ColocationPolicy, on any
// Platform. LS requests (one batch each) arrive at given times, wait FIFO and run one at a time as
// their kernel sequence; the BE job runs its kernel sequence in a closed loop (one pass = one work
// unit) until `be_stop`, one kernel at a time, whenever the policy admits it. Each launch carries
// the kernel model's wave quantisation for the SMs it is given (models/kernel_time.h) and, where
// the policy leaves L2/DRAM shared and the other tenant has a kernel running, the interference
// factor α (models/kernel_interference.h). Metrics: docs/colocate.md.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

#include "models/inference_kernels.h"
#include "models/kernel_interference.h"
#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

struct ColocationMetrics {
  int64_t ls_arrived = 0;
  int64_t ls_finished = 0;
  double ls_p50_latency_s = 0;
  double ls_p99_latency_s = 0;
  double ls_mean_latency_s = 0;
  double ls_slo_attainment = 0;  // finished within the SLO / arrived
  double be_work_units = 0;      // BE passes, fractional (kernels done / kernels per pass)
  double be_throughput = 0;      // be_work_units / be_stop_s
  int64_t be_kernels = 0;
  double makespan_s = 0;
  double sm_utilisation = 0;     // Σ useful FLOPs / (η_c · peak · makespan)
  double hbm_utilisation = 0;    // Σ DRAM bytes / (peak BW · makespan)
  std::vector<double> ls_latencies_s;  // per request, arrival order
};

struct ColocationSetup {
  ColocationGpu gpu;
  std::vector<NamedKernel> ls_kernels;   // one LS request
  std::vector<NamedKernel> be_kernels;   // one BE work unit
  Time ls_slo;
  Time be_stop;                          // BE starts no kernel at or after this time
  InterferenceCoefficients interference;
  bool interference_on = true;
};

class ColocationNode final : private CompletionListener {
 public:
  ColocationNode(Platform& platform, ColocationPolicy& policy, ColocationSetup setup);
  // Sets up the policy, schedules the arrivals (sorted) and starts BE.
  void start(std::span<const Time> ls_arrivals);
  // After the engine ran dry.
  ColocationMetrics metrics() const;
  // The isolated time of one LS request on the whole GPU (Σ kernel_time_s on all SMs).
  double ls_request_solo_s() const { return ls_solo_s_; }

 private:
  enum class Tag : uint64_t { arrival = 0, ls_kernel = 1, be_kernel = 2 };
  void on_complete(uint64_t tag) override;
  void start_next_ls();
  void launch_ls();
  void try_be();
  ActivityId launch(const NamedKernel& k, const KernelPlacement& where, const KernelShape* other, uint64_t tag);

  Platform& platform_;
  ColocationPolicy& policy_;
  ColocationSetup setup_;
  std::vector<Time> arrivals_;
  size_t next_arrival_ = 0;
  std::deque<size_t> ls_queue_;
  bool ls_busy_ = false;
  size_t ls_request_ = 0;
  size_t ls_kernel_ = 0;
  bool ls_kernel_running_ = false;
  std::vector<double> finish_s_;  // per request; < 0 = not finished
  size_t be_kernel_ = 0;
  bool be_running_ = false;
  int64_t be_done_ = 0;
  double ls_solo_s_ = 0;
  double useful_flops_ = 0, bytes_ = 0;
  Time last_finish_;
  Time be_last_finish_;
};

}  // namespace parallax
