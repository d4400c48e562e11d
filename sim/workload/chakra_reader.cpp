// File: sim/workload/chakra_reader.cpp
#include "sim/workload/chakra_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <queue>
#include <system_error>
#include <tuple>
#include <unordered_map>

#include "sim/io/input_error.h"

namespace parallax {

namespace {

using ChakraProtoMsg::Node;

// Bounds that keep every value inside the runner's integer picoseconds and a double's exact range.
constexpr double kMaxChakraDurationS = 1e5;  // 28 h per node, well inside Time after scaling
constexpr int64_t kMaxChakraCount = int64_t{1} << 53;  // FLOPs, bytes
constexpr int kMaxChakraRanks = 1 << 16;

enum class Role : uint8_t { compute, delay, collective, send, recv };

// One node, decoded and checked.
struct ChakraNodeInfo {
  Role role = Role::delay;
  bool host = false;  // is_cpu_op
  double duration_s = 0;
  double flops = 0, dram_bytes = 0;
  int max_sms = 0;
  CollectiveOp op = CollectiveOp::all_reduce;
  int64_t comm_type = 0;
  double bytes = 0;
  std::string pg;
  std::vector<int> pg_ranks;  // empty: not given
  int src = -1, dst = -1, tag = 0;
};

std::optional<CollectiveOp> op_of_comm_type(int64_t t) {
  switch (t) {
    case ChakraProtoMsg::ALL_REDUCE: return CollectiveOp::all_reduce;
    case ChakraProtoMsg::REDUCE: return CollectiveOp::reduce;
    case ChakraProtoMsg::ALL_GATHER: return CollectiveOp::all_gather;
    case ChakraProtoMsg::BROADCAST: return CollectiveOp::broadcast;
    case ChakraProtoMsg::ALL_TO_ALL: return CollectiveOp::all_to_all;
    case ChakraProtoMsg::REDUCE_SCATTER:
    case ChakraProtoMsg::REDUCE_SCATTER_BLOCK: return CollectiveOp::reduce_scatter;
    case ChakraProtoMsg::BARRIER: return CollectiveOp::all_reduce;  // of comm_size bytes (0: latency)
    default: return std::nullopt;  // GATHER, SCATTER: no Platform collective
  }
}

ChakraNodeInfo decode_node(const Node& node, int rank, int ranks, const std::string& path) {
  const ChakraNodeAttrs attrs(node, path);
  ChakraNodeInfo info;
  const auto duration = attrs.real("duration_s");
  info.duration_s = duration ? *duration : static_cast<double>(node.duration_micros()) * 1e-6;
  if (info.duration_s > kMaxChakraDurationS)
    attrs.fail(duration ? "duration_s" : "duration_micros",
               fmt::format("{} s is over the limit of {} s", info.duration_s, kMaxChakraDurationS));
  const auto rank_of = [&](std::string_view field, bool required) -> int {
    const auto v = attrs.integer(field, 0, ranks - 1);
    if (!v && required) attrs.fail(field, "missing (a point-to-point node names its peer)");
    return v ? static_cast<int>(*v) : rank;
  };
  if (!ChakraProtoMsg::NodeType_IsValid(node.type()) || node.type() == ChakraProtoMsg::INVALID_NODE)
    attrs.fail("type", fmt::format("bad node type {}", static_cast<int>(node.type())));
  // Host-side records (Chakra's PyTorch converter marks c10d::allreduce_ and the like as
  // COMM_COLL_NODE with is_cpu_op, beside the GPU kernel that carries comm_type): a delay.
  info.host = attrs.boolean("is_cpu_op").value_or(false);
  if (info.host) return info;
  switch (node.type()) {
    case ChakraProtoMsg::COMP_NODE: {
      const auto ops = attrs.integer("num_ops", 0, kMaxChakraCount);
      const auto bytes = attrs.integer("tensor_size", 0, kMaxChakraCount);
      info.max_sms = static_cast<int>(attrs.integer("max_sms", 0, 1 << 20).value_or(0));
      if (ops.value_or(0) > 0 || bytes.value_or(0) > 0) {
        info.role = Role::compute;
        info.flops = static_cast<double>(ops.value_or(0));
        info.dram_bytes = static_cast<double>(bytes.value_or(0));
      } else if (info.duration_s > 0) {
        info.role = Role::compute;
      }
      break;
    }
    case ChakraProtoMsg::METADATA_NODE:
    case ChakraProtoMsg::MEM_LOAD_NODE:
    case ChakraProtoMsg::MEM_STORE_NODE:
      break;
    case ChakraProtoMsg::COMM_COLL_NODE: {
      info.role = Role::collective;
      const auto type = attrs.integer("comm_type", 0, 1 << 30);
      if (!type) attrs.fail("comm_type", "missing on a COMM_COLL_NODE");
      const auto op = op_of_comm_type(*type);
      if (!op) attrs.fail("comm_type", fmt::format("collective type {} is not supported (GATHER and SCATTER "
                                                   "have no Platform collective)", *type));
      info.op = *op;
      info.comm_type = *type;
      info.bytes = static_cast<double>(attrs.integer("comm_size", 0, kMaxChakraCount).value_or(0));
      info.pg = attrs.text("pg_name").value_or("");
      if (const auto members = attrs.integers("pg_ranks", 0, ranks - 1)) {
        info.pg_ranks.assign(members->begin(), members->end());
        auto sorted = info.pg_ranks;
        std::sort(sorted.begin(), sorted.end());
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
          attrs.fail("pg_ranks", "names a rank twice");
        if (!std::binary_search(sorted.begin(), sorted.end(), rank))
          attrs.fail("pg_ranks", fmt::format("does not hold this ET's rank {}", rank));
      }
      break;
    }
    case ChakraProtoMsg::COMM_SEND_NODE:
    case ChakraProtoMsg::COMM_RECV_NODE: {
      const bool send = node.type() == ChakraProtoMsg::COMM_SEND_NODE;
      info.role = send ? Role::send : Role::recv;
      info.src = rank_of("comm_src", !send);
      info.dst = rank_of("comm_dst", send);
      if ((send ? info.src : info.dst) != rank)
        attrs.fail(send ? "comm_src" : "comm_dst", fmt::format("is {}, but this is rank {}'s ET",
                                                               send ? info.src : info.dst, rank));
      if (info.src == info.dst) attrs.fail(send ? "comm_dst" : "comm_src", "a rank does not send to itself");
      info.tag = static_cast<int>(attrs.integer("comm_tag", INT32_MIN, INT32_MAX).value_or(0));
      info.bytes = static_cast<double>(attrs.integer("comm_size", 0, kMaxChakraCount).value_or(0));
      break;
    }
    default:
      break;
  }
  return info;
}

// One task being formed: the task and the (rank, node index) pairs it stands for.
struct ChakraUnit {
  StepTask task;
  std::vector<std::pair<int, uint32_t>> members;
  uint64_t key_id = 0;  // ordering among ready tasks: (smallest node id, its rank)
  int key_rank = 0;
};

class GraphBuilder {
 public:
  GraphBuilder(const std::vector<ChakraRankTrace>& ranks, bool follow_ctrl_deps)
      : ranks_(ranks), follow_ctrl_deps_(follow_ctrl_deps) {}
  const ChakraReadStats& stats() const { return stats_; }

