// File: sim/policies/colocate/sgdrc_colocation.cpp
#include "sim/policies/colocate/sgdrc_colocation.h"

#include <algorithm>

#include "sim/platform/channel_colouring.h"
#include "sim/platform/green_context_groups.h"

namespace parallax {

void SgdrcColocation::setup(Platform& platform, const ColocationGpu& gpu) {
  gpu_ = gpu;
  const int tpc = gpu.partitioning->sms_per_tpc;
  ls_sms_ = tpc;
  ls_ = platform.create_partition(gpu.gpu, {tpc, 1.0, "sgdrc-ls"});
  be_ = platform.create_partition(gpu.gpu, {gpu.rates.sms - tpc, 1.0, "sgdrc-be"});
}

void SgdrcColocation::resize(Platform& platform, int ls_sms, int ls_colours) {
  const GpuPartitioning& g = *gpu_.partitioning;
  const double c = g.channel_colours;
  const double ls_bw = ls_colours == 0 ? 1.0 / c : ls_colours / c;
  const double be_bw = ls_colours == 0 ? 1.0 : (g.channel_colours - ls_colours) / c;
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
  const int s = std::max(1, std::min(sms, be.sm_need()));
  const double solo = kernel_time_s(be, d, s, 1.0) - d.launch_s;
  return Time::seconds(solo / static_cast<double>(kernel_waves(be, s)));
}

KernelPlacement SgdrcColocation::place_ls(Platform& platform, const KernelShape& k, const BeView& be) {
  const GpuPartitioning& g = *gpu_.partitioning;
  const DeviceRates& d = gpu_.rates;
  const int s = std::min(round_to_tpcs(g, k.sm_need()), d.sms - g.sms_per_tpc);
  const bool takes_be_tpcs = be.running != nullptr && be.sms > d.sms - s;
  KernelPlacement where{ls_, std::min(k.sm_need(), s)};
  if (takes_be_tpcs && eviction_ == SgdrcEviction::kernel) {
    where.after_be_kernel = true;  // asked again when the BE kernel ends; nothing changes yet
    return where;
  }
  if (takes_be_tpcs) {
    where.drain = be_block_drain(*be.running, d, be.sms);
    where.be_keeps_sms = d.sms - s;
  }
  const double t_comp = kernel_compute_s(k, d, s);
  const double demand = t_comp > 0 ? k.dram_bytes / (t_comp * d.hbm_Bps) : 1.0;
  const int colours = std::min(colours_for_share(g, demand), g.channel_colours - 1);
  resize(platform, s, colours);
  return where;
}

std::optional<KernelPlacement> SgdrcColocation::place_be(Platform&, const KernelShape& k, const LsView& ls) {
  // While an LS request is in service, BE is masked off the TPCs any of its kernels will need, so
  // only an LS request's first kernel can find BE in its way.
  const GpuPartitioning& g = *gpu_.partitioning;
  const DeviceRates& d = gpu_.rates;
  int ls_hold = ls_sms_;
  if (ls.active) ls_hold = std::max(ls_hold, std::min(round_to_tpcs(g, ls.peak_sm_need), d.sms - g.sms_per_tpc));
  const int free_sms = d.sms - ls_hold;
  // Its mask stays with it after the LS request leaves: a BE kernel that would take longer on
  // the TPCs left now than one LS request takes waits for the tide instead of crawling on them.
  if (ls.active && kernel_time_s(k, d, free_sms, 1.0) > std::max(ls.request_solo_s, kernel_time_s(k, d, d.sms, 1.0)))
    return std::nullopt;
  return KernelPlacement{be_, std::min(k.sm_need(), free_sms)};
}

void SgdrcColocation::on_ls_idle(Platform& platform) { resize(platform, gpu_.partitioning->sms_per_tpc, 0); }

}  // namespace parallax
