// File: sim/policies/serverless/gpu_selector.cpp
#include "sim/policies/serverless/gpu_selector.h"

#include <tuple>
#include <vector>

namespace parallax {

namespace {

int least_busy(const SelectionInput& in, const std::vector<int>& gpus) {
  int best = -1;
  for (int g : gpus)
    if (best < 0 || in.busy_s[static_cast<size_t>(g)] < in.busy_s[static_cast<size_t>(best)]) best = g;
  return best;
}

}  // namespace

Placement select_gpu(SelectorKind kind, const SelectionInput& in, RandomStream& rng) {
  const ModelResidency& r = *in.residency;
  std::vector<int> idle, idle_holders, holders;
  for (int g = 0; g < r.gpus(); ++g) {
    const bool is_idle = in.activity[static_cast<size_t>(g)] == GpuActivity::idle;
    const bool holds = r.at(in.function, g).state == Residency::resident;
    if (is_idle) idle.push_back(g);
    if (holds) holders.push_back(g);
    if (is_idle && holds) idle_holders.push_back(g);
  }
  Placement p;
  if (idle.empty()) return p;
  p.found = true;
  if (!idle_holders.empty()) {
    p.gpu = least_busy(in, idle_holders);
    return p;
  }
  if (kind == SelectorKind::random) {
    p.gpu = idle[rng.uniform_int(idle.size())];
    p.source = SwapSource::host;
    return p;
  }
  double best_Bps = 0;
  for (int g : idle)
    for (int m : holders) {
      const double bw = in.links->peer_Bps[static_cast<size_t>(m)][static_cast<size_t>(g)];
      if (bw > best_Bps) {
        best_Bps = bw;
        p.gpu = g;
        p.peer = m;
      }
    }
  if (best_Bps > 0) {
    p.source = SwapSource::peer;
    return p;
  }
  p.source = SwapSource::host;
  auto key = [&](int g) {
    const int sib = in.links->pcie_sibling[static_cast<size_t>(g)];
    const int status = sib < 0 ? 0 : static_cast<int>(in.activity[static_cast<size_t>(sib)]);
    return std::make_tuple(status, in.busy_s[static_cast<size_t>(g)], g);
  };
  p.gpu = idle.front();
  for (int g : idle)
    if (key(g) < key(p.gpu)) p.gpu = g;
  return p;
}

}  // namespace parallax
