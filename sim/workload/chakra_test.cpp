// File: sim/workload/chakra_test.cpp
// The Chakra writer and reader: a StepGraph written as ETs reads back as the same graph; each kind
// of bad trace is an InputError naming the file, the node id and the field.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "sim/io/input_error.h"
#include "sim/workload/chakra_reader.h"
#include "sim/workload/chakra_writer.h"
#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

StepTask task(StepTask::Kind kind, int rank, std::string label, std::vector<uint32_t> deps) {
  StepTask t;
  t.kind = kind;
  t.rank = rank;
  t.label = std::move(label);
  t.deps = std::move(deps);
  return t;
}

// Four ranks: work- and time-described compute, a host delay, a collective whose ring order is not
// ascending, a world all-gather, a send, dependencies that cross ranks through them.
StepGraph sample_graph() {
  StepGraph g;
  g.ranks = 4;
  auto gemm = task(StepTask::Kind::compute, 0, "r0.gemm", {});
  gemm.kernel = {"r0.gemm", 2.0 * 1024 * 1024 * 1024, 3 * 2.0 * 1024 * 1024, 0, 0};
  g.tasks.push_back(gemm);                                                     // 0
  auto timed = task(StepTask::Kind::compute, 1, "r1.timed", {});
  timed.kernel = {"r1.timed", 0, 0, 64, 1.234567e-3};
  g.tasks.push_back(timed);                                                    // 1
  auto host = task(StepTask::Kind::delay, 2, "r2.host", {});
  host.delay_s = 2.5e-6;
  g.tasks.push_back(host);                                                     // 2
  auto tp = task(StepTask::Kind::collective, 1, "tp.allreduce", {0, 1});
  tp.op = CollectiveOp::all_reduce;
  tp.group = {1, 0};
  tp.bytes = 1 << 20;
  g.tasks.push_back(tp);                                                       // 3
  auto send = task(StepTask::Kind::send, 1, "pp.send", {3, 2});
  send.peer = 2;
  send.bytes = 4096;
  g.tasks.push_back(send);                                                     // 4
  auto world = task(StepTask::Kind::collective, 0, "dp.allgather", {3, 4});
  world.op = CollectiveOp::all_gather;
  world.group = {0, 1, 2, 3};
  world.bytes = 8 << 20;
  g.tasks.push_back(world);                                                    // 5
  auto after = task(StepTask::Kind::compute, 3, "r3.after", {5});
  after.kernel = {"r3.after", 1e9, 1e6, 0, 0};
  g.tasks.push_back(after);                                                    // 6
  return g;
}

std::vector<ChakraRankTrace> traces_of(const std::vector<ChakraEtFile>& ets) {
  std::vector<ChakraRankTrace> out;
  for (size_t r = 0; r < ets.size(); ++r)
    out.push_back({"t." + std::to_string(r) + ".et",
                   parse_chakra_et(serialize_chakra_et(ets[r]), "t." + std::to_string(r) + ".et")});
  return out;
}

void expect_same(const StepGraph& a, const StepGraph& b) {
  ASSERT_EQ(a.ranks, b.ranks);
  ASSERT_EQ(a.tasks.size(), b.tasks.size());
  for (size_t i = 0; i < a.tasks.size(); ++i) {
    SCOPED_TRACE("task " + std::to_string(i));
    const auto &x = a.tasks[i], &y = b.tasks[i];
    EXPECT_EQ(x.kind, y.kind);
    EXPECT_EQ(x.label, y.label);
    auto dx = x.deps, dy = y.deps;
    std::sort(dx.begin(), dx.end());
    std::sort(dy.begin(), dy.end());
    EXPECT_EQ(dx, dy);
    switch (x.kind) {
      case StepTask::Kind::compute:
        EXPECT_EQ(x.rank, y.rank);
        EXPECT_EQ(x.kernel.flops, y.kernel.flops);
        EXPECT_EQ(x.kernel.dram_bytes, y.kernel.dram_bytes);
        EXPECT_EQ(x.kernel.max_sms, y.kernel.max_sms);
        EXPECT_EQ(x.kernel.solo_s, y.kernel.solo_s);
        break;
      case StepTask::Kind::delay:
        EXPECT_EQ(x.rank, y.rank);
        EXPECT_EQ(x.delay_s, y.delay_s);
        break;
      case StepTask::Kind::collective:
        EXPECT_EQ(x.op, y.op);
        EXPECT_EQ(x.group, y.group);
        EXPECT_EQ(x.bytes, y.bytes);
        break;
      case StepTask::Kind::copies:
      case StepTask::Kind::join:
        ADD_FAILURE() << "a Chakra graph has no copies or join task";
        break;
      case StepTask::Kind::send:
        EXPECT_EQ(x.rank, y.rank);
        EXPECT_EQ(x.peer, y.peer);
        EXPECT_EQ(x.bytes, y.bytes);
        break;
    }
  }
}

