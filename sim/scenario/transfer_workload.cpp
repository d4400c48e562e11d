// File: sim/scenario/transfer_workload.cpp
#include "sim/scenario/transfer_workload.h"

#include <array>

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/node_directory.h"
#include "sim/scenario/transfer_csv.h"

namespace parallax {

namespace {

// Collective algorithms the loader accepts; models/ adds more and lists them here.
constexpr std::array<std::string_view, 1> kAlgos{"ring"};

Time read_start(const MapFields& f) {
  const ConfigNode* n = f.optional("start_s");
  if (n == nullptr) return Time::zero();
  const double s = read_non_negative(*n, f.path_of("start_s"));
  if (s > kMaxStartSeconds)
    fail_at(*n, f.path_of("start_s"), fmt::format("'{}' must be at most {:g}, got {}", f.path_of("start_s"), kMaxStartSeconds, n->scalar));
  return Time::seconds(s);
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
  c.op = read_choice(f.required("op"), f.path_of("op"), {"all_reduce", "all_gather", "reduce_scatter"});
  const ConfigNode* group = f.optional("group");
  if (group != nullptr) {
    c.group = read_group(*group, f.path_of("group"), gpus);
  } else {
    for (int g = 0; g < gpus; ++g) c.group.push_back(g);
    if (gpus < 2) fail_at(node, f.path_of("group"), fmt::format("'{}' needs at least 2 GPUs; the machine has 1", path));
  }
  const auto ranks = static_cast<uint64_t>(c.group.size());
  const uint64_t transfers = ranks * (c.op == "all_reduce" ? 2 * (ranks - 1) : ranks - 1);
  if (transfers > kMaxRingHopTransfers)
    fail_at(group != nullptr ? *group : node, f.path_of("group"),
            fmt::format("a ring {} over {} GPUs takes {} hop transfers, over the limit of {} per collective "
                        "(an all_reduce ring of at most 8,192 GPUs; use smaller groups)",
                        c.op, ranks, transfers, kMaxRingHopTransfers));
  c.bytes = read_byte_count(f.required("bytes"), f.path_of("bytes"));
  c.start = read_start(f);
  if (const ConfigNode* algo = f.optional("algo")) c.algo = read_choice(*algo, f.path_of("algo"), {kAlgos[0]});
  c.name = read_name(f);
  return c;
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
  if (const ConfigNode* list = f.optional("transfers")) {
    const ConfigNode& items = expect_list(*list, f.path_of("transfers"));
    for (size_t i = 0; i < items.items.size(); ++i)
      out.transfers.push_back(read_transfer(items.items[i], join_path(f.path_of("transfers"), i), nodes));
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
  }
  if (const ConfigNode* list = f.optional("collectives")) {
    const ConfigNode& items = expect_list(*list, f.path_of("collectives"));
    const int gpus = static_cast<int>(scenario.hardware.gpus.size());
    for (size_t i = 0; i < items.items.size(); ++i)
      out.collectives.push_back(read_collective(items.items[i], join_path(f.path_of("collectives"), i), gpus));
  }
}

}  // namespace parallax
