// File: sim/platform/platform.cpp
#include "sim/platform/platform.h"

#include <algorithm>
#include <limits>

namespace parallax {

const char* to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
  }
  return "?";
}

double Path::bottleneck_Bps() const {
  double bw = std::numeric_limits<double>::infinity();
  for (const PathLink& l : links) bw = std::min(bw, l.bandwidth_Bps);
  return bw;
}

bool Path::only(LinkKind k) const {
  return std::all_of(links.begin(), links.end(), [k](const PathLink& l) { return l.copy_engine || l.kind == k; });
}

bool Path::shares_with(const Path& other) const {
  for (const PathLink& a : links)
    for (const PathLink& b : other.links)
      if (a.resource == b.resource) return true;
  return false;
}

DeviceRates Platform::device_rates(GpuId id) const {
  const GpuSpec& g = gpu(id);
  DeviceRates r;
  r.sms = g.sms;
  r.peak_flops = g.peak_flops;
  r.hbm_Bps = g.hbm_Bps;
  r.bw_per_sm_Bps = 0;
  r.eta_compute = kPlannedComputeEfficiency;
  r.launch_s = g.kernel_launch_s;
  return r;
}

}  // namespace parallax
