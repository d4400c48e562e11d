// File: sim/predict/collective_prediction.cpp
// Collective and overlap predictions as JSON (collective_prediction.h).
#include "sim/predict/collective_prediction.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "models/calibration_data/nccl_tests_fit.h"
#include "models/nccl_latency.h"
#include "models/nccl_tuning.h"
#include "models/double_ring.h"
#include "models/overlap_selector.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/overlap/ring_hops.h"
#include "sim/scenario/byte_count.h"
#include "sim/scenario/calibration_reader.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/predict/nccl_fabric.h"

namespace parallax {

namespace {

[[noreturn]] void bad_argument(const std::string& option, const std::string& message) {
  throw InputError(SourceLocation{"<command line>", 0, 0}, option, fmt::format("{}: {}", option, message));
}

models::CollectiveOp parse_collective_op(const std::string& op) {
  if (const auto parsed = models::parse_collective_op(op)) return *parsed;
  bad_argument("--op", fmt::format("unknown collective '{}'; ops: {}", op, models::collective_op_names()));
}

void check_gpus(const HardwareSpec& hw, int64_t gpus, const std::string& option) {
  if (gpus < 1 || gpus > cluster_gpu_count(hw))
    bad_argument(option, fmt::format("must be in 1..{} on '{}'{}, got {}", cluster_gpu_count(hw), hw.name,
                                     hw.fabric.nodes > 1 ? fmt::format(" x{} nodes", hw.fabric.nodes) : "", gpus));
}

// --nodes: the preset's box times N, joined by the preset's fabric.
void set_nodes(HardwareSpec& hw, int nodes) {
  if (nodes > 1 && hw.fabric.nics.empty())
    bad_argument("--nodes", fmt::format("'{}' has no fabric (NICs and switches); presets with one: dgx-a100, dgx-h100", hw.name));
  if (static_cast<int64_t>(nodes) * static_cast<int64_t>(hw.gpus.size()) > 65536)
    bad_argument("--nodes", fmt::format("{} nodes of {} GPUs exceed 65,536 GPUs", nodes, hw.gpus.size()));
  hw.fabric.nodes = nodes;
}

// GPUs of one box in a collective over `gpus`: all of them on one box; across the fabric's nodes
// the group spans every node with the same count on each (NCCL's model, models/nccl_scaleout.h).
int64_t gpus_per_box(const HardwareSpec& hw, int64_t gpus) {
  const int nodes = hw.fabric.nodes;
  if (nodes <= 1) {
    check_gpus(hw, gpus, "--gpus");
    return gpus;
  }
  const int64_t box = static_cast<int64_t>(hw.gpus.size());
  if (gpus < nodes || gpus % nodes != 0 || gpus / nodes > box)
    bad_argument("--gpus", fmt::format("must spread evenly over the {} nodes of '{}' ({}..{} GPUs, a multiple of {}), got {}",
                                       nodes, hw.name, nodes, box * nodes, nodes, gpus));
  if (hw.fabric.nics.empty()) bad_argument("--gpus", fmt::format("'{}' has {} nodes but no NICs in its fabric", hw.name, nodes));
  return gpus / nodes;
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

// The fields every answer carries: time, its parts, nccl-tests' algbw/busbw (B/s and GB/s) and
// NCCL's choice (algorithm, protocol, channels).
nlohmann::ordered_json answer(const HardwareSpec& hw, models::CollectiveOp op, int64_t gpus, int64_t byte_count,
                              const models::NcclChoice& choice) {
  const double bytes = static_cast<double>(byte_count);
  nlohmann::ordered_json out;
  out["hardware"] = hw.name;
  out["op"] = models::to_string(op);
  out["gpus"] = gpus;
  out["bytes"] = byte_count;
  out["algo"] = choice.candidate.algorithm;
  out["algorithm"] = choice.candidate.algorithm;
  out["protocol"] = models::to_string(choice.candidate.protocol);
  out["channels"] = choice.candidate.channels;
  out["time_s"] = choice.cost.time_s;
  out["latency_s"] = choice.cost.latency_s;
  out["bandwidth_s"] = choice.cost.bandwidth_s;
  const bool moves = choice.cost.time_s > 0;
  const double algbw = moves ? models::algorithm_bandwidth_Bps(bytes, choice.cost.time_s) : 0.0;
  const double busbw = moves ? models::bus_bandwidth_Bps(op, gpus, bytes, choice.cost.time_s) : 0.0;
  out["algbw"] = algbw;
  out["busbw"] = busbw;
  out["algbw_GBps"] = algbw / 1e9;
  out["busbw_GBps"] = busbw / 1e9;
  return out;
}

// --calibration: the protocols fitted by `parallax fit --nccl-tests` for this op and rank count
// (docs/calibration.md); the group may span more GPUs than the preset's box.
nlohmann::ordered_json predict_calibrated_collective(const PredictCollectiveOptions& o, const HardwareSpec& hw,
                                                     models::CollectiveOp op, int64_t bytes,
                                                     const models::Protocol* protocol) {
  const std::string path = calibration_path(o.calibration, "");
  const models::Calibration cal = read_calibration(path);
  // A fit answers for its own rank and node count: the preset's fabric says how many nodes.
  const int nodes = std::max(hw.fabric.nodes, 1);
  const models::CollectiveCalibration* fit =
      cal.find_collective(std::string(models::to_string(op)), static_cast<int>(o.gpus), nodes);
  // No fit of this group, but a multi-node fit of the op with its network: NCCL's model on the
  // preset's nodes with the fitted NICs (sim/predict/nccl_fabric.h).
  const models::CollectiveCalibration* network = nodes > 1 && !fit ? cal.find_network(std::string(models::to_string(op))) : nullptr;
  if (network) {
    const int64_t per_box = gpus_per_box(hw, o.gpus);
    std::vector<int> order;
    for (int i = 0; i < std::max<int64_t>(per_box, 2); ++i) order.push_back(i);
    const models::NcclBox box = with_calibrated_network(nccl_box(hw, box_ring(hw, order)), *network->network);
    const std::vector<models::NcclCandidate> candidates = models::nccl_candidates(op, o.gpus, box, {}, protocol);
    if (candidates.empty()) bad_argument("--protocol", fmt::format("no NCCL candidate runs {} with {}", models::to_string(op), o.protocol));
    nlohmann::ordered_json out = answer(hw, op, o.gpus, bytes, models::choose_nccl(op, o.gpus, static_cast<double>(bytes), candidates));
    out["nodes"] = nodes;
    out["calibration"] = path;
    out["calibrated_network"] = fmt::format("{} x{} on {} nodes", network->op, network->ranks, network->nodes);
    return out;
  }
  if (!fit) {
    std::string have;
    for (const auto& k : cal.collectives)
      have += fmt::format("{}{} x{}{}", have.empty() ? "" : ", ", k.op, k.ranks, k.nodes > 1 ? fmt::format(" on {} nodes", k.nodes) : "");
    bad_argument("--calibration", fmt::format("{} has no {} fit for {} GPUs on {} node{} (it has: {})", path,
                                              models::to_string(op), o.gpus, nodes, nodes == 1 ? "" : "s",
                                              have.empty() ? "none" : have));
  }
  std::vector<models::NcclCandidate> candidates = models::calibrated_candidates(*fit);
  if (protocol) std::erase_if(candidates, [&](const models::NcclCandidate& c) { return c.protocol != *protocol; });
  if (candidates.empty())
    bad_argument("--protocol", fmt::format("{} has no {} fit for {} x{}", path, models::to_string(*protocol), fit->op, fit->ranks));
  nlohmann::ordered_json out =
      answer(hw, op, o.gpus, bytes, models::choose_nccl(op, o.gpus, static_cast<double>(bytes), candidates));
  out["calibration"] = path;
  return out;
}

}  // namespace

nlohmann::ordered_json predict_collective(const PredictCollectiveOptions& o) {
  HardwareSpec hw = load_hardware_preset(o.hardware);
  set_nodes(hw, o.nodes);
  const models::CollectiveOp op = parse_collective_op(o.op);
  const ByteCountParse parsed = parse_byte_count(o.bytes);
  if (!parsed.bytes) bad_argument("--bytes", parsed.error);
  const double bytes = static_cast<double>(*parsed.bytes);
  models::Protocol pinned{};
  const bool pin = o.protocol != "auto";
  if (pin && !models::parse_protocol(o.protocol, pinned))
    bad_argument("--protocol", fmt::format("unknown protocol '{}'; protocols: LL, LL128, Simple, auto", o.protocol));
  const models::Protocol* protocol = pin ? &pinned : nullptr;
  if (!o.calibration.empty()) return predict_calibrated_collective(o, hw, op, *parsed.bytes, protocol);
  const int64_t per_box = gpus_per_box(hw, o.gpus);
  const bool across_nodes = hw.fabric.nodes > 1;
  constexpr std::string_view kAlgorithms[] = {"ring", "double_ring", "tree", "p2p", "nvls", "nvls_tree", "pat", "auto"};
  if (std::find(std::begin(kAlgorithms), std::end(kAlgorithms), o.algo) == std::end(kAlgorithms))
    bad_argument("--algo", fmt::format("unknown algorithm '{}'; algorithms: ring, double_ring, tree, p2p, nvls, nvls_tree, pat, auto", o.algo));
  if (o.algo == "double_ring" && across_nodes) bad_argument("--algo", "double_ring runs inside one box only");

  // The ring over the group's GPUs in one box (two at least: one GPU per node still has the
  // box's links for NVLS and the local part of all-to-all).
  std::vector<int> order;
  for (int i = 0; i < std::max<int64_t>(per_box, std::min<int64_t>(2, static_cast<int64_t>(hw.gpus.size()))); ++i)
    order.push_back(i);
  const models::RingParams ring = box_ring(hw, order);
  const models::NcclBox box = nccl_box(hw, ring);
  const std::string_view algorithm = o.algo == "auto" || o.algo == "double_ring" ? std::string_view{} : std::string_view{o.algo};
  std::vector<models::NcclCandidate> candidates;
  if (o.algo != "double_ring") candidates = models::nccl_candidates(op, o.gpus, box, algorithm, protocol);
  if (candidates.empty() && o.algo != "double_ring")
    bad_argument("--algo", fmt::format("{}{} does not run {} (NCCL runs tree for all_reduce only, p2p for "
                                       "all_to_all and send_recv, nvls on one Hopper NVSwitch box, nvls_tree "
                                       "for all_reduce across Hopper NVSwitch boxes, pat for all_gather and reduce_scatter with one GPU "
                                       "per node)",
                                       o.algo, pin ? " with protocol " + o.protocol : "", models::to_string(op)));
  std::optional<models::NcclChoice> choice;
  if (!candidates.empty()) choice = models::choose_nccl(op, o.gpus, bytes, candidates);
  // parallax's own double ring for hybrid boxes (models/double_ring.h), only when asked for: it is
  // not one of NCCL's algorithms. Simple-protocol rings.
  const bool ring_op = op != models::CollectiveOp::all_to_all && op != models::CollectiveOp::send_recv;
  if (o.algo == "double_ring" && ring_op && (!pin || pinned == models::Protocol::simple)) {
    const std::vector<int> both[2] = {order, counter_rotating_order(order)};
    Engine routes_engine;  // the rings are asked of the machine's paths
    SimPlatform machine(routes_engine, hw);
    const std::vector<models::RingParams> twin = concurrent_ring_hops(machine, both);
    const models::CollectiveCost c =
        models::double_ring_cost(op, bytes, models::DoubleRingParams{nccl_ring(twin[0]), nccl_ring(twin[1])}).total;
    if (!choice || c.time_s < choice->cost.time_s)
      choice = models::NcclChoice{{"double_ring", models::Protocol::simple, c.latency_s, box.link_Bps, 2}, c};
  }
  if (!choice) bad_argument("--algo", fmt::format("double_ring does not run {} with protocol {}", models::to_string(op), o.protocol));
  nlohmann::ordered_json out = answer(hw, op, o.gpus, *parsed.bytes, *choice);
  out["nodes"] = std::max(hw.fabric.nodes, 1);
  out["ring_hops"] = hops_json(ring);
  return out;
}

nlohmann::ordered_json predict_overlap(const PredictOverlapOptions& o) {
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
  Engine routes_engine;
  SimPlatform machine(routes_engine, hw);
  const OverlapGroup g = overlap_group(machine, p.tp, models::overlap_collective_bytes(p) / static_cast<double>(p.tp));
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
  return out;
}

}  // namespace parallax