// The message of the InputError `f` throws.
template <class F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError";
  return "";
}

TEST(Chakra, RoundTripInMemory) {
  const auto g = sample_graph();
  expect_same(g, step_graph_of_chakra(traces_of(chakra_ets_of(g))));
}

TEST(Chakra, RoundTripThroughAFolder) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "chakra_round_trip";
  std::filesystem::remove_all(dir);
  const auto g = sample_graph();
  const auto paths = write_chakra_dir(g, dir.string(), "step");
  ASSERT_EQ(paths.size(), 4u);
  EXPECT_EQ(std::filesystem::path(paths[3]).filename(), "step.3.et");
  expect_same(g, step_graph_of_chakra(read_chakra_dir(dir.string())));
  std::filesystem::remove_all(dir);
}

TEST(Chakra, WriterMarksNodesTheWayChakraNamesThem) {
  const auto ets = chakra_ets_of(sample_graph());
  // Rank 1 holds its compute, the TP all-reduce, the send and the world all-gather.
  ASSERT_EQ(ets[1].nodes.size(), 4u);
  EXPECT_EQ(ets[1].nodes[1].type(), ChakraProtoMsg::COMM_COLL_NODE);
  EXPECT_EQ(ets[1].nodes[2].type(), ChakraProtoMsg::COMM_SEND_NODE);
  EXPECT_EQ(ets[2].nodes[1].type(), ChakraProtoMsg::COMM_RECV_NODE);
  EXPECT_EQ(ets[1].nodes[0].duration_micros(), 1235u);
  // Rank 2's receive depends on its delay only (the TP collective is not on rank 2).
  EXPECT_EQ(std::vector<uint64_t>(ets[2].nodes[1].data_deps().begin(), ets[2].nodes[1].data_deps().end()),
            std::vector<uint64_t>{2});
}

TEST(Chakra, ADependencyThatSharesNoRankIsRefusedByTheWriter) {
  StepGraph g;
  g.ranks = 2;
  g.tasks.push_back(task(StepTask::Kind::delay, 0, "a", {}));
  g.tasks.push_back(task(StepTask::Kind::delay, 1, "b", {0}));
  EXPECT_THROW(chakra_ets_of(g), std::invalid_argument);
}

TEST(Chakra, TruncatedFileNamesTheMessage) {
  const auto bytes = serialize_chakra_et(chakra_ets_of(sample_graph())[0]);
  const auto msg = input_error_of([&] { parse_chakra_et(bytes.substr(0, bytes.size() - 3), "x.0.et"); });
  EXPECT_NE(msg.find("x.0.et: truncated file: node message 3"), std::string::npos) << msg;
  EXPECT_NE(input_error_of([&] { parse_chakra_et("", "x.0.et"); }).find("empty file"), std::string::npos);
  EXPECT_NE(input_error_of([&] { parse_chakra_et("\xff\xff\xff\xff\xff\xff", "x.0.et"); }).find("length prefix"),
            std::string::npos);
}

TEST(Chakra, MalformedNodeMessageSaysWhatProtobufSaid) {
  ChakraEtFile et;
  auto& n = et.nodes.emplace_back();
  n.set_id(3);
  n.set_name("NAME");
  std::string bytes = serialize_chakra_et(et);
  bytes[bytes.find("NAME")] = '\xff';  // not UTF-8 in a proto3 string
  const auto msg = input_error_of([&] { parse_chakra_et(bytes, "u.0.et"); });
  EXPECT_NE(msg.find("u.0.et: malformed node message 1 at byte "), std::string::npos) << msg;
  // (The lite runtime, chakra_et_def.proto, does not name the field: the full one did.)
  EXPECT_NE(msg.find("(protobuf: String field contains invalid UTF-8"), std::string::npos) << msg;
}

TEST(Chakra, GzipCompressedEtsAreInflated) {
  const auto bytes = serialize_chakra_et(chakra_ets_of(sample_graph())[0]);
  const auto dir = std::filesystem::path(testing::TempDir()) / "chakra_gzip";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "plain") << bytes;
  }
  ASSERT_EQ(std::system(("gzip -9 -n -c " + (dir / "plain").string() + " > " + (dir / "z.gz").string()).c_str()), 0);
  std::ifstream in(dir / "z.gz", std::ios::binary);
  const std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(inflate_chakra_et(gz, "z.0.et"), bytes);
  EXPECT_EQ(inflate_chakra_et(bytes, "z.0.et"), bytes);  // not compressed: unchanged
  const auto msg = input_error_of([&] { inflate_chakra_et(gz.substr(0, gz.size() / 2), "z.0.et"); });
  EXPECT_NE(msg.find("z.0.et: corrupt or truncated gzip stream"), std::string::npos) << msg;
  std::filesystem::remove_all(dir);
}

