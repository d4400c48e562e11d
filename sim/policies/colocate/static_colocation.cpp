// File: sim/policies/colocate/static_colocation.cpp
#include "sim/policies/colocate/static_colocation.h"

#include <algorithm>

#include "sim/platform/green_context_groups.h"
#include "sim/platform/mps_thread_limit.h"

namespace parallax {

KernelPlacement LsAlone::place_ls(Platform&, const KernelShape& k, const BeView&) {
  return {kWholeGpu, std::min(k.sm_need(), gpu_.rates.sms)};
}

KernelPlacement MpsShare::place_ls(Platform&, const KernelShape& k, const BeView&) {
  return {kWholeGpu, mps_kernel_max_sms(k.sm_need(), gpu_.rates.sms, ls_pct_)};
}

std::optional<KernelPlacement> MpsShare::place_be(Platform&, const KernelShape& k, const LsView&) {
  return KernelPlacement{kWholeGpu, mps_kernel_max_sms(k.sm_need(), gpu_.rates.sms, be_pct_)};
}

void StaticSplit::setup(Platform& platform, const ColocationGpu& gpu) {
  const GpuPartitioning& g = *gpu.partitioning;
  be_sms_ = (g.sms - ls_sms_) / g.green_multiple_sms * g.green_multiple_sms;
  check_green_context_groups(g, {ls_sms_, be_sms_});
  ls_ = platform.create_partition(gpu.gpu, {ls_sms_, 1.0, "ls"});
  be_ = platform.create_partition(gpu.gpu, {be_sms_, 1.0, "be"});
}

KernelPlacement StaticSplit::place_ls(Platform&, const KernelShape& k, const BeView&) { return {ls_, std::min(k.sm_need(), ls_sms_)}; }

std::optional<KernelPlacement> StaticSplit::place_be(Platform&, const KernelShape& k, const LsView&) {
  return KernelPlacement{be_, std::min(k.sm_need(), be_sms_)};
}

void MigSplit::setup(Platform& platform, const ColocationGpu& gpu) {
  instances_ = check_mig_layout(*gpu.partitioning, {ls_want_, be_want_});
  ls_ = platform.create_partition(gpu.gpu, mig_partition_spec(instances_[0], "mig-ls-" + instances_[0].profile));
  be_ = platform.create_partition(gpu.gpu, mig_partition_spec(instances_[1], "mig-be-" + instances_[1].profile));
}

KernelPlacement MigSplit::place_ls(Platform&, const KernelShape& k, const BeView&) {
  return {ls_, std::min(k.sm_need(), instances_[0].sms)};
}

std::optional<KernelPlacement> MigSplit::place_be(Platform&, const KernelShape& k, const LsView&) {
  return KernelPlacement{be_, std::min(k.sm_need(), instances_[1].sms)};
}

}  // namespace parallax
