// File: sim/workload/chakra_writer.cpp
#include "sim/workload/chakra_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "sim/report/atomic_file.h"

namespace parallax {

namespace {

using ChakraProtoMsg::Node;

ChakraProtoMsg::CollectiveCommType comm_type_of(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return ChakraProtoMsg::ALL_REDUCE;
    case CollectiveOp::all_gather: return ChakraProtoMsg::ALL_GATHER;
    case CollectiveOp::reduce_scatter: return ChakraProtoMsg::REDUCE_SCATTER;
    case CollectiveOp::all_to_all: return ChakraProtoMsg::ALL_TO_ALL;
    case CollectiveOp::broadcast: return ChakraProtoMsg::BROADCAST;
    case CollectiveOp::reduce: return ChakraProtoMsg::REDUCE;
    case CollectiveOp::send_recv: break;
  }
  throw std::invalid_argument("a send_recv collective is written as a send task, not COMM_COLL_NODE");
}

void add_int(Node& n, const char* name, int64_t v) {
  auto* a = n.add_attr();
  a->set_name(name);
  a->set_int64_val(v);
}

void set_duration(Node& n, double seconds) {
  n.set_duration_micros(static_cast<uint64_t>(std::llround(seconds * 1e6)));
  auto* a = n.add_attr();
  a->set_name("duration_s");
  a->set_double_val(seconds);
}

// The ranks a task has a node on.
std::vector<int> ranks_of(const StepTask& t) {
  switch (t.kind) {
    case StepTask::Kind::collective: return t.group;
    case StepTask::Kind::send: return {t.rank, t.peer};
    default: return {t.rank};
  }
}

}  // namespace

std::vector<ChakraEtFile> chakra_ets_of(const StepGraph& graph) {
  std::vector<ChakraEtFile> ets(graph.ranks);
  for (auto& et : ets) {
    et.metadata.set_version("0.0.4");
    auto* a = et.metadata.add_attr();
    a->set_name("generator");
    a->set_string_val("parallax");
  }
  std::map<std::vector<int>, int> pg_index;
  std::vector<std::vector<int>> task_ranks(graph.tasks.size());
  const auto check_rank = [&](int r, size_t i) {
    if (r < 0 || r >= graph.ranks)
      throw std::invalid_argument(fmt::format("task {} names rank {} of {}", i, r, graph.ranks));
  };
  for (size_t i = 0; i < graph.tasks.size(); ++i) {
    const StepTask& t = graph.tasks[i];
    // An overlap schedule's ring-step copies and comm-partition kernels have no Chakra node kind.
    if (t.kind == StepTask::Kind::copies || t.kind == StepTask::Kind::join || t.on_comm_partition)
      throw std::invalid_argument(fmt::format("task {} ('{}'): a {} has no Chakra node", i, t.label,
                                              t.on_comm_partition                  ? "comm-partition kernel"
                                              : t.kind == StepTask::Kind::join ? "join task"
                                                                                   : "copies task"));
    task_ranks[i] = ranks_of(t);
    if (t.kind == StepTask::Kind::send && t.peer == t.rank)
      throw std::invalid_argument(fmt::format("task {} sends to its own rank {}", i, t.rank));
    for (const int r : task_ranks[i]) check_rank(r, i);
    auto sorted = task_ranks[i];
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty() || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw std::invalid_argument(fmt::format("task {} has an empty group or names a rank twice", i));
    for (const int r : task_ranks[i]) {
      Node& n = ets[r].nodes.emplace_back();
      n.set_id(i);
      n.set_name(t.label);
      auto deps = t.deps;  // ascending: the reader's order, so a set read and written back is unchanged
      std::sort(deps.begin(), deps.end());
      for (const auto d : deps) {
        if (d >= i) throw std::invalid_argument(fmt::format("task {} depends on later task {}", i, d));
        const auto& dr = task_ranks[d];
        if (std::find(dr.begin(), dr.end(), r) != dr.end()) n.add_data_deps(d);
      }
      switch (t.kind) {
        case StepTask::Kind::compute:
          n.set_type(ChakraProtoMsg::COMP_NODE);
          if (t.kernel.solo_s > 0) set_duration(n, t.kernel.solo_s);
          if (t.kernel.flops > 0) add_int(n, "num_ops", std::llround(t.kernel.flops));
          if (t.kernel.dram_bytes > 0) add_int(n, "tensor_size", std::llround(t.kernel.dram_bytes));
          if (t.kernel.max_sms > 0) add_int(n, "max_sms", t.kernel.max_sms);
          break;
        case StepTask::Kind::delay: {
          n.set_type(ChakraProtoMsg::COMP_NODE);
          set_duration(n, t.delay_s);
          auto* a = n.add_attr();
          a->set_name("is_cpu_op");
          a->set_bool_val(true);
          break;
        }
        case StepTask::Kind::collective: {
          n.set_type(ChakraProtoMsg::COMM_COLL_NODE);
          add_int(n, "comm_type", comm_type_of(t.op));
          add_int(n, "comm_size", std::llround(t.bytes));
          const int pg = pg_index.emplace(t.group, static_cast<int>(pg_index.size())).first->second;
          auto* name = n.add_attr();
          name->set_name("pg_name");
          name->set_string_val(fmt::format("pg{}", pg));
          auto* members = n.add_attr();
          members->set_name("pg_ranks");
          for (const int m : t.group) members->mutable_int64_list()->add_values(m);
          break;
        }
        case StepTask::Kind::send:
          n.set_type(r == t.rank ? ChakraProtoMsg::COMM_SEND_NODE : ChakraProtoMsg::COMM_RECV_NODE);
          add_int(n, "comm_src", t.rank);
          add_int(n, "comm_dst", t.peer);
          add_int(n, "comm_tag", static_cast<int64_t>(i % (uint64_t{1} << 31)));
          add_int(n, "comm_size", std::llround(t.bytes));
          break;
        case StepTask::Kind::copies:
        case StepTask::Kind::join: break;  // refused above
      }
    }
    // A dependency that has no node on any rank of this task cannot be written.
    for (const auto d : t.deps) {
      bool shared = false;
      for (const int r : task_ranks[i])
        shared = shared || std::find(task_ranks[d].begin(), task_ranks[d].end(), r) != task_ranks[d].end();
      if (!shared)
        throw std::invalid_argument(
            fmt::format("task {} ('{}') depends on task {} ('{}'), which shares no rank with it", i, t.label, d,
                        graph.tasks[d].label));
    }
  }
  return ets;
}

std::vector<std::string> write_chakra_dir(const StepGraph& graph, const std::string& dir, const std::string& name) {
  const auto ets = chakra_ets_of(graph);
  std::vector<std::string> paths;
  for (size_t r = 0; r < ets.size(); ++r) {
    const auto path = std::filesystem::path(dir) / fmt::format("{}.{}.et", name, r);
    write_file_atomically(path, serialize_chakra_et(ets[r]));
    paths.push_back(path.string());
  }
  return paths;
}

}  // namespace parallax
