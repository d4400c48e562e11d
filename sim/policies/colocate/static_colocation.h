// File: sim/policies/colocate/static_colocation.h
// The fixed ways to share a GPU (REFERENCE.md §6.2, §6.8):
//  * LsAlone: the LS service by itself, the reference for its latency; BE never runs.
//  * MpsShare: both tenants on the whole GPU, each kernel limited to its grid's SM need and the
//    tenant's MPS active-thread percentage (a limit, not a reservation): SMs and HBM are shared
//    by max-min; this is MPS's default when both percentages are 100.
//  * StaticSplit: two green-context SM groups (granularity checked), LS and BE; HBM and L2 stay
//    shared (green contexts do not partition bandwidth).
//  * MigSplit: two MIG instances (layout checked): SMs, bandwidth share (memory slices / 8) and L2
//    isolated.
#pragma once

#include <vector>

#include "sim/platform/mig_layout.h"
#include "sim/policies/colocate/colocation_policy.h"

namespace parallax {

class LsAlone final : public ColocationPolicy {
 public:
  std::string name() const override { return "ls_alone"; }
  void setup(Platform&, const ColocationGpu& gpu) override { gpu_ = gpu; }
  bool runs_be() const override { return false; }
  KernelPlacement place_ls(Platform&, const KernelShape& k, const BeView&) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape&, const LsView&) override { return std::nullopt; }

 private:
  ColocationGpu gpu_;
};

class MpsShare final : public ColocationPolicy {
 public:
  MpsShare(double ls_percentage, double be_percentage) : ls_pct_(ls_percentage), be_pct_(be_percentage) {}
  std::string name() const override { return "mps"; }
  void setup(Platform&, const ColocationGpu& gpu) override { gpu_ = gpu; }
  KernelPlacement place_ls(Platform&, const KernelShape& k, const BeView&) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape& k, const LsView&) override;

 private:
  double ls_pct_, be_pct_;
  ColocationGpu gpu_;
};

class StaticSplit final : public ColocationPolicy {
 public:
  explicit StaticSplit(int ls_sms) : ls_sms_(ls_sms) {}
  std::string name() const override { return "static_split"; }
  void setup(Platform& platform, const ColocationGpu& gpu) override;
  KernelPlacement place_ls(Platform&, const KernelShape& k, const BeView&) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape& k, const LsView&) override;
  int ls_sms() const { return ls_sms_; }
  int be_sms() const { return be_sms_; }

 private:
  int ls_sms_, be_sms_ = 0;
  PartitionId ls_ = kWholeGpu, be_ = kWholeGpu;
};

class MigSplit final : public ColocationPolicy {
 public:
  MigSplit(MigPlacement ls, MigPlacement be) : ls_want_(std::move(ls)), be_want_(std::move(be)) {}
  std::string name() const override { return "mig"; }
  void setup(Platform& platform, const ColocationGpu& gpu) override;
  bool shares_memory_system() const override { return false; }
  KernelPlacement place_ls(Platform&, const KernelShape& k, const BeView&) override;
  std::optional<KernelPlacement> place_be(Platform&, const KernelShape& k, const LsView&) override;

 private:
  MigPlacement ls_want_, be_want_;
  std::vector<MigInstance> instances_;
  PartitionId ls_ = kWholeGpu, be_ = kWholeGpu;
};

}  // namespace parallax
