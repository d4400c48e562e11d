// File: sim/policies/colocate/temporal_colocation.cpp
#include "sim/policies/colocate/temporal_colocation.h"

#include <algorithm>

namespace parallax {

KernelPlacement TemporalColocation::place_ls(Platform&, const KernelShape& k, const BeView& be) {
  KernelPlacement where{kWholeGpu, std::min(k.sm_need(), gpu_.rates.sms)};
  where.after_be_kernel = be.running != nullptr;
  return where;
}

std::optional<KernelPlacement> TemporalColocation::place_be(Platform&, const KernelShape& k, const LsView& ls) {
  if (ls.active) return std::nullopt;
  return KernelPlacement{kWholeGpu, std::min(k.sm_need(), gpu_.rates.sms)};
}

}  // namespace parallax
