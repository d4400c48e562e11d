// File: sim/policies/serverless/swap_executor.h
// One executor per GPU (Torpor §4.5: one function executes on a GPU at a time). A job optionally
// swaps the model in, then runs it, on the Platform only:
//  * pipelined: the parameters go in `group_bytes` copies in first-use order, one at a time; after
//    each copy the transfer thread spends `group_overhead` (sync, staging) and marks the group
//    ready; layer i's kernel starts once the group with its last byte is ready and layer i-1 is
//    done (models/swap_cost.h, pipelined_swap_latency_s, is the closed form without contention);
//  * whole: one copy of all the bytes, the overhead once, then the model as one kernel;
//  * resident: the model as one kernel.
// PCIe-switch contention (Torpor Table 3, REFERENCE.md §5.4; the artifact's node_simu.py switches
// both loads to a contended latency, §5.7): a host group that completes while the executor's
// PCIe-switch sibling is itself in a host transfer pays `contended_group_overhead` instead of
// `group_overhead` (the pageable->pinned staging and the sync are shared by the two loads; the
// link itself is shared by the Platform's solver).
// A kernel of t seconds is launched described by its time (KernelProfile::solo_s = t): the
// platform decides what work that is on its GPU. The client hears when the transfer ends (swap sources can be unlocked) and when
// the job ends.
//
// Closed form (job.closed_form): a resident run, or a load whose route (job.route) no other load
// crosses, is computed when the job starts, with the same per-copy and per-kernel arithmetic the
// platform uses for a lone copy or kernel (route latency, then bytes / rate rounded to the
// picosecond; the kernel time rounded likewise, no launch delay for a kernel by time), and ends in two timer events
// (transfer done, job done) instead of one copy and one kernel per group and layer. If another
// load that crosses a link of this one starts while this one's transfer is in flight, the caller
// calls materialise(): the job continues on the platform from where it stands (the group in
// flight is re-issued for its remaining bytes, paying the route latency once more; a kernel in
// flight ends at its computed time). Results equal the platform path's to the picosecond for a
// job that stays alone (swap_executor_test holds them to it). A closed-form load's timeline is
// kept per (model, route, group overhead, pipelining) and shifted to each later start, so a job's
// model and route must not change while the executor lives (the node's never do).
#pragma once

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "sim/platform/platform.h"
#include "sim/policies/serverless/served_model.h"

namespace parallax {

enum class SwapSource : uint8_t { none, host, peer };

struct ExecutorJob {
  const ServedModel* model = nullptr;
  SwapSource source = SwapSource::none;
  int32_t source_index = 0;   // host index or peer GPU
  bool pipelined = true;
  Time group_overhead;
  Time delay;                 // waited before anything (a container cold start)
  double run_s = -1;          // resident run time; < 0 = the model's compute_s
  Time contended_group_overhead;  // host groups while the sibling loads from the host; 0 = group_overhead
  bool closed_form = false;       // compute the job in closed form (a load also needs `route`)
  const RouteCost* route = nullptr;  // the load's route when no other load crosses it
};

class ExecutorClient {
 public:
  virtual void on_transfer_done(GpuId gpu) = 0;
  virtual void on_job_done(GpuId gpu) = 0;

 protected:
  ~ExecutorClient() = default;
};

class SwapExecutor final : public CompletionListener {
 public:
  SwapExecutor(Platform& platform, GpuId gpu, ExecutorClient& client, int64_t group_bytes);
  // Throws std::logic_error when busy.
  void start(const ExecutorJob& job);
  bool busy() const { return busy_; }
  // The executor of the GPU that shares this one's PCIe switch (nullptr = none); not owned.
  void set_pcie_sibling(const SwapExecutor* sibling) { sibling_ = sibling; }
  // True while a host->GPU copy of the current job is in flight or still to be issued.
  bool host_loading() const { return job_.source == SwapSource::host && transferring(); }
  // True while a copy of the current job is in flight or still to be issued (any source).
  bool transferring() const {
    if (!busy_ || !started_ || job_.source == SwapSource::none) return false;
    return closed_ ? transfer_pending_ : groups_ready_ < n_groups_;
  }
  // True while the current job is computed in closed form and its copies still occupy links
  // (strictly after now: a transfer ending now no longer contends).
  bool closed_form_loading() const { return closed_ && transfer_pending_ && ready_.back() > platform_.now(); }
  const ExecutorJob& job() const { return job_; }
  // Moves a closed-form job onto the platform from the present instant (see above).
  void materialise();
  // Jobs that ran in closed form / were materialised, over the executor's life.
  uint64_t closed_form_jobs() const { return closed_form_jobs_; }
  uint64_t materialised_jobs() const { return materialised_jobs_; }
  // Host groups that paid the contended overhead, over the executor's life.
  uint64_t contended_groups() const { return contended_groups_; }
  GpuId gpu() const { return gpu_; }
  void on_complete(uint64_t tag) override;

 private:
  enum Tag : uint64_t { kDelayDone = 1, kCopyDone, kGroupReady, kKernelDone, kClosedTransfer, kClosedDone };
  static constexpr int kTagBits = 8;  // closed-form tags carry the job generation above these
  void begin();
  void begin_closed_form();
  Time kernel_time(double seconds) const;
  // A closed-form load's timeline from its start: per group when it is ready, and when the job
  // ends. It depends on the model, the route, the group overhead and pipelining only, and Time
  // adds exactly, so it is computed once per such load and shifted to each start (a GPU loads the
  // same few models over the same few routes again and again).
  struct LoadShape {
    std::vector<Time> ready;
    Time end;
  };
  const LoadShape& load_shape();
  int64_t group_size(size_t g) const;
  void issue_copy();
  void try_launch();
  void launch(double seconds);
  void maybe_finish();
  Endpoint source() const;

  Platform& platform_;
  GpuId gpu_;
  ExecutorClient& client_;
  int64_t group_bytes_;
  ExecutorJob job_;
  bool busy_ = false;
  int64_t group_bytes_now_ = 0;       // this job's group size (all bytes when loading whole)
  size_t n_groups_ = 0;
  std::vector<int64_t> own_layer_group_;   // when the model carries none
  const std::vector<int64_t>* layer_group_ = nullptr;  // per layer, -1 = needs none
  size_t groups_sent_ = 0, groups_ready_ = 0, next_layer_ = 0;
  // closed form
  bool closed_ = false, transfer_pending_ = false;
  uint64_t generation_ = 0, closed_form_jobs_ = 0, materialised_jobs_ = 0;
  Time start_at_, end_at_;
  std::vector<Time> ready_;                // per group, when it is ready
  std::map<std::tuple<const ServedModel*, const RouteCost*, int64_t, bool>, LoadShape> shapes_;
  bool kernel_running_ = false;
  bool single_kernel_ = false;        // whole or resident: the model as one kernel
  bool started_ = false;              // past the job's delay
  const SwapExecutor* sibling_ = nullptr;
  uint64_t contended_groups_ = 0;
};

}  // namespace parallax
