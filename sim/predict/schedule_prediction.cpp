// File: sim/predict/schedule_prediction.cpp
// Synthesised rings as JSON (schedule_prediction.h).
#include "sim/predict/schedule_prediction.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "models/overlap_problem.h"
#include "sim/engine/engine.h"
#include "sim/io/input_error.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/overlap/pair_schedule.h"
#include "sim/policies/overlap/ring_synthesis.h"
#include "sim/scenario/byte_count.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

namespace {

[[noreturn]] void bad_schedule_argument(const std::string& option, const std::string& message) {
  throw InputError(SourceLocation{"<command line>", 0, 0}, option, fmt::format("{}: {}", option, message));
}

const char* hop_link_name(models::LinkType t) {
  switch (t) {
    case models::LinkType::nvlink: return "nvlink";
    case models::LinkType::pcie: return "pcie";
    case models::LinkType::net: return "network";
  }
  return "?";
}

nlohmann::ordered_json ring_json(const RingRoute& ring, const models::RingParams& params, double share, double bytes,
                                 models::CollectiveOp op, const models::OverlapParams& overlap) {
  nlohmann::ordered_json hops = nlohmann::ordered_json::array();
  for (size_t i = 0; i < params.hops.size() && ring.order.size() > 1; ++i)
    hops.push_back({{"from", ring.order[i]},
                    {"to", ring.order[(i + 1) % ring.order.size()]},
                    {"path", ring.path_of_hop(i)},
                    {"link", hop_link_name(params.hops[i].link)},
                    {"bandwidth_GBps", params.hops[i].bandwidth_Bps / 1e9}});
  const double p = static_cast<double>(ring.order.size());
  return {{"order", ring.order},
          {"hops", hops},
          {"share", share},
          {"bytes", share * bytes},
          {"bytes_per_hop_per_step", share * bytes / p},
          {"bottleneck_GBps", params.bottleneck_Bps() / 1e9},
          {"time_s", models::lockstep_ring_cost(op, share * bytes, params, overlap).time_s}};
}

// The pair schedule's rounds in all-gather order (reversed for a reduce-scatter), each ring with
// its GPUs, hop paths and bandwidths and its share of every round's chunk.
nlohmann::ordered_json pair_schedule_json(const PairSchedule& s, double bytes, models::CollectiveOp op) {
  nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
  for (const auto& [a, b] : s.pairs) pairs.push_back({a, b});
  nlohmann::ordered_json rounds = nlohmann::ordered_json::array();
  const double chunk = bytes / static_cast<double>(2 * s.pairs.size());
  for (const PairRound& r : s.rounds) {
    nlohmann::ordered_json rings = nlohmann::ordered_json::array();
    for (size_t k = 0; k < r.rings.size(); ++k) {
      nlohmann::ordered_json hops = nlohmann::ordered_json::array();
      const std::vector<int>& o = r.rings[k].order;
      for (size_t i = 0; i < r.params[k].hops.size(); ++i)
        hops.push_back({{"from", o[i]},
                        {"to", o[(i + 1) % o.size()]},
                        {"path", r.rings[k].path_of_hop(i)},
                        {"link", hop_link_name(r.params[k].hops[i].link)},
                        {"bandwidth_GBps", r.params[k].hops[i].bandwidth_Bps / 1e9}});
      rings.push_back({{"order", o}, {"hops", hops}, {"share", r.shares[k]}, {"bytes_per_hop", r.shares[k] * chunk}});
    }
    rounds.push_back({{"rings", rings}, {"time_s", r.step_s}});
  }
  if (op == models::CollectiveOp::reduce_scatter) std::reverse(rounds.begin(), rounds.end());
  return {{"pairs", pairs}, {"rounds", rounds}, {"time_s", s.time_s}, {"binding", s.binding}};
}

}  // namespace

nlohmann::ordered_json predict_schedule(const PredictScheduleOptions& o) {
  const HardwareSpec hw = load_hardware_preset(o.hardware);
  models::CollectiveOp op;
  if (o.op == "all_gather") op = models::CollectiveOp::all_gather;
  else if (o.op == "reduce_scatter") op = models::CollectiveOp::reduce_scatter;
  else bad_schedule_argument("--op", fmt::format("unknown op '{}'; ops: all_gather, reduce_scatter", o.op));
  if (o.gpus.size() < 2) bad_schedule_argument("--gpus", "name at least two GPUs, e.g. 0,1,2,3");
  const int box = static_cast<int>(hw.gpus.size());
  for (int g : o.gpus)
    if (g < 0 || g >= box) bad_schedule_argument("--gpus", fmt::format("GPU {} is not in 0..{} of '{}'", g, box - 1, hw.name));
  std::vector<int> sorted = o.gpus;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) bad_schedule_argument("--gpus", "a GPU is named twice");
  const ByteCountParse parsed = parse_byte_count(o.bytes);
  if (!parsed.bytes) bad_schedule_argument("--bytes", parsed.error);
  const double bytes = static_cast<double>(*parsed.bytes);
  if (!(bytes > 0)) bad_schedule_argument("--bytes", "must be > 0");

  Engine engine;
  SimPlatform machine(engine, hw);
  const double chunk = bytes / static_cast<double>(o.gpus.size());  // one lock-step ring step
  const SynthesisedRings single = synthesise_single_ring(machine, o.gpus, chunk);
  const SynthesisedRings twin = synthesise_double_ring(machine, o.gpus, chunk);
  const models::OverlapParams overlap;
  nlohmann::ordered_json out;
  out["hardware"] = hw.name;
  out["op"] = o.op;
  out["gpus"] = o.gpus;
  out["bytes"] = bytes;
  const nlohmann::ordered_json one = ring_json(single.rings[0], single.params[0], 1.0, bytes, op, overlap);
  const double single_s = one["time_s"].get<double>();
  out["single_ring"] = {{"rings", nlohmann::ordered_json::array({one})}, {"time_s", single_s}, {"binding", single.binding}};
  nlohmann::ordered_json rings = nlohmann::ordered_json::array();
  double double_s = 0;
  for (size_t r = 0; r < twin.rings.size(); ++r) {
    rings.push_back(ring_json(twin.rings[r], twin.params[r], twin.shares[r], bytes, op, overlap));
    double_s = std::max(double_s, rings.back()["time_s"].get<double>());
  }
  out["double_ring"] = {{"rings", rings}, {"time_s", double_s}, {"binding", twin.binding}};
  const std::optional<PairSchedule> pairs =
      synthesise_pair_schedule(machine, o.gpus, bytes, overlap.step_overhead_s, overlap.collective_base_latency_s);
  if (pairs) out["hierarchical"] = pair_schedule_json(*pairs, bytes, op);
  else out["hierarchical"] = nullptr;
  std::string best = double_s < single_s ? "double_ring" : "single_ring";
  double best_s = std::min(single_s, double_s);
  if (pairs && pairs->time_s < best_s) {
    best = "hierarchical";
    best_s = pairs->time_s;
  }
  out["best"] = best;
  out["double_ring_speedup"] = single_s / double_s;
  out["best_speedup"] = single_s / best_s;
  return out;
}

}  // namespace parallax
