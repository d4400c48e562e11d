// File: sim/policies/overlap/ring_synthesis.cpp
// Candidate rings (orders × path variants), scored with ring_params_over (ring_synthesis.h).
#include "sim/policies/overlap/ring_synthesis.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <span>

#include <fmt/format.h>

namespace parallax {

namespace {

const char* synthesis_link_name(models::LinkType t) {
  switch (t) {
    case models::LinkType::nvlink: return "nvlink";
    case models::LinkType::pcie: return "pcie";
    case models::LinkType::net: return "network";
  }
  return "?";
}

// A candidate ring: an order of group indices (first = 0) and a variant: 0 = every hop on its
// pair's first path, 1 = every hop on its pair's last path.
struct RingCandidate {
  std::vector<int> order;
  int variant = 0;
};

class RingSearch {
 public:
  RingSearch(Platform& platform, const std::vector<int>& gpus) : gpus_(gpus), p_(static_cast<int>(gpus.size())) {
    std::vector<int> sorted = gpus;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty()) throw PlatformError("ring synthesis: no GPUs");
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw PlatformError("ring synthesis: a GPU is named twice");
    for (int g : gpus)
      if (g < 0 || g >= platform.gpu_count())
        throw PlatformError(fmt::format("GPU {} does not exist (the machine has {})", g, platform.gpu_count()));
    table_.resize(static_cast<size_t>(p_ * p_));
    for (int a = 0; a < p_; ++a)
      for (int b = 0; b < p_; ++b) {
        if (a == b) continue;
        for (const Path& path : platform.paths(Endpoint::gpu(gpus[a]), Endpoint::gpu(gpus[b])))
          table_[idx(a, b)].push_back(hop_links_of(path, resource_ids_));
      }
    crossings_.assign(resource_ids_.size(), 0);
  }

  int size() const { return p_; }

