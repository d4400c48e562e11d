// File: sim/policies/overlap/pair_schedule.cpp
// Bridged pairs from the paths, the rounds of the hierarchical schedule, their lock-step times
// (pair_schedule.h).
#include "sim/policies/overlap/pair_schedule.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "models/overlap_problem.h"

namespace parallax {

namespace {

const char* pair_link_name(models::LinkType t) {
  switch (t) {
    case models::LinkType::nvlink: return "nvlink";
    case models::LinkType::pcie: return "pcie";
    case models::LinkType::net: return "network";
  }
  return "?";
}

// The group's paths as hop links, and rounds built from group indices.
class PairPlanner {
 public:
  PairPlanner(Platform& platform, const std::vector<int>& gpus) : gpus_(gpus), p_(static_cast<int>(gpus.size())) {
    std::vector<int> sorted = gpus;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw PlatformError("pair schedule: a GPU is named twice");
    for (int g : gpus)
      if (g < 0 || g >= platform.gpu_count())
        throw PlatformError(fmt::format("GPU {} does not exist (the machine has {})", g, platform.gpu_count()));
    table_.resize(static_cast<size_t>(p_ * p_));
    for (int a = 0; a < p_; ++a)
      for (int b = 0; b < p_; ++b)
        if (a != b)
          for (const Path& path : platform.paths(Endpoint::gpu(gpus[a]), Endpoint::gpu(gpus[b])))
            table_[idx(a, b)].push_back(hop_links_of(path, resource_ids_));
    crossings_.assign(resource_ids_.size(), 0);
  }

  // Bridged partners (group indices, first < second), or empty when the group is not pairable.
  std::vector<std::pair<int, int>> pairs() const {
    std::vector<int> partner(static_cast<size_t>(p_), -1);
    for (int a = 0; a < p_; ++a)
      for (int b = 0; b < p_; ++b) {
        if (a == b || paths(a, b).front().type != models::LinkType::nvlink) continue;
        if (partner[static_cast<size_t>(a)] != -1) return {};  // several NVLink peers: not a pair box
        partner[static_cast<size_t>(a)] = b;
      }
    std::vector<std::pair<int, int>> out;
    for (int a = 0; a < p_; ++a) {
      const int b = partner[static_cast<size_t>(a)];
      if (b < 0 || partner[static_cast<size_t>(b)] != a) return {};
      if (a < b) out.emplace_back(a, b);
    }
    return out;
  }

  size_t path_count(int a, int b) const { return paths(a, b).size(); }

  // One ring of a round: group-index order, per-hop path index (into each hop's paths), share.
  struct Ring {
    std::vector<int> order;
    std::vector<int> paths;
    double share = 1;
  };

  // Scores `rings` run at once for a chunk of `chunk` bytes: fills a PairRound (GPU ids).
  PairRound score(const std::vector<Ring>& rings, double chunk, double step_overhead_s) {
    std::vector<std::vector<const HopLinks*>> views;
    for (const Ring& r : rings) {
      std::vector<const HopLinks*> hops;
      for (size_t i = 0; i < r.order.size(); ++i)
        hops.push_back(&paths(r.order[i], r.order[(i + 1) % r.order.size()])[static_cast<size_t>(r.paths[i])]);
      views.push_back(std::move(hops));
    }
    PairRound round;
    round.params = ring_params_over(views, crossings_);
    for (size_t r = 0; r < rings.size(); ++r) {
      RingRoute route;
      for (int i : rings[r].order) route.order.push_back(gpus_[static_cast<size_t>(i)]);
      if (std::any_of(rings[r].paths.begin(), rings[r].paths.end(), [](int k) { return k != 0; })) route.paths = rings[r].paths;
      round.rings.push_back(std::move(route));
      round.shares.push_back(rings[r].share);
      // Every GPU is in the same number of rings of a round; the group's first speaks for all.
      if (std::find(rings[r].order.begin(), rings[r].order.end(), 0) != rings[r].order.end()) round.chunks += rings[r].share;
      round.step_s = std::max(round.step_s, models::ring_step_time_s(round.params[r], rings[r].share * chunk, step_overhead_s));
    }
    return round;
  }

 private:
  size_t idx(int a, int b) const { return static_cast<size_t>(a * p_ + b); }
  const std::vector<HopLinks>& paths(int a, int b) const { return table_[idx(a, b)]; }

