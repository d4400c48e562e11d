// File: sim/policies/step_graph/step_graph_run_test.cpp
// StepGraphRun on hand-checkable graphs: timers and solo_s kernels give exact times, so the
// summary's partition of the step (compute / exposed comm / idle) is known in advance.
#include "sim/policies/step_graph/step_graph_run.h"

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

StepTask kernel_of(int rank, double solo_s, std::vector<uint32_t> deps) {
  StepTask t;
  t.kind = StepTask::Kind::compute;
  t.rank = rank;
  t.kernel = KernelProfile{"k", 0.0, 0.0, 0, solo_s};
  t.deps = std::move(deps);
  return t;
}

StepTask delay_of(int rank, double s, std::vector<uint32_t> deps) {
  StepTask t;
  t.kind = StepTask::Kind::delay;
  t.rank = rank;
  t.delay_s = s;
  t.deps = std::move(deps);
  return t;
}

TEST(StepGraphRun, ChainOfDelaysAcrossRanksLeavesTheOtherRankIdle) {
  // rank 0: 1 ms, then rank 1: 2 ms after it. Step 3 ms; rank 0 idle 2 ms, rank 1 idle 1 ms.
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraph g;
  g.ranks = 2;
  g.tasks = {delay_of(0, 1e-3, {}), delay_of(1, 2e-3, {0})};
  StepGraphRun run(hw, g);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  const StepSummary s = step_summary(g, run);
  EXPECT_NEAR(s.step_time_s, 3e-3, 1e-12);
  EXPECT_NEAR(s.ranks[0].compute_s, 1e-3, 1e-12);
  EXPECT_NEAR(s.ranks[0].idle_s, 2e-3, 1e-12);
  EXPECT_NEAR(s.ranks[1].compute_s, 2e-3, 1e-12);
  EXPECT_NEAR(s.ranks[1].idle_s, 1e-3, 1e-12);
  EXPECT_NEAR((run.task_start(1) - run.task_finish(0)).to_seconds(), 0, 1e-12);
}

TEST(StepGraphRun, CommunicationUnderComputeIsNotExposed) {
  // rank 0 computes 10 ms while a small all-reduce over ranks 0..7 runs: it is hidden on rank 0,
  // exposed on ranks 1..7 (which compute nothing).
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraph g;
  g.ranks = 8;
  StepTask ar;
  ar.kind = StepTask::Kind::collective;
  ar.op = CollectiveOp::all_reduce;
  ar.group = {0, 1, 2, 3, 4, 5, 6, 7};
  ar.bytes = 64e6;
  g.tasks = {delay_of(0, 10e-3, {}), ar};
  StepGraphRun run(hw, g);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  const StepSummary s = step_summary(g, run);
  const double ar_s = (run.task_finish(1) - run.task_start(1)).to_seconds();
  ASSERT_GT(ar_s, 0);
  ASSERT_LT(ar_s, 10e-3);
  EXPECT_NEAR(s.step_time_s, 10e-3, 1e-12);
  EXPECT_NEAR(s.ranks[0].exposed_comm_s, 0, 1e-12);
  EXPECT_NEAR(s.ranks[3].exposed_comm_s, ar_s, 1e-12);
  EXPECT_NEAR(s.ranks[3].idle_s, 10e-3 - ar_s, 1e-12);
}

TEST(StepGraphRun, KernelsOnOneGpuShareItAndASendWaitsForItsProducer) {
  // Two 1 ms kernels on rank 0 at once share the GPU: both end at 2 ms. The send then starts.
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraph g;
  g.ranks = 2;
  StepTask send;
  send.kind = StepTask::Kind::send;
  send.rank = 0;
  send.peer = 1;
  send.bytes = 1e6;
  send.deps = {0, 1};
  g.tasks = {kernel_of(0, 1e-3, {}), kernel_of(0, 1e-3, {}), send};
  StepGraphRun run(hw, g);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  EXPECT_NEAR(run.task_finish(0).to_seconds(), 2e-3, 1e-6);
  EXPECT_EQ(run.task_start(2), std::max(run.task_finish(0), run.task_finish(1)));
  EXPECT_GT(run.task_finish(2), run.task_start(2));
  const StepSummary s = step_summary(g, run);
  EXPECT_NEAR(s.ranks[1].exposed_comm_s, (run.task_finish(2) - run.task_start(2)).to_seconds(), 1e-12);
}

