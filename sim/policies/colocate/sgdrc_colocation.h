// File: sim/policies/colocate/sgdrc_colocation.h
// SGDRC-like dynamic colocation (REFERENCE.md §6.6): tidal SM masking plus dynamic channel
// colouring, per LS kernel.
//  * Two partitions, LS and BE, re-sized at every LS kernel start: LS takes the TPCs its kernel
//    needs (SM need rounded up to whole TPCs, leaving BE at least one TPC), BE gets the rest.
//  * Bandwidth: LS gets the fewest of C channel colours that cover its kernel's bandwidth demand
//    on those SMs (k = ceil(C · D / (T_comp · B_peak)), 1 <= k <= C - 1), exclusive; BE the other
//    C - k. With no LS request in service, LS shrinks to one TPC and BE gets every colour.
//  * A BE kernel is launched on the TPCs LS does not hold at that moment (its mask is fixed at
//    launch, as libsmctrl's next-launch mask is); while an LS request is in service that excludes
//    the TPCs of the request's largest kernel (offline profile), so only a request's first kernel
//    can find BE in its way. A BE kernel that would take longer on those TPCs than one LS request
//    (or than itself on the whole GPU) is not launched into them: it waits for the LS queue to
//    empty, since its mask would keep it there after the tide returns. When an LS kernel needs
//    TPCs the running BE
//    kernel holds, BE is evicted at
//      - kernel boundaries (SgdrcEviction::kernel, the default): the LS kernel waits for the BE
//        kernel to end, then takes its TPCs; the delay is below one BE kernel's duration;
//      - block boundaries (SgdrcEviction::block): a device-side flag stops BE blocks from starting;
//        the LS kernel waits for the BE blocks in flight to finish (one wave of the BE kernel on its
//        SMs, `be_block_drain`), while the rest of the BE kernel continues on the smaller BE
//        partition (no work is lost: blocks are independent).
#pragma once

#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

enum class SgdrcEviction { kernel, block };

// The time one wave of BE blocks takes on `sms` SMs: the isolated kernel time there over its
// waves. A block-boundary eviction waits this long.
Time be_block_drain(const KernelShape& be, const DeviceRates& d, int sms);

class SgdrcColocation final : public ColocationPolicy {
 public:
  explicit SgdrcColocation(SgdrcEviction eviction = SgdrcEviction::kernel) : eviction_(eviction) {}
  std::string name() const override { return "sgdrc"; }
  void setup(Platform& platform, const ColocationGpu& gpu) override;
  KernelPlacement place_ls(Platform& platform, const KernelShape& k, const BeView& be) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape& k, const LsView& ls) override;
  void on_ls_idle(Platform& platform) override;
  int ls_sms() const { return ls_sms_; }
  int ls_colours() const { return ls_colours_; }

 private:
  void resize(Platform& platform, int ls_sms, int ls_colours);

  SgdrcEviction eviction_;
  ColocationGpu gpu_;
  PartitionId ls_ = kWholeGpu, be_ = kWholeGpu;
  int ls_sms_ = 0;
  int ls_colours_ = 0;  // 0 = LS idle, BE holds every colour
};

}  // namespace parallax
