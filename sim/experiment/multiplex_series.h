// File: sim/experiment/multiplex_series.h
// The per-policy series a multiplex run writes for its report (docs/multiplex.md "Timeline"):
// timeline.csv, each service's SM and HBM utilisation in fixed-width time bins
// (sim/report/time_bins.h, the same binning as colocate's and serverless's timelines). The width
// comes from the scenario's duration, so every policy's bins line up; each policy's bins run to
// its window (max(duration, last finish), as summary.json's utilisations), the last bin ending at
// the window. A kernel's useful FLOPs and DRAM bytes are spread evenly over its run (launch to
// finish), so the time-weighted mean over the bins of a policy's shares, summed over its services,
// is its summary sm_utilisation and hbm_utilisation (tested).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "sim/policies/multiplex/multiplex_node.h"

namespace parallax {

// At most this many timeline bins per run, as colocate's (sim/experiment/colocate_series.h): fine enough
// to show MMPP bursts of tens of ms over the 1 s scenarios, coarse enough that the page's plots
// are not a solid band of single batches.
inline constexpr size_t kMultiplexTimelineBins = 400;

inline constexpr const char* kMultiplexTimelineHeader =
    "policy,service,start_s,end_s,sm_utilisation,hbm_utilisation\n";

// timeline.csv rows of one policy (no header), bin by bin and, within a bin, service by service:
// the service's useful FLOPs in the bin over `compute_flops_per_s` (η · peak) × the bin's width,
// and its DRAM bytes over `hbm_Bps` × the width. Bins of `bin_s` from 0, the last one cut at
// `window_s`.
std::string multiplex_timeline_rows(const std::string& policy, std::span<const std::string> services,
                                    std::span<const MultiplexKernelSpan> spans, double window_s, double bin_s,
                                    double compute_flops_per_s, double hbm_Bps);

}  // namespace parallax
