// File: sim/predict/schedule_prediction.cpp
// Synthesised rings as JSON (schedule_prediction.h).
#include "sim/predict/schedule_prediction.h"

#include <algorithm>

#include <fmt/format.h>

#include "models/overlap_problem.h"
#include "sim/engine/engine.h"
#include "sim/io/input_error.h"
#include "sim/platform/sim_platform.h"
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
  out["best"] = double_s < single_s ? "double_ring" : "single_ring";
  out["double_ring_speedup"] = single_s / double_s;
  return out;
}

}  // namespace parallax
