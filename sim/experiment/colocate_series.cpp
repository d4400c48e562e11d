// File: sim/experiment/colocate_series.cpp
#include "sim/experiment/colocate_series.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sim/report/time_bins.h"

namespace parallax {

std::string colocate_timeline_rows(const std::string& policy, std::span<const ColocationKernelSpan> spans,
                                   double makespan_s, double bin_s, int sms, double hbm_Bps) {
  const size_t count = time_bin_count(makespan_s, bin_s);
  std::vector<double> sm[2] = {std::vector<double>(count, 0.0), std::vector<double>(count, 0.0)};
  std::vector<double> bytes[2] = {std::vector<double>(count, 0.0), std::vector<double>(count, 0.0)};
  for (const ColocationKernelSpan& k : spans) {
    const double from = k.start.to_seconds(), to = k.end.to_seconds();
    add_over_interval(sm[k.ls], bin_s, from, to, static_cast<double>(k.sms));
    if (to > from) add_over_interval(bytes[k.ls], bin_s, from, to, k.dram_bytes / (to - from));
  }
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    const double start = static_cast<double>(i) * bin_s;
    const double sm_s = bin_s * sms, bw_bytes = bin_s * hbm_Bps;
    out += fmt::format("{},{:.9g},{:.9g},{:.6f},{:.6f},{:.6f},{:.6f}\n", policy, start, start + bin_s, sm[1][i] / sm_s,
                       sm[0][i] / sm_s, bytes[1][i] / bw_bytes, bytes[0][i] / bw_bytes);
  }
  return out;
}

std::string ls_latency_cdf_rows(const std::string& policy, std::vector<double> latencies_s) {
  std::sort(latencies_s.begin(), latencies_s.end());
  const size_t n = latencies_s.size();
  std::string out;
  if (n <= kMaxCdfPoints) {
    for (size_t i = 0; i < n; ++i)
      out += fmt::format("{},{:.6g},{:.9g}\n", policy, static_cast<double>(i + 1) / static_cast<double>(n), latencies_s[i]);
    return out;
  }
  for (size_t k = 1; k <= kMaxCdfPoints; ++k) {
    const double q = static_cast<double>(k) / static_cast<double>(kMaxCdfPoints);
    const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(n)));
    out += fmt::format("{},{:.6g},{:.9g}\n", policy, q, latencies_s[std::clamp<size_t>(rank, 1, n) - 1]);
  }
  return out;
}

}  // namespace parallax
