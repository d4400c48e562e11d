// File: sim/policies/colocate/sgdrc_colocation.h
// SGDRC-like dynamic colocation (REFERENCE.md §6.6): tidal TPC masking plus dynamic channel
// colouring, sized by an offline profile of the LS model.
//  * Offline (plan + setup): the LS request's latency on t TPCs with c of the C channel colours,
//    for every (t, c) (models/kernel_profile.h, the same kernel model the run uses). LS's
//    allocation is the fewest TPCs, then the fewest colours, whose latency L(t, c) still meets the
//    SLO for `slo_target` of the requests once queueing at the LS load is counted: requests are
//    served one at a time in L, so L may be at most the largest service time D with
//    P(W + D <= SLO) >= slo_target for a G/D/1 queue at the arrivals' rate and burstiness
//    (models/queueing_tail.h: M/D/1, c_a²-scaled). A request that finds LS idle first waits for
//    the BE kernel in flight on the TPCs its first kernel takes (eviction, below): the mean of
//    that wait over an arrival instant, E[V] = Σ d_i·w_i / Σ d_i over BE's kernels of duration
//    d_i on the BE partition (w_i = d_i / 2, the residual, at kernel boundaries: E[d²] / (2 E[d]);
//    one wave of blocks at block boundaries), weighted by P(idle) = 1 − λ·L, is taken off the
//    SLO (ls_idle_wait_s). At most all TPCs but one and all colours but one (BE keeps one of
//    each). If none meets it, LS gets that maximum.
//  * Tidal masks, per LS kernel: LS takes the TPCs its kernel can fill (SM need rounded up to
//    whole TPCs) up to its allocation; BE gets the rest at its next launch.
//  * Colours go to LS only while BE contends for bandwidth: when an LS kernel starts (or a BE
//    kernel starts beside one) and the two kernels' bandwidth demands on their SMs add up to more
//    than the HBM (demand = D / (T_comp(s) · B_peak), 1 for a kernel with no compute), LS gets its
//    allocated colours exclusively and BE the other C - c, until the LS queue empties (on_ls_idle);
//    otherwise both tenants use every channel (and every L2 slice: the interference term applies
//    to kernels launched then) and HBM is shared by the flow solver's max-min water-filling.
//  * Colour changes move memory capacity: a colour given to LS is taken from BE, whose pages
//    there (its resident bytes x colours / C) are copied to its remaining colours, a device copy
//    that loads HBM like any other (bimodal tensors: LS's tensors keep a copy in its colours and
//    one interleaved over all channels, so LS itself never migrates; BE's have one copy). Giving
//    the colours back moves nothing: BE's pages stay where they are.
//  * A BE kernel is launched on the TPCs LS does not hold at that moment (its mask is fixed at
//    launch, as libsmctrl's next-launch mask is); while an LS request is in service that excludes
//    the TPCs of the request's largest kernel within the allocation, so only a request's first
//    kernel can find BE in its way. A BE kernel that would take longer on those TPCs than one LS
//    request (or than itself on the whole GPU) waits for the LS queue to empty, since its mask
//    would keep it there after the tide returns. When an LS kernel needs TPCs the running BE
//    kernel holds, BE is evicted at
//      - kernel boundaries (SgdrcEviction::kernel, the default): the LS kernel waits for the BE
//        kernel to end, then takes its TPCs; the delay is below one BE kernel's duration;
//      - block boundaries (SgdrcEviction::block): a device-side flag stops BE blocks from starting;
//        the LS kernel waits for the BE blocks in flight to finish (one wave of the BE kernel on its
//        SMs, `be_block_drain`), while the rest of the BE kernel continues on the smaller BE
//        partition (no work is lost: blocks are independent).
#pragma once

#include <vector>

#include "models/kernel_profile.h"
#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

enum class SgdrcEviction { kernel, block };

// The time one wave of BE blocks takes on `sms` SMs (kernel_block_s): a block-boundary eviction
// waits this long, for all the blocks in flight on the TPCs LS takes.
Time be_block_drain(const KernelShape& be, const DeviceRates& d, int sms);

// A kernel's bandwidth demand on s SMs as a fraction of the HBM: D / (T_comp(s) · B_peak), at
// most 1 (1 for a kernel with bytes and no compute, 0 for one with no bytes).
double bandwidth_demand(const KernelShape& k, const DeviceRates& d, int sms);

class SgdrcColocation final : public ColocationPolicy, private CompletionListener {
 public:
  explicit SgdrcColocation(SgdrcEviction eviction = SgdrcEviction::kernel) : eviction_(eviction) {}
  std::string name() const override { return "sgdrc"; }
  void plan(const ColocationTenants& tenants) override;
  void setup(Platform& platform, const ColocationGpu& gpu) override;
  KernelPlacement place_ls(Platform& platform, const KernelShape& k, const BeView& be) override;
  std::optional<KernelPlacement> place_be(Platform& platform, const KernelShape& k, const LsView& ls) override;
  void on_ls_idle(Platform& platform) override;
  // Colours select DRAM channels and, with them, the L2 slices in front of them, so while LS holds
  // exclusive colours the tenants share neither (FGPU: page colouring isolates L2 evictions as well
  // as DRAM queueing, "near perfect"; its GTX 1070 hash makes the memory-module index the L2 set
  // index's low bits; REFERENCE §6.7). The offline profile (LS alone on its colours) is then exact.
  bool shares_memory_system() const override { return ls_colours_ == 0; }
  std::vector<std::pair<std::string, double>> stats() const override;
  int ls_sms() const { return ls_sms_; }
  int ls_colours() const { return ls_colours_; }  // 0 = no colouring: both tenants on every channel
  const ProfileChoice& allocation() const { return allocation_; }
  double latency_budget_s() const { return budget_s_; }  // the largest L(t, c) the SLO allows
  double migrated_bytes() const { return migrated_bytes_; }

 private:
  void on_complete(uint64_t) override {}  // a migration copy: nothing waits for it
  void resize(Platform& platform, int ls_sms, int ls_colours);
  int colours_for(const KernelShape& ls, int ls_sms, const KernelShape* be, int be_sms) const;
  double ls_idle_wait_s(const GpuPartitioning& g, const DeviceRates& d) const;

  SgdrcEviction eviction_;
  double slo_target_ = 0.99;
  ArrivalLoad ls_load_;
  double budget_s_ = 0;
  double idle_wait_s_ = 0;  // E[V]: an idle LS's wait for the BE kernel in flight (header comment)
  ColocationGpu gpu_;
  std::vector<KernelShape> ls_kernels_;
  std::vector<KernelShape> be_kernels_;
  double ls_slo_s_ = 0;
  double be_resident_bytes_ = 0;
  ProfileChoice allocation_;
  int ls_max_sms_ = 0;  // the allocation's TPCs in SMs
  PartitionId ls_ = kWholeGpu, be_ = kWholeGpu;
  int ls_sms_ = 0;
  int ls_colours_ = 0;
  int64_t colour_changes_ = 0;
  double migrated_bytes_ = 0;
};

}  // namespace parallax