  StepGraph build() {
    decode();
    form_units();
    link();
    return order();
  }

 private:
  const Node& node(int r, uint32_t i) const { return ranks_[r].et.nodes[i]; }
  [[noreturn]] void fail_at(int r, uint32_t i, std::string_view field, const std::string& message) const {
    ChakraNodeAttrs(node(r, i), ranks_[r].path).fail(field, message);
  }

  void decode() {
    const int n = static_cast<int>(ranks_.size());
    info_.resize(n);
    ids_.resize(n);
    for (int r = 0; r < n; ++r) {
      const auto& nodes = ranks_[r].et.nodes;
      for (uint32_t i = 0; i < nodes.size(); ++i) {
        if (!ids_[r].emplace(nodes[i].id(), i).second)
          fail_at(r, i, "id", fmt::format("duplicate node id (also node message {})", ids_[r][nodes[i].id()] + 1));
        info_[r].push_back(decode_node(nodes[i], r, n, ranks_[r].path));
        if (info_[r].back().host) ++stats_.host_nodes;
        ++stats_.nodes;
      }
    }
  }

  uint32_t add_unit(StepTask task, std::vector<std::pair<int, uint32_t>> members) {
    const auto index = static_cast<uint32_t>(units_.size());
    ChakraUnit u{std::move(task), std::move(members), UINT64_MAX, 0};
    for (const auto& [r, i] : u.members) {
      unit_of_[r][i] = index;
      const auto key = std::make_pair(node(r, i).id(), r);
      if (key < std::make_pair(u.key_id, u.key_rank)) std::tie(u.key_id, u.key_rank) = key;
    }
    units_.push_back(std::move(u));
    return index;
  }

