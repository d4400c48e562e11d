// File: sim/policies/colocate/sgdrc_colocation.cpp
#include "sim/policies/colocate/sgdrc_colocation.h"

#include <algorithm>

#include "models/block_dispatch.h"
#include "sim/platform/channel_colouring.h"
#include "sim/platform/green_context_groups.h"

namespace parallax {

void SgdrcColocation::plan(const ColocationTenants& tenants) {
  ls_kernels_.clear();
  for (const ColocationKernel& k : tenants.ls_kernels) ls_kernels_.push_back(k.shape);
  ls_slo_s_ = tenants.ls_slo.to_seconds();
  slo_target_ = tenants.slo_target;
  ls_load_ = tenants.ls_load;
  be_resident_bytes_ = tenants.be_resident_bytes;
  be_kernels_.clear();
  for (const ColocationKernel& k : tenants.be_kernels) be_kernels_.push_back(k.shape);
}

double SgdrcColocation::ls_idle_wait_s(const GpuPartitioning& g, const DeviceRates& d) const {
  // While LS is idle BE runs back to back on all TPCs but LS's one; a request's first kernel
  // waits for the BE kernel in flight when that kernel holds TPCs it takes (counted with the
  // first kernel's TPCs before the allocation caps them: an upper bound).
  if (ls_kernels_.empty()) return 0;
  const int be_free = d.sms - g.sms_per_tpc;
  const int ls_first = std::min(round_to_tpcs(g, ls_kernels_.front().sm_need()), be_free);
  std::vector<double> durations, waits;
  for (const KernelShape& k : be_kernels_) {
    const int sms = std::min(k.sm_need(), be_free);
    durations.push_back(kernel_time_s(k, d, sms, 1.0));
    const bool in_the_way = sms > d.sms - ls_first;
    const double wait = eviction_ == SgdrcEviction::kernel ? durations.back() / 2 : kernel_block_s(k, d, sms);
    waits.push_back(in_the_way ? wait : 0);
  }
  return time_weighted_wait_s(durations, waits);
}

void SgdrcColocation::setup(Platform& platform, const ColocationGpu& gpu) {
  gpu_ = gpu;
  const GpuPartitioning& g = *gpu.partitioning;
  const int tpc = g.sms_per_tpc;
  const LatencyProfile profile = latency_profile(ls_kernels_, gpu.rates, tpc, g.channel_colours);
  idle_wait_s_ = ls_idle_wait_s(g, gpu.rates);
  budget_s_ = largest_service_meeting(ls_load_.rate_per_s, ls_load_.ca2, ls_slo_s_, slo_target_, idle_wait_s_);
  allocation_ = fewest_meeting(profile, budget_s_, profile.tpcs - 1,
                               std::max(1, g.channel_colours - 1));
  ls_max_sms_ = std::min(allocation_.tpcs * tpc, gpu.rates.sms - tpc);
  ls_sms_ = tpc;
  ls_colours_ = 0;
  ls_ = platform.create_partition(gpu.gpu, {tpc, 1.0, "sgdrc-ls"});
  be_ = platform.create_partition(gpu.gpu, {gpu.rates.sms - tpc, 1.0, "sgdrc-be"});
}

void SgdrcColocation::resize(Platform& platform, int ls_sms, int ls_colours) {
  const GpuPartitioning& g = *gpu_.partitioning;
  const double c = g.channel_colours;
  const double ls_bw = ls_colours == 0 ? 1.0 : ls_colours / c;
  const double be_bw = ls_colours == 0 ? 1.0 : (g.channel_colours - ls_colours) / c;
  if (ls_colours > ls_colours_ && be_resident_bytes_ > 0) {
    // BE's pages on the colours LS takes move to BE's other colours (a copy within the GPU).
    const double moved = be_resident_bytes_ * (ls_colours - ls_colours_) / c;
    platform.copy(Endpoint::gpu(gpu_.gpu), Endpoint::gpu(gpu_.gpu), Bytes(static_cast<int64_t>(moved)), *this, 0,
                  "sgdrc colour migration");
    migrated_bytes_ += moved;
  }
  if (ls_colours != ls_colours_) ++colour_changes_;
  // Shrink first so the two never ask for more SMs than the GPU has.
  if (ls_sms > ls_sms_) {
    platform.resize_partition(be_, {gpu_.rates.sms - ls_sms, be_bw, ""});
    platform.resize_partition(ls_, {ls_sms, ls_bw, ""});
  } else {
    platform.resize_partition(ls_, {ls_sms, ls_bw, ""});
    platform.resize_partition(be_, {gpu_.rates.sms - ls_sms, be_bw, ""});
  }
  ls_sms_ = ls_sms;
  ls_colours_ = ls_colours;
}

Time be_block_drain(const KernelShape& be, const DeviceRates& d, int sms) {
  return Time::seconds(kernel_block_s(be, d, sms));
}

double bandwidth_demand(const KernelShape& k, const DeviceRates& d, int sms) {
  if (k.dram_bytes <= 0) return 0;
  const double t_comp = kernel_compute_s(k, d, std::max(1, sms));
  return t_comp > 0 ? std::min(1.0, k.dram_bytes / (t_comp * d.hbm_Bps)) : 1.0;
}

int SgdrcColocation::colours_for(const KernelShape& ls, int ls_sms, const KernelShape* be, int be_sms) const {
  // Once coloured, LS keeps its colours until its queue empties: each colouring moves BE's pages,
  // so it is paid at most once per busy period, not at every memory-bound kernel.
  if (ls_colours_ > 0) return ls_colours_;
  if (be == nullptr) return 0;
  const DeviceRates& d = gpu_.rates;
  return bandwidth_demand(ls, d, ls_sms) + bandwidth_demand(*be, d, be_sms) > 1.0 ? allocation_.colours : 0;
}

KernelPlacement SgdrcColocation::place_ls(Platform& platform, const KernelShape& k, const BeView& be) {
  const GpuPartitioning& g = *gpu_.partitioning;
  const DeviceRates& d = gpu_.rates;
  const int s = std::min(round_to_tpcs(g, k.sm_need()), ls_max_sms_);
  const bool takes_be_tpcs = be.running != nullptr && be.sms > d.sms - s;
  KernelPlacement where{ls_, std::min(k.sm_need(), s)};
  if (takes_be_tpcs && eviction_ == SgdrcEviction::kernel) {
    where.after_be_kernel = true;  // asked again when the BE kernel ends; nothing changes yet
    return where;
  }
  int be_sms = be.sms;
  if (takes_be_tpcs) {
    where.drain = be_block_drain(*be.running, d, be.sms);
    where.be_keeps_sms = d.sms - s;
    be_sms = where.be_keeps_sms;
  }
  resize(platform, s, colours_for(k, where.max_sms, be.running, be_sms));
  return where;
}

std::optional<KernelPlacement> SgdrcColocation::place_be(Platform& platform, const KernelShape& k, const LsView& ls) {
  // While an LS request is in service, BE is masked off the TPCs any of its kernels will need
  // (within the allocation), so only an LS request's first kernel can find BE in its way.
  const GpuPartitioning& g = *gpu_.partitioning;
  const DeviceRates& d = gpu_.rates;
  int ls_hold = ls_sms_;
  if (ls.active) ls_hold = std::max(ls_hold, std::min(round_to_tpcs(g, ls.peak_sm_need), ls_max_sms_));
  const int free_sms = d.sms - ls_hold;
  // Its mask stays with it after the LS request leaves: a BE kernel that would take longer on
  // the TPCs left now than one LS request takes waits for the tide instead of crawling on them.
  if (ls.active && kernel_time_s(k, d, free_sms, 1.0) > std::max(ls.request_solo_s, kernel_time_s(k, d, d.sms, 1.0)))
    return std::nullopt;
  const KernelPlacement where{be_, std::min(k.sm_need(), free_sms)};
  // A BE kernel starting beside a running LS kernel may make them contend: colour LS now.
  if (ls.running != nullptr) {
    const int c = colours_for(*ls.running, std::min(ls.running->sm_need(), ls_sms_), &k, where.max_sms);
    if (c != ls_colours_) resize(platform, ls_sms_, c);
  }
  return where;
}

void SgdrcColocation::on_ls_idle(Platform& platform) { resize(platform, gpu_.partitioning->sms_per_tpc, 0); }

std::vector<std::pair<std::string, double>> SgdrcColocation::stats() const {
  return {{"ls_tpcs", allocation_.tpcs},
          {"ls_colours", allocation_.colours},
          {"ls_profiled_latency_s", allocation_.latency_s},
          {"ls_latency_budget_s", budget_s_},
          {"ls_idle_wait_s", idle_wait_s_},
          {"ls_rate_per_s", ls_load_.rate_per_s},
          {"ls_arrival_ca2", ls_load_.ca2},
          {"allocation_meets_budget", allocation_.meets ? 1.0 : 0.0},
          {"colour_changes", static_cast<double>(colour_changes_)},
          {"migrated_bytes", migrated_bytes_}};
}

}  // namespace parallax