TEST(StepGraphRun, RejectsMalformedGraphs) {
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraph forward_dep;
  forward_dep.ranks = 1;
  forward_dep.tasks = {delay_of(0, 1e-3, {0})};
  EXPECT_THROW(StepGraphRun(hw, forward_dep), std::invalid_argument);
  StepGraph bad_rank;
  bad_rank.ranks = 1;
  bad_rank.tasks = {delay_of(3, 1e-3, {})};
  EXPECT_THROW(StepGraphRun(hw, bad_rank), std::invalid_argument);
  StepGraph self_send;
  self_send.ranks = 2;
  StepTask s;
  s.kind = StepTask::Kind::send;
  s.rank = 1;
  s.peer = 1;
  self_send.tasks = {s};
  EXPECT_THROW(StepGraphRun(hw, self_send), std::invalid_argument);
}

double run_alone_s(const StepGraph& g, uint32_t task) {
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraphRun run(hw, g);
  run.start();
  engine.run();
  EXPECT_TRUE(run.finished());
  return (run.task_finish(task) - run.task_start(task)).to_seconds();
}

TEST(StepGraphRun, ACopiesTaskEndsWithItsLastCopyAndAJoinWithItsLastDependency) {
  // Two copies of B over one link direction share it: longer than one copy of B, and the task
  // is communication on both ranks. A join after kernels of 1 ms and 2 ms finishes at 2 ms,
  // taking no time, and what waits on it starts then.
  StepTask copies;
  copies.kind = StepTask::Kind::copies;
  copies.copies = {{0, 1, 64e6, 0}, {0, 1, 64e6, 0}};
  StepGraph two;
  two.ranks = 2;
  two.tasks = {copies};
  StepGraph one = two;
  one.tasks[0].copies.pop_back();
  const double t2 = run_alone_s(two, 0), t1 = run_alone_s(one, 0);
  EXPECT_GT(t1, 0);
  EXPECT_GT(t2, 1.5 * t1);
  StepTask join;
  join.kind = StepTask::Kind::join;
  join.deps = {0, 1};
  StepGraph g;
  g.ranks = 2;
  g.tasks = {kernel_of(0, 1e-3, {}), kernel_of(1, 2e-3, {}), join, delay_of(0, 1e-3, {2}), copies};
  g.tasks[4].deps = {2};
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraphRun run(hw, g);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  EXPECT_NEAR(run.task_start(2).to_seconds(), 2e-3, 1e-9);
  EXPECT_EQ(run.task_finish(2), run.task_start(2));
  EXPECT_EQ(run.task_start(3), run.task_finish(2));
  const StepSummary s = step_summary(g, run);
  const double copy_s = (run.task_finish(4) - run.task_start(4)).to_seconds();
  EXPECT_NEAR(copy_s, t2, 1e-12);
  EXPECT_NEAR(s.ranks[1].exposed_comm_s, copy_s, 1e-12);  // rank 1 receives, computing nothing then
}

TEST(StepGraphRun, CommPartitionKernelsRunBesideTheMainPool) {
  // comm_sms reserves a partition on every rank's GPU: a memory kernel there runs beside a
  // compute kernel on the rest; without a partition such a task is refused, as is a copy to itself.
  StepGraph g;
  g.ranks = 1;
  g.comm_sms = 16;
  StepTask hbm = kernel_of(0, 0, {});
  hbm.kernel = KernelProfile{"hbm", 0.0, 1e9, 0};
  hbm.on_comm_partition = true;
  StepTask gemm = kernel_of(0, 0, {});
  gemm.kernel = KernelProfile{"gemm", 1e14, 0.0, 0};
  g.tasks = {gemm, hbm};
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraphRun run(hw, g);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  EXPECT_GT(run.task_finish(1), run.task_start(1));
  EXPECT_LT(run.task_finish(1), run.task_finish(0));  // 1 GB of HBM against 100 TFLOP
  const StepSummary s = step_summary(g, run);
  EXPECT_NEAR(s.ranks[0].compute_s, (run.task_finish(0) - run.task_start(0)).to_seconds(), 1e-12);
  g.comm_sms = 0;
  EXPECT_THROW(StepGraphRun(hw, g), std::invalid_argument);
  StepGraph self_copy;
  self_copy.ranks = 2;
  StepTask c;
  c.kind = StepTask::Kind::copies;
  c.copies = {{1, 1, 1e6, 0}};
  self_copy.tasks = {c};
  EXPECT_THROW(StepGraphRun(hw, self_copy), std::invalid_argument);
}

}  // namespace
}  // namespace parallax
