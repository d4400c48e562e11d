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

KernelPlacement SgdrcColocation::place_ls(Platform& platform, const KernelShape& k) {
  const GpuPartitioning& g = *gpu_.partitioning;
  const DeviceRates& d = gpu_.rates;
  const int s = std::min(round_to_tpcs(g, k.sm_need()), d.sms - g.sms_per_tpc);
  const double t_comp = kernel_compute_s(k, d, s);
  const double demand = t_comp > 0 ? k.dram_bytes / (t_comp * d.hbm_Bps) : 1.0;
  const int colours = std::min(colours_for_share(g, demand), g.channel_colours - 1);
  resize(platform, s, colours);
  return {ls_, std::min(k.sm_need(), s)};
}

std::optional<KernelPlacement> SgdrcColocation::place_be(Platform&, const KernelShape& k, const LsView&) {
  return KernelPlacement{be_, std::min(k.sm_need(), gpu_.rates.sms - ls_sms_)};
}

void SgdrcColocation::on_ls_idle(Platform& platform) { resize(platform, gpu_.partitioning->sms_per_tpc, 0); }

}  // namespace parallax
