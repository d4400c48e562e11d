// File: sim/policies/serverless/gpu_selector.cpp
#include "sim/policies/serverless/gpu_selector.h"

#include <tuple>

namespace parallax {

// One pass per rule over the node's GPUs in index order, without building lists: this runs on
// every dispatch try (docs/performance.md "Serverless at scale").
Placement select_gpu(SelectorKind kind, const SelectionInput& in, RandomStream& rng) {
  const ModelResidency& r = *in.residency;
  const int gpus = r.gpus();
  const auto idle = [&](int g) { return in.activity[static_cast<size_t>(g)] == GpuActivity::idle; };
  const auto holds = [&](int g) { return r.at(in.function, g).state == Residency::resident; };
  const auto busy = [&](int g) { return in.busy_s[static_cast<size_t>(g)]; };
  Placement p;
  int idle_count = 0, local = -1;
  for (int g = 0; g < gpus; ++g) {
    if (!idle(g)) continue;
    ++idle_count;
    if (holds(g) && (local < 0 || busy(g) < busy(local))) local = g;  // least busy idle holder
  }
  if (idle_count == 0) return p;
  p.found = true;
  if (local >= 0) {
    p.gpu = local;
    return p;
  }
  if (kind == SelectorKind::random) {
    auto k = static_cast<int>(rng.uniform_int(static_cast<uint64_t>(idle_count)));
    for (int g = 0; g < gpus; ++g)
      if (idle(g) && k-- == 0) p.gpu = g;
    p.source = SwapSource::host;
    return p;
  }
  double best_Bps = 0;
  if (r.replicas(in.function) > 0)
    for (int g = 0; g < gpus; ++g) {
      if (!idle(g)) continue;
      for (int m = 0; m < gpus; ++m) {
        if (!holds(m)) continue;
        const double bw = in.links->peer_Bps[static_cast<size_t>(m)][static_cast<size_t>(g)];
        if (bw > best_Bps) {
          best_Bps = bw;
          p.gpu = g;
          p.peer = m;
        }
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
    return std::make_tuple(status, busy(g), g);
  };
  for (int g = 0; g < gpus; ++g)
    if (idle(g) && (p.gpu < 0 || key(g) < key(p.gpu))) p.gpu = g;
  return p;
}

}  // namespace parallax
