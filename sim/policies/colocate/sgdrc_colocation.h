// File: sim/policies/colocate/sgdrc_colocation.h
// SGDRC-like dynamic colocation (REFERENCE.md §6.6): tidal SM masking plus dynamic channel
// colouring, per LS kernel.
//  * Two partitions, LS and BE, re-sized at every LS kernel start: LS takes the TPCs its kernel
//    needs (SM need rounded up to whole TPCs, leaving BE at least one TPC), BE gets the rest.
//  * Bandwidth: LS gets the fewest of C channel colours that cover its kernel's bandwidth demand
//    on those SMs (k = ceil(C · D / (T_comp · B_peak)), 1 <= k <= C - 1), exclusive; BE the other
//    C - k. With no LS request in service, LS shrinks to one TPC and BE gets every colour.
//  * Eviction: the simulator shrinks the BE partition at once (fluid model); on hardware BE blocks
//    drain at the next block boundary, which is below one BE kernel's duration.
#pragma once

#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

class SgdrcColocation final : public ColocationPolicy {
 public:
  std::string name() const override { return "sgdrc"; }
  void setup(Platform& platform, const ColocationGpu& gpu) override;
  KernelPlacement place_ls(Platform& platform, const KernelShape& k) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape& k, const LsView&) override;
  void on_ls_idle(Platform& platform) override;
  int ls_sms() const { return ls_sms_; }
  int ls_colours() const { return ls_colours_; }

 private:
  void resize(Platform& platform, int ls_sms, int ls_colours);

  ColocationGpu gpu_;
  PartitionId ls_ = kWholeGpu, be_ = kWholeGpu;
  int ls_sms_ = 0;
  int ls_colours_ = 0;  // 0 = LS idle, BE holds every colour
};

}  // namespace parallax
