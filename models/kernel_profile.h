// File: models/kernel_profile.h
// The offline latency profile SGDRC builds of a latency-sensitive model (REFERENCE.md §6.6): the
// time of one request's kernel sequence on t of the GPU's TPCs with c of its C memory-channel
// colours, for every (t, c), from models/kernel_time.h's T(s, β) with s = t·SMs-per-TPC and
// β = c / C, the kernels run one after another:
//
//   L(t, c) = Σ_k T_k(min(t·tpc, S), c / C)          (each T_k includes the launch delay)
//
// and the allocation SGDRC gives LS: the fewest TPCs that meet a latency budget with some
// colour count, then the fewest colours that meet it with those TPCs.
#pragma once

#include <span>
#include <vector>

#include "models/kernel_time.h"

namespace parallax {

struct LatencyProfile {
  int sms_per_tpc = 1;
  int tpcs = 0;      // the GPU's TPCs (ceil(S / tpc))
  int colours = 1;   // C
  std::vector<double> latency_s;  // L(t, c) at [(t - 1) · colours + (c - 1)]
  double at(int t, int c) const;  // std::out_of_range outside [1, tpcs] x [1, colours]
};

// std::invalid_argument for sms_per_tpc < 1, colours < 1 or d.sms < 1.
LatencyProfile latency_profile(std::span<const KernelShape> kernels, const DeviceRates& d, int sms_per_tpc,
                               int colours);

struct ProfileChoice {
  int tpcs = 0;
  int colours = 0;
  double latency_s = 0;
  bool meets = false;  // false: no (t, c) meets the budget; the choice is then every TPC and colour
};
// The fewest TPCs t with some L(t, c) <= budget (L falls with c, so c = max_colours decides),
// then the fewest colours c <= max_colours with L(t, c) <= budget. max_colours 0 = all C.
ProfileChoice fewest_meeting(const LatencyProfile& p, double budget_s, int max_tpcs = 0, int max_colours = 0);

}  // namespace parallax
