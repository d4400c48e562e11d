// File: sim/policies/colocate/colocation_node.h
// One GPU shared by an LS inference service and a BE job under a ColocationPolicy, on any
// Platform. LS requests (one batch each) arrive at given times, wait FIFO and run one at a time as
// their kernel sequence; the BE job runs its kernel sequence in a closed loop (one pass = one work
// unit) until `be_stop`, one kernel at a time, whenever the policy admits it. Each launch carries
// the kernel model's wave quantisation and tile efficiency for the SMs it is given, built by
// kernel_profile() (sim/platform/platform.h) with, where the policy leaves L2/DRAM shared at that
// moment and the other tenant has a kernel running, the interference factor α (models/kernel_interference.h) as
// its slowdown. The per-SM bandwidth cap (a grid on s SMs moves at most s·bw_per_SM bytes/s) is the
// platform's: SimPlatform bounds the kernel's DRAM rate by it, and HBM it leaves goes to the other tenant. An LS kernel the policy holds back (BE eviction at a kernel or
// block boundary) waits before its launch. Metrics: docs/colocate.md.
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <vector>

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

// One launched kernel, for the timeline (kept only with ColocationSetup::record_kernels).
struct ColocationKernelNote {
  ActivityId activity = 0;
  bool ls = false;
  int sms = 0;          // SMs it may occupy (max_sms)
  double solo_s = 0;    // isolated time on the whole GPU, its SM need, all bandwidth (no launch)
  double alpha = 1;     // interference factor applied at launch
  double wait_s = 0;    // LS: time held back by BE eviction before the launch
};

// One kernel from launch to finish (kept with ColocationSetup::record_spans: the report's SM and
// bandwidth shares over time).
struct ColocationKernelSpan {
  Time start, end;
  bool ls = false;
  int sms = 0;            // SMs it may occupy (max_sms)
  double dram_bytes = 0;  // useful DRAM bytes, as hbm_utilisation counts them
};

struct ColocationSetup {
  ColocationGpu gpu;
  std::vector<ColocationKernel> ls_kernels;   // one LS request
  std::vector<ColocationKernel> be_kernels;   // one BE work unit
  Time ls_slo;
  double slo_target = 0.99;              // ColocationTenants::slo_target
  double be_resident_bytes = 0;          // ColocationTenants::be_resident_bytes
  Time be_stop;                          // BE starts no kernel at or after this time
  InterferenceCoefficients interference;
  bool interference_on = true;
  bool record_kernels = false;           // keep kernel_notes() and request_activities()
  bool record_spans = false;             // keep kernel_spans()
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
  const std::vector<ColocationKernelNote>& kernel_notes() const { return notes_; }
  // Every finished kernel, LS and BE, in finish order (record_spans).
  const std::vector<ColocationKernelSpan>& kernel_spans() const { return spans_; }
  // Per LS request (arrival order): its arrival, finish and the activity ids of its kernels.
  const std::vector<std::vector<ActivityId>>& request_activities() const { return request_activities_; }
  std::span<const Time> arrivals() const { return arrivals_; }
  std::span<const double> finish_s() const { return finish_s_; }

 private:
  enum class Tag : uint64_t { arrival = 0, ls_kernel = 1, be_kernel = 2, ls_drained = 3 };
  void on_complete(uint64_t tag) override;
  void start_next_ls();
  void launch_ls();
  void try_be();
  void launch_placed_ls();
  ActivityId launch(const ColocationKernel& k, const KernelPlacement& where, const KernelShape* other, uint64_t tag,
                    bool ls, double wait_s);

  Platform& platform_;
  ColocationPolicy& policy_;
  ColocationSetup setup_;
  std::vector<Time> arrivals_;
  size_t next_arrival_ = 0;
  std::deque<size_t> ls_queue_;
  bool ls_busy_ = false;
  size_t ls_request_ = 0;
  size_t ls_kernel_ = 0;
  bool ls_kernel_running_ = false;   // placed (possibly waiting for a drain) or running
  bool ls_waiting_for_be_ = false;   // placed after_be_kernel: placed again when BE's kernel ends
  KernelPlacement ls_placed_;        // the LS kernel waiting for its drain
  Time ls_asked_;                    // when the current LS kernel was first placed
  std::vector<double> finish_s_;  // per request; < 0 = not finished
  size_t be_kernel_ = 0;
  bool be_running_ = false;
  int be_sms_ = 0;  // SMs of the BE kernel in flight
  int64_t be_done_ = 0;
  double ls_solo_s_ = 0;
  int ls_peak_sm_need_ = 0;
  double useful_flops_ = 0, bytes_ = 0;
  Time last_finish_;
  Time be_last_finish_;
  std::vector<ColocationKernelNote> notes_;
  std::vector<ColocationKernelSpan> spans_;
  ColocationKernelSpan open_span_[2];  // the kernel in flight, [0] BE, [1] LS (one each at most)
  void close_span(bool ls, Time now);
  std::vector<std::vector<ActivityId>> request_activities_;
};

}  // namespace parallax