  void form_units() {
    const int n = static_cast<int>(ranks_.size());
    unit_of_.resize(n);
    std::map<std::string, std::vector<std::vector<uint32_t>>> collectives;  // pg -> rank -> nodes
    std::map<std::tuple<int, int, int>, std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> p2p;
    for (int r = 0; r < n; ++r) {
      unit_of_[r].assign(info_[r].size(), UINT32_MAX);
      for (uint32_t i = 0; i < info_[r].size(); ++i) {
        const auto& in = info_[r][i];
        StepTask t;
        t.label = node(r, i).name();
        t.rank = r;
        switch (in.role) {
          case Role::compute:
            t.kind = StepTask::Kind::compute;
            t.kernel.name = t.label;
            t.kernel.flops = in.flops;
            t.kernel.dram_bytes = in.dram_bytes;
            t.kernel.max_sms = in.max_sms;
            if (in.flops == 0 && in.dram_bytes == 0) t.kernel.solo_s = in.duration_s;
            add_unit(std::move(t), {{r, i}});
            break;
          case Role::delay:
            t.kind = StepTask::Kind::delay;
            t.delay_s = in.duration_s;
            add_unit(std::move(t), {{r, i}});
            break;
          case Role::collective: {
            auto& per_rank = collectives[in.pg];
            per_rank.resize(n);
            per_rank[r].push_back(i);
            break;
          }
          case Role::send: p2p[{in.src, in.dst, in.tag}].first.push_back(i); break;
          case Role::recv: p2p[{in.src, in.dst, in.tag}].second.push_back(i); break;
        }
      }
    }
    for (const auto& [pg, per_rank] : collectives) match_collectives(pg, per_rank);
    for (const auto& [key, nodes] : p2p) match_sends(std::get<0>(key), std::get<1>(key), nodes.first, nodes.second);
  }

  void match_collectives(const std::string& pg, const std::vector<std::vector<uint32_t>>& per_rank) {
    const int n = static_cast<int>(per_rank.size());
    int first = 0;
    while (per_rank[first].empty()) ++first;
    std::vector<int> members = info_[first][per_rank[first][0]].pg_ranks;
    if (members.empty())
      for (int r = 0; r < n; ++r)
        if (!per_rank[r].empty()) members.push_back(r);
    const auto group_text = fmt::format("process group '{}'", pg);
    for (int r = 0; r < n; ++r)
      if (!per_rank[r].empty() && std::find(members.begin(), members.end(), r) == members.end())
        fail_at(r, per_rank[r][0], "pg_ranks",
                fmt::format("rank {} holds a collective of {}, whose members are [{}]", r, group_text,
                            fmt::join(members, ", ")));
    size_t count = 0;
    for (const int m : members) count = std::max(count, per_rank[m].size());
    for (size_t k = 0; k < count; ++k) {
      // The member that has the k-th collective, to cite when another lacks it.
      int holder = members[0];
      for (const int m : members)
        if (per_rank[m].size() > k) { holder = m; break; }
      const auto& ref = info_[holder][per_rank[holder][k]];
      std::vector<std::pair<int, uint32_t>> nodes;
      for (const int m : members) {
        if (per_rank[m].size() <= k)
          fail_at(holder, per_rank[holder][k], "pg_name",
                  fmt::format("unmatched collective: it is collective {} of {} on rank {}, but rank {} has "
                              "only {}", k + 1, group_text, holder, m, per_rank[m].size()));
        const uint32_t i = per_rank[m][k];
        const auto& in = info_[m][i];
        const auto mismatch = [&](std::string_view field, std::string what) {
          fail_at(m, i, field, fmt::format("{} differs from its match on rank {} (node id {}, collective {} of {})",
                                           what, holder, node(holder, per_rank[holder][k]).id(), k + 1, group_text));
        };
        if (in.comm_type != ref.comm_type) mismatch("comm_type", fmt::format("comm_type {}", in.comm_type));
        if (in.bytes != ref.bytes) mismatch("comm_size", fmt::format("comm_size {}", in.bytes));
        if (!in.pg_ranks.empty() && in.pg_ranks != members) mismatch("pg_ranks", "pg_ranks");
        nodes.emplace_back(m, i);
      }
      StepTask t;
      t.kind = StepTask::Kind::collective;
      t.label = node(nodes[0].first, nodes[0].second).name();
      t.rank = members[0];
      t.op = ref.op;
      t.group = members;
      t.bytes = ref.bytes;
      add_unit(std::move(t), std::move(nodes));
    }
  }