TEST(Chakra, BadNodeType) {
  auto ets = chakra_ets_of(sample_graph());
  ets[2].nodes[0].set_type(static_cast<ChakraProtoMsg::NodeType>(42));
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("t.2.et: node id 2 ('r2.host'): type: bad node type 42"), std::string::npos) << msg;
}

TEST(Chakra, DanglingDependency) {
  auto ets = chakra_ets_of(sample_graph());
  ets[3].nodes[1].add_data_deps(77);
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("t.3.et: node id 6 ('r3.after'): data_deps: names node id 77"), std::string::npos) << msg;
}

TEST(Chakra, CtrlDepsAreFollowedOnlyWhenAsked) {
  auto ets = chakra_ets_of(sample_graph());
  ets[3].nodes[1].add_ctrl_deps(77);
  ChakraReadStats stats;
  const auto g = step_graph_of_chakra(traces_of(ets), {}, &stats);
  EXPECT_EQ(stats.ignored_ctrl_deps, 1u);
  EXPECT_EQ(stats.nodes, 12u);
  EXPECT_EQ(stats.host_nodes, 1u);
  EXPECT_EQ(g.tasks.size(), 7u);
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets), {.follow_ctrl_deps = true}); });
  EXPECT_NE(msg.find("t.3.et: node id 6 ('r3.after'): ctrl_deps: names node id 77"), std::string::npos) << msg;
  // Followed, a ctrl_dep orders like a data_dep: rank 0's GEMM after its all-gather closes a cycle.
  auto cyclic = chakra_ets_of(sample_graph());
  cyclic[0].nodes[0].add_ctrl_deps(5);
  EXPECT_NO_THROW(step_graph_of_chakra(traces_of(cyclic)));
  EXPECT_NE(input_error_of([&] { step_graph_of_chakra(traces_of(cyclic), {.follow_ctrl_deps = true}); })
                .find("dependency cycle"),
            std::string::npos);
}

TEST(Chakra, UnmatchedCollective) {
  auto ets = chakra_ets_of(sample_graph());
  ets[3].nodes.erase(ets[3].nodes.begin());  // rank 3's part of the world all-gather
  ets[3].nodes[0].clear_data_deps();
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("node id 5 ('dp.allgather'): pg_name: unmatched collective"), std::string::npos) << msg;
  EXPECT_NE(msg.find("rank 3 has only 0"), std::string::npos) << msg;
}

TEST(Chakra, MismatchedCollectiveSize) {
  auto ets = chakra_ets_of(sample_graph());
  for (auto& a : *ets[2].nodes[2].mutable_attr())
    if (a.name() == "comm_size") a.set_int64_val(5);
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("t.2.et: node id 5 ('dp.allgather'): comm_size: comm_size 5 differs"), std::string::npos)
      << msg;
}

TEST(Chakra, UnmatchedSend) {
  auto ets = chakra_ets_of(sample_graph());
  ets[2].nodes.erase(ets[2].nodes.begin() + 1);  // the receive
  ets[2].nodes[1].clear_data_deps();
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("t.1.et: node id 4 ('pp.send'): comm_dst: unmatched send"), std::string::npos) << msg;
}

TEST(Chakra, CycleWithinARank) {
  auto ets = chakra_ets_of(sample_graph());
  ets[0].nodes[0].add_data_deps(5);  // the GEMM waits for the all-gather that waits for it
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("is on a dependency cycle"), std::string::npos) << msg;
}

TEST(Chakra, CycleAcrossRanksThroughMatchedCollectives) {
  // Collectives A (ring 0,1) and B (ring 1,0: another process group): rank 0 runs A then B, rank 1
  // B then A. Each waits for the other: a deadlock that only the matching across ranks shows.
  StepGraph g;
  g.ranks = 2;
  for (const auto* name : {"A", "B"}) {
    auto t = task(StepTask::Kind::collective, 0, name, {});
    t.group = {0, 1};
    t.bytes = 64;
    g.tasks.push_back(t);
  }
  g.tasks[1].group = {1, 0};
  g.tasks[1].deps = {0};
  auto ets = chakra_ets_of(g);
  ets[1].nodes[1].clear_data_deps();
  ets[1].nodes[0].add_data_deps(1);
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("is on a dependency cycle (through the ranks its communication is matched with)"),
            std::string::npos) << msg;
}

