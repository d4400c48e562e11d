// File: tools/predict_command.cpp
// Collective and overlap predictions as JSON (predict_command.h).
#include "tools/predict_command.h"

#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/calibration_data/nccl_tests_fit.h"
#include "models/collective_auto.h"
#include "models/nccl_latency.h"
#include "models/overlap_selector.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/overlap/ring_hops.h"
#include "sim/report/json_output.h"
#include "sim/scenario/byte_count.h"
#include "sim/scenario/calibration_reader.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {

namespace {

[[noreturn]] void bad_argument(const std::string& option, const std::string& message) {
  throw InputError(SourceLocation{"<command line>", 0, 0}, option, fmt::format("{}: {}", option, message));
}

models::CollectiveOp parse_collective_op(const std::string& op) {
  if (op == "all_reduce") return models::CollectiveOp::all_reduce;
  if (op == "all_gather") return models::CollectiveOp::all_gather;
  if (op == "reduce_scatter") return models::CollectiveOp::reduce_scatter;
  bad_argument("--op", fmt::format("unknown collective '{}'; ops: all_reduce, all_gather, reduce_scatter", op));
}

void check_gpus(const HardwareSpec& hw, int64_t gpus, const std::string& option) {
  if (gpus < 1 || gpus > static_cast<int64_t>(hw.gpus.size()))
    bad_argument(option, fmt::format("must be in 1..{} on '{}', got {}", hw.gpus.size(), hw.name, gpus));
}

// NCCL-flavoured ring: the topology's bandwidths, NCCL's Simple-protocol per-hop latency by link
// type and Ring baseLat (models/nccl_latency.h).
models::RingParams nccl_ring(models::RingParams ring) {
  for (models::Hop& hop : ring.hops)
    hop.latency_s = models::nccl_hw_latency_s(models::NcclAlgorithm::ring, hop.link, models::Protocol::simple);
  ring.base_latency_s = models::nccl_base_latency_s(models::NcclAlgorithm::ring, models::Protocol::simple);
  return ring;
}

nlohmann::ordered_json hops_json(const models::RingParams& ring) {
  nlohmann::ordered_json hops = nlohmann::ordered_json::array();
  for (const models::Hop& h : ring.hops)
    hops.push_back({{"link", models::to_string(h.link)}, {"bandwidth_GBps", h.bandwidth_Bps / 1e9}});
  return hops;
}

// --calibration: the ring fitted by `parallax fit --nccl-tests` for this op and rank count
// (docs/calibration.md); the group may span more GPUs than the preset's box.
int predict_calibrated_collective(const PredictCollectiveOptions& o, const HardwareSpec& hw, models::CollectiveOp op,
                                  double bytes) {
  const std::string path = calibration_path(o.calibration, "");
  const models::Calibration cal = read_calibration(path);
  const models::CollectiveCalibration* fit = cal.find_collective(std::string(models::to_string(op)), static_cast<int>(o.gpus));
  if (!fit) {
    std::string have;
    for (const auto& k : cal.collectives) have += fmt::format("{}{} x{}", have.empty() ? "" : ", ", k.op, k.ranks);
    bad_argument("--calibration", fmt::format("{} has no {} fit for {} GPUs (it has: {})", path, models::to_string(op),
                                              o.gpus, have.empty() ? "none" : have));
  }
  const double time_s = models::predict_collective_s(*fit, op, bytes);
  const double bandwidth_s = static_cast<double>(models::ring_steps(op, o.gpus)) * (bytes / static_cast<double>(o.gpus)) /
                             (fit->bandwidth_efficiency * fit->link_Bps);
  nlohmann::ordered_json out;
  out["hardware"] = hw.name;
  out["op"] = models::to_string(op);
  out["gpus"] = o.gpus;
  out["bytes"] = bytes;
  out["algo"] = "calibrated_ring";
  out["calibration"] = path;
  out["time_s"] = time_s;
  out["latency_s"] = time_s - bandwidth_s;
  out["bandwidth_s"] = bandwidth_s;
  out["algbw_GBps"] = models::algorithm_bandwidth_Bps(bytes, time_s) / 1e9;
  out["busbw_GBps"] = models::bus_bandwidth_Bps(op, o.gpus, bytes, time_s) / 1e9;
  std::fputs(format_json(out).c_str(), stdout);
  return 0;
}

}  // namespace