  void match_sends(int src, int dst, const std::vector<uint32_t>& sends, const std::vector<uint32_t>& recvs) {
    const size_t pairs = std::min(sends.size(), recvs.size());
    if (sends.size() != recvs.size()) {
      const bool extra_send = sends.size() > recvs.size();
      fail_at(extra_send ? src : dst, extra_send ? sends[pairs] : recvs[pairs], extra_send ? "comm_dst" : "comm_src",
              fmt::format("unmatched {}: {} {} of rank {} to rank {} (this tag) has no matching {} on rank {}",
                          extra_send ? "send" : "receive", extra_send ? "send" : "receive", pairs + 1, src, dst,
                          extra_send ? "receive" : "send", extra_send ? dst : src));
    }
    for (size_t k = 0; k < pairs; ++k) {
      const auto& s = info_[src][sends[k]];
      const auto& r = info_[dst][recvs[k]];
      if (s.bytes != r.bytes)
        fail_at(dst, recvs[k], "comm_size",
                fmt::format("comm_size {} differs from its send's {} (rank {} node id {})", r.bytes, s.bytes, src,
                            node(src, sends[k]).id()));
      StepTask t;
      t.kind = StepTask::Kind::send;
      t.label = node(src, sends[k]).name();
      t.rank = src;
      t.peer = dst;
      t.bytes = s.bytes;
      add_unit(std::move(t), {{src, sends[k]}, {dst, recvs[k]}});
    }
  }

  void link() {
    for (uint32_t u = 0; u < units_.size(); ++u) {
      auto& deps = units_[u].task.deps;
      for (const auto& member : units_[u].members) {
        const int r = member.first;  // named, not bound: clang 14 cannot capture structured bindings
        const uint32_t i = member.second;
        const auto& nd = node(r, i);
        const auto add = [&](uint64_t id, std::string_view field) {
          const auto it = ids_[r].find(id);
          if (it == ids_[r].end())
            fail_at(r, i, field, fmt::format("names node id {}, which is not in this ET (dangling dependency)", id));
          if (it->second == i) fail_at(r, i, field, "the node depends on itself (a cycle)");
          if (unit_of_[r][it->second] != u) deps.push_back(unit_of_[r][it->second]);
        };
        for (const auto id : nd.data_deps()) add(id, "data_deps");
        if (follow_ctrl_deps_)
          for (const auto id : nd.ctrl_deps()) add(id, "ctrl_deps");
        else
          stats_.ignored_ctrl_deps += static_cast<size_t>(nd.ctrl_deps_size());
      }
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
    }
  }

  // Kahn's algorithm, the ready task with the smallest (node id, rank) first.
  StepGraph order() {
    const auto count = static_cast<uint32_t>(units_.size());
    std::vector<uint32_t> waiting(count);
    std::vector<std::vector<uint32_t>> dependents(count);
    for (uint32_t u = 0; u < count; ++u) {
      waiting[u] = static_cast<uint32_t>(units_[u].task.deps.size());
      for (const auto d : units_[u].task.deps) dependents[d].push_back(u);
    }
    using Entry = std::tuple<uint64_t, int, uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    for (uint32_t u = 0; u < count; ++u)
      if (waiting[u] == 0) ready.emplace(units_[u].key_id, units_[u].key_rank, u);
    std::vector<uint32_t> position(count, UINT32_MAX);
    StepGraph graph;
    graph.ranks = static_cast<int>(ranks_.size());
    graph.tasks.reserve(count);
    while (!ready.empty()) {
      const uint32_t u = std::get<2>(ready.top());
      ready.pop();
      position[u] = static_cast<uint32_t>(graph.tasks.size());
      graph.tasks.push_back(std::move(units_[u].task));
      for (const auto v : dependents[u])
        if (--waiting[v] == 0) ready.emplace(units_[v].key_id, units_[v].key_rank, v);
    }
    if (graph.tasks.size() != count) report_cycle(position);
    for (auto& t : graph.tasks) {
      for (auto& d : t.deps) d = position[d];
      std::sort(t.deps.begin(), t.deps.end());
    }
    return graph;
  }