TEST(Chakra, DuplicateNodeId) {
  auto ets = chakra_ets_of(sample_graph());
  ets[1].nodes[1].set_id(1);
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("t.1.et: node id 1 ('tp.allreduce'): id: duplicate node id"), std::string::npos) << msg;
}

TEST(Chakra, MissingRankInAFolder) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "chakra_missing_rank";
  std::filesystem::remove_all(dir);
  const auto paths = write_chakra_dir(sample_graph(), dir.string(), "step");
  std::filesystem::remove(paths[2]);
  const auto msg = input_error_of([&] { read_chakra_dir(dir.string()); });
  EXPECT_NE(msg.find("missing rank 2: no step.2.et"), std::string::npos) << msg;
  std::filesystem::remove_all(dir);
}

TEST(Chakra, PeerOutsideTheRanks) {
  auto ets = chakra_ets_of(sample_graph());
  for (auto& a : *ets[1].nodes[2].mutable_attr())
    if (a.name() == "comm_dst") a.set_int64_val(9);
  const auto msg = input_error_of([&] { step_graph_of_chakra(traces_of(ets)); });
  EXPECT_NE(msg.find("t.1.et: node id 4 ('pp.send'): comm_dst: 9 is outside [0, 3]"), std::string::npos) << msg;
}

// Chakra's own feeder test trace (traces/chakra/README.md), an ET Chakra's PyTorch converter
// wrote. The expected counts come from an independent walk of the raw protobuf fields (a Python
// varint decoder, no schema code; traces/chakra/README.md): 3,664 nodes, 3,643 COMP_NODE and 21
// COMM_COLL_NODE, 2,448 of them is_cpu_op; the GPU COMP nodes' durations sum to 292,828 us; the
// GPU collectives are 5 ALL_REDUCE and 2 BROADCAST.
TEST(Chakra, ReadsAnEtWrittenByChakrasConverter) {
  ChakraReadStats stats;
  const auto g = step_graph_of_chakra(read_chakra_dir(testing_files::source_path("traces/chakra/chakra_feeder_test")),
                                      {}, &stats);
  EXPECT_EQ(g.ranks, 1);
  EXPECT_EQ(stats.nodes, 3664u);
  EXPECT_EQ(stats.host_nodes, 2448u);
  ASSERT_EQ(g.tasks.size(), 3664u);
  int all_reduce = 0, broadcast = 0;
  double compute_s = 0;
  for (const auto& t : g.tasks) {
    if (t.kind == StepTask::Kind::collective) {
      EXPECT_EQ(t.group, std::vector<int>{0});
      all_reduce += t.op == CollectiveOp::all_reduce;
      broadcast += t.op == CollectiveOp::broadcast;
    }
    if (t.kind == StepTask::Kind::compute) compute_s += t.kernel.solo_s;
  }
  EXPECT_EQ(all_reduce, 5);
  EXPECT_EQ(broadcast, 2);
  EXPECT_NEAR(compute_s, 0.292828, 1e-9);
}

// The shipped sample (traces/chakra/gpt_tp2_pp2_dp2, written by chakra_sample_writer): 8 ranks;
// per data-parallel replica 2 micro-batches x 4 layers x 2 passes x 2 TP all-reduces = 32, so 64
// TP all-reduces, plus 4 gradient all-reduces; 2 replicas x 2 micro-batches x 2 directions x 2 TP
// ranks = 16 sends. Read and written again it gives the same bytes.
TEST(Chakra, ShippedSampleReadsAndWritesBackUnchanged) {
  const auto dir = testing_files::source_path("traces/chakra/gpt_tp2_pp2_dp2");
  const auto ranks = read_chakra_dir(dir);
  const auto g = step_graph_of_chakra(ranks);
  EXPECT_EQ(g.ranks, 8);
  int collectives = 0, sends = 0;
  for (const auto& t : g.tasks) {
    collectives += t.kind == StepTask::Kind::collective;
    sends += t.kind == StepTask::Kind::send;
  }
  EXPECT_EQ(collectives, 68);
  EXPECT_EQ(sends, 16);
  const auto ets = chakra_ets_of(g);
  ASSERT_EQ(ets.size(), ranks.size());
  for (size_t r = 0; r < ets.size(); ++r)
    EXPECT_EQ(serialize_chakra_et(ets[r]), serialize_chakra_et(ranks[r].et)) << "rank " << r;
}

}  // namespace
}  // namespace parallax
