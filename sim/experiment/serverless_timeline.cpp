// File: sim/experiment/serverless_timeline.cpp
#include "sim/experiment/serverless_timeline.h"

#include <algorithm>

#include <fmt/format.h>

#include "sim/report/time_bins.h"

namespace parallax {

ServerlessTimelineSamples collect_timeline(std::span<const ServerlessNode* const> nodes) {
  ServerlessTimelineSamples s;
  for (const ServerlessNode* node : nodes) {
    s.loads.insert(s.loads.end(), node->load_samples().begin(), node->load_samples().end());
    for (const std::vector<PoolSample>& gpu : node->pool_samples()) s.pools.push_back(gpu);
  }
  std::stable_sort(s.loads.begin(), s.loads.end(), [](const LoadSample& a, const LoadSample& b) { return a.at < b.at; });
  return s;
}

std::vector<TimelineBin> bin_timeline(const ServerlessTimelineSamples& samples, double horizon_s, double bin_s) {
  const size_t count = time_bin_count(horizon_s, bin_s);
  std::vector<TimelineBin> bins(count);
  for (size_t i = 0; i < count; ++i) bins[i].start_s = static_cast<double>(i) * bin_s;
  for (const LoadSample& l : samples.loads) {
    TimelineBin& b = bins[time_bin_of(l.at.to_seconds(), bin_s, count)];
    if (l.source == SwapSource::peer) {
      ++b.swaps_nvlink;
      b.bytes_nvlink += static_cast<double>(l.bytes);
    } else {
      ++b.swaps_pcie;
      b.bytes_pcie += static_cast<double>(l.bytes);
    }
  }
  // Each pool holds a sample's bytes until its next sample (the last one to the end of the bins).
  std::vector<double> memory(count, 0.0);
  const double end = static_cast<double>(count) * bin_s;
  for (const std::vector<PoolSample>& gpu : samples.pools)
    for (size_t i = 0; i < gpu.size(); ++i)
      add_over_interval(memory, bin_s, gpu[i].at.to_seconds(), i + 1 < gpu.size() ? gpu[i + 1].at.to_seconds() : end,
                        static_cast<double>(gpu[i].used_bytes));
  for (size_t i = 0; i < count; ++i) bins[i].memory_bytes = memory[i] / bin_s;
  return bins;
}

std::string timeline_csv(std::span<const ServerlessTimelineSamples> policies) {
  double horizon = 0;
  for (const ServerlessTimelineSamples& p : policies) {
    horizon = std::max(horizon, p.end_s);
    if (!p.loads.empty()) horizon = std::max(horizon, p.loads.back().at.to_seconds());
  }
  const double bin_s = time_bin_width_s(horizon);
  std::string csv = "policy,start_s,end_s,swaps_pcie,swaps_nvlink,swap_bytes_pcie,swap_bytes_nvlink,gpu_memory_used_bytes\n";
  for (const ServerlessTimelineSamples& p : policies)
    for (const TimelineBin& b : bin_timeline(p, horizon, bin_s))
      csv += fmt::format("{},{:.9g},{:.9g},{},{},{:.0f},{:.0f},{:.0f}\n", p.policy, b.start_s, b.start_s + bin_s, b.swaps_pcie,
                         b.swaps_nvlink, b.bytes_pcie, b.bytes_nvlink, b.memory_bytes);
  return csv;
}

}  // namespace parallax
