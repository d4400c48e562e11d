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
// A kernel of t seconds is launched with flops = t * peak_flops, so that its solo time on the
// platform is t. The client hears when the transfer ends (swap sources can be unlocked) and when
// the job ends.
#pragma once

#include <cstdint>
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
  bool host_loading() const { return busy_ && started_ && job_.source == SwapSource::host && groups_ready_ < groups_.size(); }
  // Host groups that paid the contended overhead, over the executor's life.
  uint64_t contended_groups() const { return contended_groups_; }
  GpuId gpu() const { return gpu_; }
  void on_complete(uint64_t tag) override;

 private:
  enum Tag : uint64_t { kDelayDone = 1, kCopyDone, kGroupReady, kKernelDone };
  void begin();
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
  std::vector<int64_t> groups_;       // bytes per copy
  std::vector<int64_t> layer_group_;  // per layer, -1 = needs none
  size_t groups_sent_ = 0, groups_ready_ = 0, next_layer_ = 0;
  bool kernel_running_ = false;
  bool single_kernel_ = false;        // whole or resident: the model as one kernel
  bool started_ = false;              // past the job's delay
  const SwapExecutor* sibling_ = nullptr;
  uint64_t contended_groups_ = 0;
};

}  // namespace parallax