int predict_collective_command(const PredictCollectiveOptions& o) {
  const HardwareSpec hw = load_hardware_preset(o.hardware);
  const models::CollectiveOp op = parse_collective_op(o.op);
  const ByteCountParse parsed = parse_byte_count(o.bytes);
  if (!parsed.bytes) bad_argument("--bytes", parsed.error);
  const double bytes = static_cast<double>(*parsed.bytes);
  if (!o.calibration.empty()) return predict_calibrated_collective(o, hw, op, bytes);
  check_gpus(hw, o.gpus, "--gpus");
  if (o.algo != "ring" && o.algo != "double_ring" && o.algo != "tree" && o.algo != "auto")
    bad_argument("--algo", fmt::format("unknown algorithm '{}'; algorithms: ring, double_ring, tree, auto", o.algo));

  std::vector<int> order;
  for (int i = 0; i < o.gpus; ++i) order.push_back(i);
  const std::vector<int> both[2] = {order, counter_rotating_order(order)};
  const std::vector<models::RingParams> twin = concurrent_ring_hops(hw, both);
  models::AlgorithmCandidates c;
  const models::RingParams ring = nccl_ring(ring_hops(hw, order));
  if (o.algo == "ring" || o.algo == "auto") c.ring = ring;
  if (o.algo == "double_ring" || o.algo == "auto") c.double_ring = models::DoubleRingParams{nccl_ring(twin[0]), nccl_ring(twin[1])};
  if (o.algo == "tree" || o.algo == "auto") {
    if (op != models::CollectiveOp::all_reduce && o.algo == "tree")
      bad_argument("--algo", "tree runs all_reduce only (NCCL runs all_gather and reduce_scatter on rings)");
    models::TreeParams t;
    t.ranks = o.gpus;
    t.nodes = 1;
    t.intra = models::Hop{ring.bottleneck_Bps(), 0.0, ring.hops.front().link};
    for (const models::Hop& h : ring.hops)
      t.intra.latency_s = std::max(t.intra.latency_s, models::nccl_hw_latency_s(models::NcclAlgorithm::tree, h.link,
                                                                                models::Protocol::simple));
    t.inter = t.intra;
    t.base_latency_s = models::nccl_base_latency_s(models::NcclAlgorithm::tree, models::Protocol::simple);
    c.tree = t;
  }
  const models::AlgorithmChoice choice = models::choose_collective_algorithm(op, bytes, c);
  nlohmann::ordered_json out;
  out["hardware"] = hw.name;
  out["op"] = models::to_string(op);
  out["gpus"] = o.gpus;
  out["bytes"] = *parsed.bytes;
  out["algo"] = choice.algorithm;
  out["time_s"] = choice.cost.time_s;
  out["latency_s"] = choice.cost.latency_s;
  out["bandwidth_s"] = choice.cost.bandwidth_s;
  const double t = choice.cost.time_s > 0 ? choice.cost.time_s : 1.0;
  out["algbw_GBps"] = choice.cost.time_s > 0 ? models::algorithm_bandwidth_Bps(bytes, t) / 1e9 : 0.0;
  out["busbw_GBps"] = choice.cost.time_s > 0 ? models::bus_bandwidth_Bps(op, o.gpus, bytes, t) / 1e9 : 0.0;
  out["ring_hops"] = hops_json(ring);
  std::fputs(format_json(out).c_str(), stdout);
  return 0;
}

int predict_overlap_command(const PredictOverlapOptions& o) {
  const HardwareSpec hw = load_hardware_preset(o.hardware);
  models::OverlapProblem p;
  if (!models::parse_overlap_op(o.op, p.op))
    bad_argument("--op", fmt::format("unknown operator pair '{}'; ops: ag_gemm, gemm_rs, gemm_ar", o.op));
  check_gpus(hw, o.tp, "--tp");
  p.m = o.m;
  p.n = o.n;
  p.k = o.k;
  p.tp = o.tp;
  try {
    models::check_overlap_problem(p);
  } catch (const std::invalid_argument& e) {
    bad_argument("--m/--n/--k/--tp", e.what());
  }
  const models::OverlapParams params;
  const OverlapGroup g = overlap_group(hw, p.tp);
  const models::OverlapPrediction pred = models::predict_overlap(p, g.machine, params);
  nlohmann::ordered_json out;
  out["hardware"] = hw.name;
  out["op"] = models::to_string(p.op);
  out["m"] = p.m;
  out["n"] = p.n;
  out["k"] = p.k;
  out["tp"] = p.tp;
  nlohmann::ordered_json strategies = nlohmann::ordered_json::object();
  for (const models::StrategyEstimate& e : pred.strategies) {
    nlohmann::ordered_json s{{"time_s", e.time_s}};
    if (e.strategy == models::OverlapStrategy::interdecom) s["degree"] = e.degree;
    strategies[std::string(models::to_string(e.strategy))] = s;
  }
  out["strategies"] = strategies;
  out["d_star"] = pred.closed_form.d_star;
  out["d_star_continuous"] = pred.closed_form.d_star_continuous;
  out["closed_form"] = {{"A_s", pred.closed_form.a_s}, {"B_s", pred.closed_form.b_s}, {"C_s", pred.closed_form.c_s}};
  out["brute_force_degree"] = pred.brute_force_degree;
  out["best"] = models::to_string(pred.best);
  out["best_time_s"] = pred.best_time_s;
  out["speedup_over_sequential"] = pred.strategies[0].time_s / pred.best_time_s;
  std::fputs(format_json(out).c_str(), stdout);
  return 0;
}

}  // namespace parallax
