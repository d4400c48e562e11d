// File: sim/policies/colocate/temporal_colocation.h
// Temporal multiplexing, SGDRC's third baseline (REFERENCE.md §6.6; missile's
// temporal_multiplexing_scheduler): the GPU serves one tenant at a time. BE kernels run only while
// no LS request is in service; an arriving LS request waits for the BE kernel in flight to end
// (kernel-boundary eviction, no device-side flag), then runs alone on the whole GPU; BE resumes
// when the LS queue is empty. LS latency is solo latency plus at most one BE kernel.
#pragma once

#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

class TemporalColocation final : public ColocationPolicy {
 public:
  std::string name() const override { return "temporal"; }
  void setup(Platform&, const ColocationGpu& gpu) override { gpu_ = gpu; }
  KernelPlacement place_ls(Platform&, const KernelShape& k, const BeView& be) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape& k, const LsView& ls) override;

 private:
  ColocationGpu gpu_;
};

}  // namespace parallax
