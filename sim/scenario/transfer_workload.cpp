// File: sim/scenario/transfer_workload.cpp
#include "sim/scenario/transfer_workload.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "sim/platform/platform.h"
#include "sim/platform/topology.h"
#include "sim/scenario/config_fields.h"
#include "sim/scenario/input_limits.h"
#include "sim/scenario/node_directory.h"
#include "sim/scenario/transfer_csv.h"

namespace parallax {

namespace {

// Copies a collective issues on SimPlatform (sim/platform/flow_collective.h), for the limit.
uint64_t collective_copies(CollectiveOp op, CollectiveAlgo algo, uint64_t ranks, int64_t bytes) {
  const uint64_t chunks = static_cast<uint64_t>(std::clamp<int64_t>((bytes + (512 << 10) - 1) / (512 << 10), 1, 64));
  switch (op) {
    case CollectiveOp::all_reduce: return algo == CollectiveAlgo::tree ? 2 * chunks * (ranks - 1) : 2 * ranks * (ranks - 1);
    case CollectiveOp::broadcast:
    case CollectiveOp::reduce: return chunks * (ranks - 1);
    case CollectiveOp::send_recv: return ranks;
    default: return ranks * (ranks - 1);
  }
}

// Steps one after another (for the span bound): each may put the whole size on one link.
double collective_steps(CollectiveOp op, CollectiveAlgo algo, double n) {
  switch (op) {
    case CollectiveOp::all_reduce: return algo == CollectiveAlgo::tree ? 2 * (n - 1) + 64 : 2 * (n - 1);
    case CollectiveOp::broadcast:
    case CollectiveOp::reduce: return n - 1 + 64;
    case CollectiveOp::send_recv: return 1;
    default: return n - 1;
  }
}

Time read_start(const MapFields& f) {
  const ConfigNode* n = f.optional("start_s");
  if (n == nullptr) return Time::zero();
  return Time::seconds(read_number_in(*n, f.path_of("start_s"), kStartRange));
}

std::string read_endpoint(const MapFields& f, std::string_view key, const NodeDirectory& nodes) {
  const ConfigNode& n = f.required(key);
  const std::string written = read_string(n, f.path_of(key));
  const std::string problem = nodes.endpoint_problem(written);
  if (!problem.empty()) fail_at(n, f.path_of(key), fmt::format("'{}': {}", f.path_of(key), problem));
  return *nodes.resolve(written);
}

std::string read_name(const MapFields& f) {
  const ConfigNode* n = f.optional("name");
  return n == nullptr ? std::string() : read_string(*n, f.path_of("name"));
}

TransferSpec read_transfer(const ConfigNode& node, const std::string& path, const NodeDirectory& nodes) {
  const MapFields f(node, path, {"src", "dst", "bytes", "start_s", "name"});
  TransferSpec t;
  t.src = read_endpoint(f, "src", nodes);
  t.dst = read_endpoint(f, "dst", nodes);
  if (t.src == t.dst) fail_at(f.required("dst"), f.path_of("dst"), fmt::format("'{}' has the same src and dst '{}'", path, t.src));
  t.bytes = read_byte_count(f.required("bytes"), f.path_of("bytes"));
  t.start = read_start(f);
  t.name = read_name(f);
  return t;
}

std::vector<int> read_group(const ConfigNode& node, const std::string& path, int gpus) {
  std::vector<int> group;
  if (node.kind == ConfigNode::Kind::scalar && node.scalar == "all") {
    for (int g = 0; g < gpus; ++g) group.push_back(g);
  } else if (node.kind == ConfigNode::Kind::sequence) {
    std::vector<bool> seen(static_cast<size_t>(gpus), false);
    for (size_t i = 0; i < node.items.size(); ++i) {
      const int g = static_cast<int>(read_integer_in(node.items[i], join_path(path, i), 0, gpus - 1));
      if (seen[static_cast<size_t>(g)]) fail_at(node.items[i], join_path(path, i), fmt::format("'{}' lists GPU {} twice", path, g));
      seen[static_cast<size_t>(g)] = true;
      group.push_back(g);
    }
  } else {
    fail_at(node, path, fmt::format("'{}' must be 'all' or a list of GPU indices", path));
  }
  if (group.size() < 2) fail_at(node, path, fmt::format("'{}' must hold at least 2 GPUs, got {}", path, group.size()));
  return group;
}

CollectiveSpec read_collective(const ConfigNode& node, const std::string& path, int gpus) {
  const MapFields f(node, path, {"op", "group", "bytes", "start_s", "algo", "name"});
  CollectiveSpec c;
  c.op = read_choice(f.required("op"), f.path_of("op"),
                     {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast", "reduce", "send_recv"});
  const CollectiveOp op = *collective_op_named(c.op);
  const ConfigNode* group = f.optional("group");
  if (group != nullptr) {
    c.group = read_group(*group, f.path_of("group"), gpus);
  } else {
    for (int g = 0; g < gpus; ++g) c.group.push_back(g);
    if (gpus < 2) fail_at(node, f.path_of("group"), fmt::format("'{}' needs at least 2 GPUs; the machine has 1", path));
  }
  c.bytes = read_byte_count(f.required("bytes"), f.path_of("bytes"));
  c.algo = to_string(default_algo(op));
  if (const ConfigNode* algo = f.optional("algo")) {
    c.algo = read_choice(*algo, f.path_of("algo"), {"ring", "tree", "p2p", "hierarchical"});
    if (!runs(*collective_algo_named(c.algo), op))
      fail_at(*algo, f.path_of("algo"),
              fmt::format("'{}': the {} algorithm does not run {} (ring: all but all_to_all and send_recv; tree: "
                          "all_reduce, broadcast, reduce; p2p: all_to_all, send_recv; hierarchical: all_reduce, "
                          "all_gather, reduce_scatter)", f.path_of("algo"), c.algo, c.op));
  }
  const auto ranks = static_cast<uint64_t>(c.group.size());
  const uint64_t transfers = collective_copies(op, *collective_algo_named(c.algo), ranks, c.bytes);
  if (transfers > kMaxRingHopTransfers)
    fail_at(group != nullptr ? *group : node, f.path_of("group"),
            fmt::format("a {} {} over {} GPUs takes {} hop transfers, over the limit of {} per collective "
                        "(an all_reduce ring of at most 8,192 GPUs; use smaller groups)",
                        c.algo, c.op, ranks, transfers, kMaxRingHopTransfers));
  c.start = read_start(f);
  c.name = read_name(f);
  return c;
}

// One item's share of the bound below, and where to point when it is too much.
struct SpanPart {
  const ConfigNode* node;
  std::string path;
  double bytes;       // what it may put on the slowest link, one after another
  double steps;       // routes crossed one after another (a transfer: 1; a ring: its steps)
  std::vector<std::pair<std::string, std::string>> routes;  // the routes it takes (empty: any)
};

// The run's span is at most the latest start, plus every byte over the slowest link one after
// another (max-min sharing never does worse), plus the longest chain of route latencies (a ring's
// steps one after another). A route's latency is first bounded by every link's latency summed and
// by (nodes - 1) times the largest; only when that is too much are the routes taken (a Topology,
// the run's own router) to get their latencies. Past kMaxRunSeconds the scenario is refused at the
// item that weighs most: the clock would otherwise leave its range during the run.
void check_transfer_span(const HardwareSpec& hw, Time max_start, const std::vector<SpanPart>& parts) {
  if (parts.empty()) return;
  double min_Bps = std::numeric_limits<double>::infinity(), latency_sum = 0, latency_max = 0;
  for (const LinkSpec& l : hw.links) {
    min_Bps = std::min(min_Bps, l.bandwidth_Bps);
    latency_sum += l.latency_s;
    latency_max = std::max(latency_max, l.latency_s);
  }
  for (const GpuSpec& g : hw.gpus)
    if (g.copy_engine_Bps > 0) min_Bps = std::min(min_Bps, g.copy_engine_Bps);
  double nodes = static_cast<double>(hw.gpus.size() + hw.hosts.size() + hw.switches.size());
  if (hw.fabric.nodes > 1) {  // a route between nodes adds two NICs and up to three switches
    for (const NicSpec& nic : hw.fabric.nics) {
      min_Bps = std::min(min_Bps, nic.bandwidth_Bps / hw.fabric.oversubscription);
      latency_max = std::max({latency_max, nic.latency_s, hw.fabric.switch_latency_s});
    }
    latency_sum = 2 * latency_sum + 2 * latency_max + 3 * hw.fabric.switch_latency_s;
    nodes = 2 * nodes + 5;
  }
  const double any_route_s = std::min(latency_sum, std::max(0.0, nodes - 1) * latency_max);
  std::vector<double> chain(parts.size());
  double bytes_s = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    bytes_s += parts[i].bytes / min_Bps;
    chain[i] = parts[i].steps * any_route_s;
  }
  const auto span = [&] { return max_start.to_seconds() + bytes_s + *std::max_element(chain.begin(), chain.end()); };
  if (!(span() <= kMaxRunSeconds)) {
    std::optional<Topology> topology;
    for (size_t i = 0; i < parts.size(); ++i) {
      if (parts[i].routes.empty() || !(max_start.to_seconds() + bytes_s + chain[i] > kMaxRunSeconds)) continue;
      if (!topology) topology.emplace(hw);
      double longest = 0;
      for (const auto& [a, b] : parts[i].routes)
        longest = std::max(longest,
                           topology->route(topology->node_index(a), topology->node_index(b)).latency.to_seconds());
      chain[i] = parts[i].steps * longest;
    }
  }
  const double span_s = span();
  if (span_s <= kMaxRunSeconds) return;
  size_t heaviest = 0;
  for (size_t i = 0; i < parts.size(); ++i)
    if (std::max(parts[i].bytes / min_Bps, chain[i]) > std::max(parts[heaviest].bytes / min_Bps, chain[heaviest]))
      heaviest = i;
  const SpanPart& h = parts[heaviest];
  fail_at(*h.node, h.path,
          fmt::format("'{}': the transfers could take up to {:.3g} s (latest start {:g} s, {:.3g} s of bytes at the "
                      "slowest link's {:g} GB/s, {:.3g} s of route latencies one after another), past the {:g} s a run "
                      "may span (the clock is int64 picoseconds); this item weighs most",
                      h.path, span_s, max_start.to_seconds(), bytes_s, min_Bps / 1e9,
                      *std::max_element(chain.begin(), chain.end()), kMaxRunSeconds));
}

const ConfigNode& expect_list(const ConfigNode& node, const std::string& path) {
  if (node.kind != ConfigNode::Kind::sequence)
    fail_at(node, path, fmt::format("'{}' must be a list, got {}", path, kind_name(node.kind)));
  return node;
}

}  // namespace

void read_transfer_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                            Scenario& scenario) {
  const MapFields f(workload, path, {"kind", "transfers", "transfers_csv", "collectives"});
  const NodeDirectory nodes(scenario.hardware);
  TransferWorkloadSpec& out = scenario.transfers;
  std::vector<SpanPart> span;
  Time max_start;
  if (const ConfigNode* list = f.optional("transfers")) {
    const ConfigNode& items = expect_list(*list, f.path_of("transfers"));
    for (size_t i = 0; i < items.items.size(); ++i) {
      const std::string item_path = join_path(f.path_of("transfers"), i);
      out.transfers.push_back(read_transfer(items.items[i], item_path, nodes));
      const TransferSpec& t = out.transfers.back();
      span.push_back({&items.items[i], item_path, static_cast<double>(t.bytes), 1, {{t.src, t.dst}}});
      max_start = std::max(max_start, t.start);
    }
  }
  if (const ConfigNode* csv = f.optional("transfers_csv")) {
    const std::string written = read_string(*csv, f.path_of("transfers_csv"));
    if (written.empty()) fail_at(*csv, f.path_of("transfers_csv"), fmt::format("'{}' is empty", f.path_of("transfers_csv")));
    std::filesystem::path resolved = std::filesystem::path(written);
    if (resolved.is_relative()) resolved = (context.base_dir / resolved).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(resolved, ec))
      fail_at(*csv, f.path_of("transfers_csv"),
              fmt::format("'{}': cannot open '{}' (resolved to '{}')", f.path_of("transfers_csv"), written, resolved.string()));
    out.transfers_csv = resolved.string();
    index_transfers_csv(out.transfers_csv, nodes, out);  // every row checked now, read again by the replay
    if (out.csv_rows > 0) {
      span.push_back({csv, fmt::format("{} (its largest row: line {})", f.path_of("transfers_csv"), out.csv_largest_line),
                      out.csv_bytes, 1, {}});
      max_start = std::max(max_start, out.csv_max_start);
    }
  }
  if (const ConfigNode* list = f.optional("collectives")) {
    const ConfigNode& items = expect_list(*list, f.path_of("collectives"));
    const int gpus = cluster_gpu_count(scenario.hardware);
    for (size_t i = 0; i < items.items.size(); ++i) {
      const std::string item_path = join_path(f.path_of("collectives"), i);
      out.collectives.push_back(read_collective(items.items[i], item_path, gpus));
      const CollectiveSpec& c = out.collectives.back();
      const double n = static_cast<double>(c.group.size());
      const double steps = collective_steps(*collective_op_named(c.op), *collective_algo_named(c.algo), n);
      std::vector<std::pair<std::string, std::string>> ring;
      for (size_t k = 0; k < c.group.size(); ++k)
        ring.emplace_back(gpu_node_name(c.group[k]), gpu_node_name(c.group[(k + 1) % c.group.size()]));
      span.push_back({&items.items[i], item_path, steps * static_cast<double>(c.bytes), steps, std::move(ring)});
      max_start = std::max(max_start, c.start);
    }
  }
  check_transfer_span(scenario.hardware, max_start, span);
}

}  // namespace parallax
