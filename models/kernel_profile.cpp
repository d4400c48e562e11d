// File: models/kernel_profile.cpp
#include "models/kernel_profile.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace parallax {

double LatencyProfile::at(int t, int c) const {
  if (t < 1 || t > tpcs || c < 1 || c > colours)
    throw std::out_of_range("latency profile: (" + std::to_string(t) + ", " + std::to_string(c) + ") outside it");
  return latency_s[static_cast<size_t>(t - 1) * static_cast<size_t>(colours) + static_cast<size_t>(c - 1)];
}

LatencyProfile latency_profile(std::span<const KernelShape> kernels, const DeviceRates& d, int sms_per_tpc,
                               int colours) {
  if (sms_per_tpc < 1 || colours < 1 || d.sms < 1)
    throw std::invalid_argument("latency profile: sms_per_tpc, colours and sms must be >= 1");
  LatencyProfile p;
  p.sms_per_tpc = sms_per_tpc;
  p.tpcs = (d.sms + sms_per_tpc - 1) / sms_per_tpc;
  p.colours = colours;
  p.latency_s.reserve(static_cast<size_t>(p.tpcs) * static_cast<size_t>(colours));
  for (int t = 1; t <= p.tpcs; ++t) {
    const int s = std::min(t * sms_per_tpc, d.sms);
    for (int c = 1; c <= colours; ++c) {
      double sum = 0;
      for (const KernelShape& k : kernels) sum += kernel_time_s(k, d, s, static_cast<double>(c) / colours);
      p.latency_s.push_back(sum);
    }
  }
  return p;
}

ProfileChoice fewest_meeting(const LatencyProfile& p, double budget_s, int max_tpcs, int max_colours) {
  const int tmax = max_tpcs > 0 ? std::min(max_tpcs, p.tpcs) : p.tpcs;
  const int cmax = max_colours > 0 ? std::min(max_colours, p.colours) : p.colours;
  for (int t = 1; t <= tmax; ++t) {
    if (p.at(t, cmax) > budget_s) continue;
    int c = 1;
    while (p.at(t, c) > budget_s) ++c;
    return {t, c, p.at(t, c), true};
  }
  return {tmax, cmax, p.at(tmax, cmax), false};
}

}  // namespace parallax
