// File: sim/policies/colocate/orion_colocation.h
// Orion-like colocation (REFERENCE.md §6.4; eth-easl/orion scheduler_eval.cpp, and SGDRC's
// re-implementation in missile spatial_multiplexing_scheduler.cpp). Both tenants run on the whole
// GPU (no partitions). While no LS request is in service a BE kernel always starts. While one is,
// a BE kernel starts only if
//   (its SM need <= SMs - the running LS kernel's SM need, and its roofline class, compute- or
//    memory-bound, differs from the LS kernel's)
//   or its isolated time is < 2.5 % of the LS request's isolated time (DUR_THRESHOLD = 0.025).
// Otherwise it waits for the next LS kernel boundary. Orion cannot preempt: a BE kernel already
// running keeps its SMs.
#pragma once

#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

class OrionColocation final : public ColocationPolicy {
 public:
  explicit OrionColocation(double duration_threshold = 0.025) : duration_threshold_(duration_threshold) {}
  std::string name() const override { return "orion"; }
  void setup(Platform&, const ColocationGpu& gpu) override { gpu_ = gpu; }
  KernelPlacement place_ls(Platform&, const KernelShape& k, const BeView&) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape& k, const LsView& ls) override;

 private:
  double duration_threshold_;
  ColocationGpu gpu_;
};

}  // namespace parallax
