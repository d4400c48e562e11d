// File: sim/policies/colocate/orion_colocation.cpp
#include "sim/policies/colocate/orion_colocation.h"

#include <algorithm>

namespace parallax {

KernelPlacement OrionColocation::place_ls(Platform&, const KernelShape& k, const BeView&) {
  return {kWholeGpu, std::min(k.sm_need(), gpu_.rates.sms)};
}

std::optional<KernelPlacement> OrionColocation::place_be(Platform&, const KernelShape& k, const LsView& ls) {
  const DeviceRates& d = gpu_.rates;
  const KernelPlacement where{kWholeGpu, std::min(k.sm_need(), d.sms)};
  if (!ls.active) return where;
  if (kernel_time_s(k, d, d.sms, 1.0) < duration_threshold_ * ls.request_solo_s) return where;
  if (ls.running == nullptr) return std::nullopt;
  const int free_sms = d.sms - std::min(ls.running->sm_need(), d.sms);
  if (k.sm_need() <= free_sms && compute_bound(k, d) != compute_bound(*ls.running, d)) return where;
  return std::nullopt;
}

}  // namespace parallax