  // Candidate orders: every cycle for small groups, else the identity plus a fastest-first DFS;
  // each with its reverse, so that counter-rotating twins are candidates.
  std::vector<std::vector<int>> orders() const {
    std::vector<std::vector<int>> out;
    std::vector<int> identity(static_cast<size_t>(p_));
    std::iota(identity.begin(), identity.end(), 0);
    if (p_ <= 6) {
      std::vector<int> o = identity;
      do out.push_back(o);
      while (std::next_permutation(o.begin() + 1, o.end()));
      return out;
    }
    auto add = [&](const std::vector<int>& o) {
      if (std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    };
    add(identity);
    add(counter_rotating_order(identity));
    std::vector<int> path{0};
    std::vector<char> used(static_cast<size_t>(p_), 0);
    used[0] = 1;
    dfs(path, used, out, add);
    return out;
  }

  std::vector<int> variants(const std::vector<int>& order) const {
    for (size_t i = 0; i < order.size(); ++i)
      if (paths(order[i], order[(i + 1) % order.size()]).size() > 1) return {0, 1};
    return {0};
  }

  std::vector<const HopLinks*> hops(const RingCandidate& c) const {
    std::vector<const HopLinks*> out;
    if (c.order.size() < 2) return out;
    for (size_t i = 0; i < c.order.size(); ++i) {
      const std::vector<HopLinks>& ps = paths(c.order[i], c.order[(i + 1) % c.order.size()]);
      out.push_back(c.variant == 0 ? &ps.front() : &ps.back());
    }
    return out;
  }

  int path_index(int a, int b, int variant) const {
    return variant == 0 ? 0 : static_cast<int>(paths(a, b).size()) - 1;
  }

  std::vector<models::RingParams> score(std::span<const std::vector<const HopLinks*>> rings) {
    return ring_params_over(rings, crossings_);
  }

  // What score() gives, without building the hop lists: the sum of the rings' bottlenecks and
  // the largest hop latency (the search calls this for every pair of candidates).
  std::pair<double, double> quick_score(std::span<const std::vector<const HopLinks*>> rings) {
    for (const auto& ring : rings)
      for (const HopLinks* hop : ring)
        for (const auto& [link, capacity] : hop->links) ++crossings_[link];
    double total = 0, latency = 0;
    for (const auto& ring : rings) {
      double bottleneck = std::numeric_limits<double>::infinity();
      for (const HopLinks* hop : ring) {
        for (const auto& [link, capacity] : hop->links) bottleneck = std::min(bottleneck, capacity / crossings_[link]);
        latency = std::max(latency, hop->latency_s);
      }
      total += bottleneck;
    }
    for (const auto& ring : rings)
      for (const HopLinks* hop : ring)
        for (const auto& [link, capacity] : hop->links) crossings_[link] = 0;
    return {total, latency};
  }

  RingRoute route(const RingCandidate& c) const {
    RingRoute r;
    for (int i : c.order) r.order.push_back(gpus_[static_cast<size_t>(i)]);
    if (c.variant != 0 && c.order.size() > 1)
      for (size_t i = 0; i < c.order.size(); ++i) r.paths.push_back(path_index(c.order[i], c.order[(i + 1) % c.order.size()], 1));
    return r;
  }

  // The slowest hop of `ring` (given its params) in words: its link type and GPUs.
  std::string slowest_hop(const RingCandidate& c, const models::RingParams& ring) const {
    if (c.order.size() < 2) return "none (one GPU)";
    size_t worst = 0;
    for (size_t i = 1; i < ring.hops.size(); ++i)
      if (ring.hops[i].bandwidth_Bps < ring.hops[worst].bandwidth_Bps) worst = i;
    const int a = gpus_[static_cast<size_t>(c.order[worst])], b = gpus_[static_cast<size_t>(c.order[(worst + 1) % c.order.size()])];
    return fmt::format("{} hop {}->{} at {:.1f} GB/s", synthesis_link_name(ring.hops[worst].link), a, b,
                       ring.hops[worst].bandwidth_Bps / 1e9);
  }

 private:
  size_t idx(int a, int b) const { return static_cast<size_t>(a * p_ + b); }
  const std::vector<HopLinks>& paths(int a, int b) const { return table_[idx(a, b)]; }
  double best_bw(int a, int b) const {
    double bw = std::numeric_limits<double>::infinity();
    for (const auto& [link, cap] : paths(a, b).front().links) bw = std::min(bw, cap);
    return bw;
  }

  template <typename Add>
  void dfs(std::vector<int>& path, std::vector<char>& used, std::vector<std::vector<int>>& out, Add& add) const {
    if (static_cast<int>(out.size()) >= kMaxRingOrders) return;
    if (static_cast<int>(path.size()) == p_) {
      add(path);
      if (static_cast<int>(out.size()) < kMaxRingOrders) add(counter_rotating_order(path));
      return;
    }
    std::vector<int> next;
    for (int g = 0; g < p_; ++g)
      if (!used[static_cast<size_t>(g)]) next.push_back(g);
    const int from = path.back();
    std::stable_sort(next.begin(), next.end(), [&](int x, int y) { return best_bw(from, x) > best_bw(from, y); });
    for (int g : next) {
      used[static_cast<size_t>(g)] = 1;
      path.push_back(g);
      dfs(path, used, out, add);
      path.pop_back();
      used[static_cast<size_t>(g)] = 0;
      if (static_cast<int>(out.size()) >= kMaxRingOrders) return;
    }
  }

  std::vector<int> gpus_;
  int p_;
  std::vector<std::vector<HopLinks>> table_;  // [a * P + b]: the pair's paths, as hop links
  std::vector<uint32_t> resource_ids_;
  std::vector<int> crossings_;
};

bool better_rings(double bw, double lat, double best_bw, double best_lat, double chunk) {
  if (chunk > 0) return lat + chunk / bw < (best_lat + chunk / best_bw) * (1 - 1e-9);
  if (bw > best_bw * (1 + 1e-9)) return true;
  return bw >= best_bw * (1 - 1e-9) && lat < best_lat * (1 - 1e-9);
}

SynthesisedRings finish_synthesis(const RingSearch& s, std::vector<RingCandidate> chosen, std::vector<models::RingParams> params) {
  SynthesisedRings out;
  double total = 0;
  for (const models::RingParams& r : params) total += r.bottleneck_Bps();
  out.bandwidth_Bps = total;
  size_t slowest = 0;
  for (size_t r = 0; r < chosen.size(); ++r) {
    out.rings.push_back(s.route(chosen[r]));
    out.shares.push_back(std::isinf(total) ? 1.0 / static_cast<double>(chosen.size()) : params[r].bottleneck_Bps() / total);
    if (params[r].bottleneck_Bps() < params[slowest].bottleneck_Bps()) slowest = r;
  }
  out.binding = s.slowest_hop(chosen[slowest], params[slowest]);
  out.params = std::move(params);
  return out;
}

}  // namespace

SynthesisedRings synthesise_single_ring(Platform& platform, const std::vector<int>& gpus, double chunk_bytes) {
  RingSearch s(platform, gpus);
  RingCandidate best;
  std::vector<models::RingParams> best_params;
  double best_bw = -1, best_lat = 0;
  for (const std::vector<int>& order : s.orders())
    for (int v : s.variants(order)) {
      const RingCandidate c{order, v};
      const std::vector<const HopLinks*> one[1] = {s.hops(c)};
      std::vector<models::RingParams> params = s.score(one);
      const double bw = params[0].bottleneck_Bps(), lat = params[0].step_latency_s();
      if (best_bw < 0 || better_rings(bw, lat, best_bw, best_lat, chunk_bytes)) {
        best = c;
        best_bw = bw;
        best_lat = lat;
        best_params = std::move(params);
      }
    }
  return finish_synthesis(s, {best}, std::move(best_params));
}

SynthesisedRings synthesise_double_ring(Platform& platform, const std::vector<int>& gpus, double chunk_bytes) {
  RingSearch s(platform, gpus);
  std::vector<RingCandidate> candidates;
  for (const std::vector<int>& order : s.orders())
    for (int v : s.variants(order)) candidates.push_back({order, v});
  // The fixed double ring first (identity and its counter-rotating twin, first paths): a
  // candidate replaces it only when strictly better.
  std::vector<int> identity(static_cast<size_t>(s.size()));
  std::iota(identity.begin(), identity.end(), 0);
  const RingCandidate fixed[2] = {{identity, 0}, {counter_rotating_order(identity), 0}};
  std::vector<std::vector<const HopLinks*>> hops;
  for (const RingCandidate& c : candidates) hops.push_back(s.hops(c));
  const std::vector<const HopLinks*> fixed_hops[2] = {s.hops(fixed[0]), s.hops(fixed[1])};
  auto [best_bw, best_lat] = s.quick_score(fixed_hops);
  size_t best_a = candidates.size(), best_b = candidates.size();  // none: the fixed pair
  for (size_t a = 0; a < candidates.size(); ++a)
    for (size_t b = a + 1; b < candidates.size(); ++b) {
      const std::vector<const HopLinks*> both[2] = {hops[a], hops[b]};
      const auto [bw, lat] = s.quick_score(both);
      if (better_rings(bw, lat, best_bw, best_lat, chunk_bytes)) {
        best_bw = bw;
        best_lat = lat;
        best_a = a;
        best_b = b;
      }
    }
  std::vector<RingCandidate> best{fixed[0], fixed[1]};
  if (best_a < candidates.size()) best = {candidates[best_a], candidates[best_b]};
  const std::vector<const HopLinks*> chosen[2] = {s.hops(best[0]), s.hops(best[1])};
  return finish_synthesis(s, best, s.score(chosen));
}

}  // namespace parallax