  std::vector<int> gpus_;
  int p_;
  std::vector<std::vector<HopLinks>> table_;  // [a * P + b]: the pair's paths, as hop links
  std::vector<uint32_t> resource_ids_;
  std::vector<int> crossings_;
};

// The last round: each pair's exchange split over the bridge and its last (PCIe) path in
// proportion to their bottlenecks, or on the bridge alone where that is quicker (small chunks).
PairRound last_pair_round(PairPlanner& planner, const std::vector<std::pair<int, int>>& pairs, double chunk,
                          double step_overhead_s) {
  std::vector<PairPlanner::Ring> bridge;
  for (const auto& [a, b] : pairs) bridge.push_back({{a, b}, {0, 0}, 1.0});
  PairRound alone = planner.score(bridge, chunk, step_overhead_s);
  std::vector<PairPlanner::Ring> split = bridge;
  for (const auto& [a, b] : pairs) {
    const int ka = static_cast<int>(planner.path_count(a, b)) - 1, kb = static_cast<int>(planner.path_count(b, a)) - 1;
    if (ka == 0 || kb == 0) return alone;  // a pair with one path only: nothing to split over
    split.push_back({{a, b}, {ka, kb}, 0.0});
  }
  const PairRound both = planner.score(split, 0, 0);  // bottlenecks with both paths busy
  const size_t q = pairs.size();
  double b0 = std::numeric_limits<double>::infinity(), b1 = b0;
  for (size_t k = 0; k < q; ++k) {
    b0 = std::min(b0, both.params[k].bottleneck_Bps());
    b1 = std::min(b1, both.params[q + k].bottleneck_Bps());
  }
  const double x = b0 / (b0 + b1);
  for (size_t k = 0; k < q; ++k) {
    split[k].share = x;
    split[q + k].share = 1.0 - x;
  }
  PairRound shared = planner.score(split, chunk, step_overhead_s);
  return shared.step_s < alone.step_s ? shared : alone;
}

std::string slowest_hop_of(const PairSchedule& s, double chunk) {
  size_t worst_round = 0;
  for (size_t r = 1; r < s.rounds.size(); ++r)
    if (s.rounds[r].step_s > s.rounds[worst_round].step_s) worst_round = r;
  const PairRound& round = s.rounds[worst_round];
  double worst_s = -1;
  std::string out;
  for (size_t r = 0; r < round.rings.size(); ++r)
    for (size_t i = 0; i < round.params[r].hops.size(); ++i) {
      const models::Hop& h = round.params[r].hops[i];
      const double t = h.latency_s + round.shares[r] * chunk / h.bandwidth_Bps;
      if (t <= worst_s) continue;
      worst_s = t;
      const std::vector<int>& o = round.rings[r].order;
      out = fmt::format("{} hop {}->{} at {:.1f} GB/s in round {}", pair_link_name(h.link), o[i], o[(i + 1) % o.size()],
                        h.bandwidth_Bps / 1e9, worst_round);
    }
  return out;
}

}  // namespace

std::optional<PairSchedule> synthesise_pair_schedule(Platform& platform, const std::vector<int>& gpus, double bytes,
                                                     double step_overhead_s, double base_latency_s) {
  PairPlanner planner(platform, gpus);
  if (gpus.size() < 4 || gpus.size() % 2 != 0) return std::nullopt;
  const std::vector<std::pair<int, int>> pairs = planner.pairs();
  if (pairs.empty()) return std::nullopt;
  const double chunk = bytes / static_cast<double>(gpus.size());
  // Rounds 0..Q-2: the partner exchange on the bridges and the two member rings over the pairs.
  std::vector<PairPlanner::Ring> busy;
  for (const auto& [a, b] : pairs) busy.push_back({{a, b}, {0, 0}, 1.0});
  PairPlanner::Ring firsts, seconds;
  for (const auto& [a, b] : pairs) {
    firsts.order.push_back(a);
    seconds.order.push_back(b);
  }
  firsts.paths.assign(pairs.size(), 0);
  seconds.paths.assign(pairs.size(), 0);
  busy.push_back(firsts);
  busy.push_back(seconds);
  PairSchedule s;
  for (const auto& [a, b] : pairs) s.pairs.emplace_back(gpus[static_cast<size_t>(a)], gpus[static_cast<size_t>(b)]);
  const PairRound busy_round = planner.score(busy, chunk, step_overhead_s);
  for (size_t r = 0; r + 1 < pairs.size(); ++r) s.rounds.push_back(busy_round);
  s.rounds.push_back(last_pair_round(planner, pairs, chunk, step_overhead_s));
  s.time_s = base_latency_s;
  for (const PairRound& r : s.rounds) s.time_s += r.step_s;
  s.binding = slowest_hop_of(s, chunk);
  return s;
}

}  // namespace parallax