  // Some task never became ready: walk back through unfinished dependencies until one repeats.
  [[noreturn]] void report_cycle(const std::vector<uint32_t>& position) const {
    uint32_t u = 0;
    while (position[u] != UINT32_MAX) ++u;
    std::vector<bool> seen(units_.size(), false);
    while (!seen[u]) {
      seen[u] = true;
      for (const auto d : units_[u].task.deps)
        if (position[d] == UINT32_MAX) { u = d; break; }
    }
    const auto [r, i] = units_[u].members[0];
    fail_at(r, i, "data_deps",
            units_[u].members.size() > 1
                ? "is on a dependency cycle (through the ranks its communication is matched with)"
                : "is on a dependency cycle");
  }

  const std::vector<ChakraRankTrace>& ranks_;
  bool follow_ctrl_deps_;
  std::vector<std::vector<ChakraNodeInfo>> info_;
  std::vector<std::unordered_map<uint64_t, uint32_t>> ids_;
  std::vector<std::vector<uint32_t>> unit_of_;
  std::vector<ChakraUnit> units_;
  ChakraReadStats stats_;
};

}  // namespace

StepGraph step_graph_of_chakra(const std::vector<ChakraRankTrace>& ranks, const ChakraReadOptions& options,
                               ChakraReadStats* stats) {
  if (ranks.empty()) throw InputError({}, "", "a Chakra trace set needs at least one rank");
  if (ranks.size() > static_cast<size_t>(kMaxChakraRanks))
    throw InputError({ranks[0].path, 0, 0}, "", fmt::format("{} ranks: at most {}", ranks.size(), kMaxChakraRanks));
  GraphBuilder builder(ranks, options.follow_ctrl_deps);
  auto graph = builder.build();
  if (stats != nullptr) *stats = builder.stats();
  return graph;
}

std::vector<ChakraRankTrace> read_chakra_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw InputError({dir, 0, 0}, "", "not a directory (a Chakra trace is a folder of NAME.<rank>.et files)");
  std::string name;
  std::map<int, std::string> paths;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.size() < 4 || file.substr(file.size() - 3) != ".et") continue;
    const std::string stem = file.substr(0, file.size() - 3);
    const auto dot = stem.rfind('.');
    const std::string digits = dot == std::string::npos ? "" : stem.substr(dot + 1);
    if (dot == 0 || digits.empty() || digits.size() > 5 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      throw InputError({entry.path().string(), 0, 0}, "", "an ET's name must be NAME.<rank>.et");
    const int rank = std::stoi(digits);
    const std::string this_name = stem.substr(0, dot);
    if (name.empty()) name = this_name;
    if (this_name != name)
      throw InputError({entry.path().string(), 0, 0}, "",
                       fmt::format("two trace names in one folder: '{}' and '{}'", name, this_name));
    if (!paths.emplace(rank, entry.path().string()).second || rank >= kMaxChakraRanks)
      throw InputError({entry.path().string(), 0, 0}, "", "a rank given twice or over the limit");
  }
  if (ec) throw InputError({dir, 0, 0}, "", "cannot list the folder: " + ec.message());
  if (paths.empty()) throw InputError({dir, 0, 0}, "", "no NAME.<rank>.et file in the folder");
  std::vector<ChakraRankTrace> ranks;
  for (const auto& [rank, path] : paths) {
    if (rank != static_cast<int>(ranks.size()))
      throw InputError({dir, 0, 0}, "",
                       fmt::format("missing rank {}: no {}.{}.et (ranks found: {} up to {})", ranks.size(), name,
                                   ranks.size(), paths.begin()->first, paths.rbegin()->first));
    ranks.push_back({path, parse_chakra_et(inflate_chakra_et(read_input_text(path), path), path)});
  }
  return ranks;
}

}  // namespace parallax
