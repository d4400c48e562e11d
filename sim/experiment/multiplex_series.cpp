// File: sim/experiment/multiplex_series.cpp
#include "sim/experiment/multiplex_series.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/report/time_bins.h"

namespace parallax {

std::string multiplex_timeline_rows(const std::string& policy, std::span<const std::string> services,
                                    std::span<const MultiplexKernelSpan> spans, double window_s, double bin_s,
                                    double compute_flops_per_s, double hbm_Bps) {
  size_t count = time_bin_count(window_s, bin_s);
  // A window that is a whole number of bins can round up to one bin more, of no width.
  if (count > 1 && static_cast<double>(count - 1) * bin_s >= window_s * (1 - 1e-12)) --count;
  std::vector<std::vector<double>> flops(services.size(), std::vector<double>(count, 0.0));
  std::vector<std::vector<double>> bytes(services.size(), std::vector<double>(count, 0.0));
  for (const MultiplexKernelSpan& k : spans) {
    const double from = k.start.to_seconds(), to = k.end.to_seconds();
    if (to <= from) continue;  // no time to spread over (the kernel model never gives one)
    const auto s = static_cast<size_t>(k.service);
    add_over_interval(flops.at(s), bin_s, from, to, k.useful_flops / (to - from));
    add_over_interval(bytes.at(s), bin_s, from, to, k.dram_bytes / (to - from));
  }
  std::string out;
  for (size_t i = 0; i < count; ++i) {
    const double start = static_cast<double>(i) * bin_s;
    const double end = i + 1 == count ? window_s : start + bin_s;
    const double width = end - start;
    // Bin edges to 12 significant digits (sub-ps for windows under a second): the last bin ends
    // at the window itself, which 9 digits could miss by more than 1e-9 of it.
    for (size_t s = 0; s < services.size(); ++s)
      out += fmt::format("{},{},{:.12g},{:.12g},{:.6f},{:.6f}\n", policy, services[s], start, end,
                         width > 0 ? flops[s][i] / (compute_flops_per_s * width) : 0.0,
                         width > 0 ? bytes[s][i] / (hbm_Bps * width) : 0.0);
  }
  return out;
}

}  // namespace parallax
