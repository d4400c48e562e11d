// File: sim/experiment/colocate_series.h
// The per-policy series a colocate run writes for its report (docs/colocate.md "Outputs"):
// timeline.csv, the LS and BE tenants' SM and HBM bandwidth shares in fixed-width bins
// (sim/report/time_bins.h; the width comes from the scenario's duration so every policy's bins line
// up, and each policy's bins run to its own makespan), and ls_latency.csv, the LS latency CDF.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "sim/policies/colocate/colocation_node.h"

namespace parallax {

// At most this many CDF points per policy in ls_latency.csv.
inline constexpr size_t kMaxCdfPoints = 1000;
// At most this many timeline bins per run (fewer than time_bins.h's 2000): LS requests come about
// every millisecond and last a fraction of one, so millisecond bins show each request as a spike
// and the page's share plots turn into a solid band; 400 bins (5 ms over the 2 s scenarios) show
// the shares each policy settles at and how they move with bursts.
inline constexpr size_t kColocateTimelineBins = 400;

// timeline.csv rows of one policy (no header): per bin, the SMs each tenant's kernels could occupy
// as a share of `sms`, time-weighted over the bin, and the useful DRAM bytes each tenant moved in
// the bin (a kernel's bytes spread evenly over its run) as a share of `hbm_Bps` x bin width.
std::string colocate_timeline_rows(const std::string& policy, std::span<const ColocationKernelSpan> spans,
                                   double makespan_s, double bin_s, int sms, double hbm_Bps);
inline constexpr const char* kColocateTimelineHeader =
    "policy,start_s,end_s,ls_sm_share,be_sm_share,ls_bandwidth_share,be_bandwidth_share\n";

// ls_latency.csv rows of one policy (no header): "policy,fraction,latency_s", the sorted latencies
// with fraction (i + 1) / n, or, for more than kMaxCdfPoints requests, the nearest-rank latency at
// fractions k / kMaxCdfPoints.
std::string ls_latency_cdf_rows(const std::string& policy, std::vector<double> latencies_s);
inline constexpr const char* kLsLatencyHeader = "policy,fraction,latency_s\n";

}  // namespace parallax
