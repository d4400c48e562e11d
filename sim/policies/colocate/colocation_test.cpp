// File: sim/policies/colocate/colocation_test.cpp
// Colocation policies on a SimPlatform with one H200-like GPU (132 SMs, 989 TFLOP/s, 4.8 TB/s).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <numeric>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/colocate/colocation_node.h"
#include "sim/policies/colocate/colocation_presets.h"
#include "sim/policies/colocate/sgdrc_colocation.h"
#include "sim/platform/test_machines.h"

namespace parallax {
namespace {

struct Outcome {
  ColocationMetrics m;
  double ls_solo_s = 0;
  std::vector<ActivityRecord> records;
  std::vector<ColocationKernelNote> notes;
  std::vector<std::pair<std::string, double>> stats;  // the policy's
  double stat(const std::string& key) const {
    for (const auto& [k, v] : stats)
      if (k == key) return v;
    return -1;
  }
};

// LS: a compute-bound kernel needing 40 SMs and a memory-bound one needing 20; BE: a big
// compute-bound kernel (need 400) and a memory-bound one.
ColocationSetup setup_for(const GpuPartitioning& parts) {
  ColocationSetup s;
  s.gpu.gpu = 0;
  s.gpu.rates = DeviceRates{132, 989e12, 4.8e12, 0, 0.75, 0};
  s.gpu.partitioning = &parts;
  s.ls_kernels = {{"ls/a", {3e9, 1e6, 40, 1}}, {"ls/b", {1e6, 2e9, 20, 1}}};
  s.be_kernels = {{"be/a", {2e12, 1e8, 400, 1}}, {"be/b", {1e9, 4e9, 264, 1}}};
  s.ls_slo = Time::ms(5);
  s.be_stop = Time::ms(100);
  return s;
}

Outcome run(std::string_view policy_name, const std::vector<Time>& arrivals, ColocationPolicyOptions o = {},
            bool interference = false, double bw_per_sm_Bps = 0, Time ls_slo = Time::ms(5),
            const std::function<void(ColocationSetup&)>& edit = {}) {
  static const GpuPartitioning parts = test_machines::h200_partitioning();
  o.mig_ls = {"4g.71gb", 0};
  o.mig_be = {"3g.71gb", 4};
  Engine engine;
  ActivityLog log;
  SimPlatform platform(engine, test_machines::one_h200(0, bw_per_sm_Bps), &log);
  auto policy = make_colocation_policy(policy_name, o);
  ColocationSetup s = setup_for(parts);
  s.interference_on = interference;
  s.gpu.rates.bw_per_sm_Bps = bw_per_sm_Bps;
  s.ls_slo = ls_slo;
  if (edit) edit(s);
  s.record_kernels = true;
  ColocationNode node(platform, *policy, s);
  node.start(arrivals);
  engine.run();
  return {node.metrics(), node.ls_request_solo_s(), log.records, node.kernel_notes(), policy->stats()};
}

std::vector<Time> spaced(int n, Time gap) {
  std::vector<Time> out;
  for (int i = 0; i < n; ++i) out.push_back(gap * (i + 1));
  return out;
}

// LS alone: every request takes exactly the sum of its kernels' solo times (no queueing when
// requests are 10 ms apart): ls/a 3e9 FLOP on its 40 SMs at η 0.75, ls/b 2 GB at 4.8 TB/s.
TEST(Colocation, LsAloneEqualsSumOfSoloKernelTimes) {
  const Outcome r = run("ls_alone", spaced(5, Time::ms(10)));
  ASSERT_EQ(r.m.ls_finished, 5);
  for (double l : r.m.ls_latencies_s) EXPECT_NEAR(l, r.ls_solo_s, 1e-9);
  EXPECT_NEAR(r.ls_solo_s, 3e9 / (0.75 * 989e12 * 40 / 132) + 2e9 / 4.8e12, 1e-15);
  EXPECT_EQ(r.m.be_kernels, 0);
}

// Static split 64/64 on 132 SMs: LS kernels run in partition "ls" with 64 SMs (both need < 64,
// unchanged); a BE kernel needing 400 blocks runs in "be" at exactly 64/132 of the GPU with the
// wave factor of 64 SMs: 7 waves (448 slots for 400 blocks).
TEST(Colocation, StaticSplitGivesExactlyThePartitionedShares) {
  ColocationPolicyOptions o;
  o.static_ls_sms = 64;
  const Outcome r = run("static_split", {}, o);
  ASSERT_FALSE(r.records.empty());
  const ActivityRecord& first = r.records.front();
  EXPECT_EQ(first.name, "be/a");
  EXPECT_EQ(first.partition, "be");
  const double expected = 2e12 / 0.75 * (7.0 * 64 / 400) / (989e12 * 64 / 132);
  EXPECT_NEAR((first.end - first.start).to_seconds(), expected, 1e-9);
}

TEST(Colocation, RequestsAreNeverLostUnderAnyPolicy) {
  std::vector<Time> arrivals;
  for (int i = 0; i < 200; ++i) arrivals.push_back(Time::us(137) * i + Time::us(i % 3));
  for (std::string_view name : colocation_policy_names()) {
    const Outcome r = run(name, arrivals);
    EXPECT_EQ(r.m.ls_arrived, 200) << name;
    EXPECT_EQ(r.m.ls_finished, 200) << name;
    if (name != "ls_alone") {
      EXPECT_GT(r.m.be_kernels, 0) << name;
    }
  }
}

// SGDRC's offline profile on the hand case: LS alone takes 13.3 us (ls/a, 40 SMs) + 417 us
// (ls/b, 2 GB at 4.8 TB/s). On one TPC (2 SMs) ls/a takes 267 us and ls/b 3.33 / 1.67 / 1.11 ms
// with 1 / 2 / 3 of 8 colours: L(1, c) = 3.60, 1.93, 1.38 ms. The budget is the largest service
// time an M/D/1 queue at the LS load serves within the 5 ms SLO for 99 % of requests: 5 ms with
// no load, 2.04 ms at 100 req/s, 1.64 ms at 200 req/s (Erlang's formula, solved by hand), so LS
// gets one TPC with 1, 2 and 3 colours.
TEST(Colocation, SgdrcAllocationIsTheFewestTpcsThenColoursMeetingTheSloWithQueueing) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  ColocationSetup s = setup_for(parts);
  const auto allocate = [&](double rate, Time slo, double target = 0.99) {
    Engine engine;
    SimPlatform platform(engine, test_machines::one_h200());
    SgdrcColocation sgdrc;
    sgdrc.plan({s.ls_kernels, slo, target, {rate, 1.0}, 0, {}});
    sgdrc.setup(platform, s.gpu);
    return std::make_pair(sgdrc.allocation(), sgdrc.latency_budget_s());
  };
  const double ls_a = 3e9 / (0.75 * 989e12 * 2 / 132);
  const auto [idle, idle_budget] = allocate(0, Time::ms(5));
  EXPECT_DOUBLE_EQ(idle_budget, 5e-3);
  EXPECT_TRUE(idle.meets);
  EXPECT_EQ(idle.tpcs, 1);
  EXPECT_EQ(idle.colours, 1);
  const auto [mid, mid_budget] = allocate(100, Time::ms(5));
  EXPECT_NEAR(mid_budget, 2.0378e-3, 5e-7);
  EXPECT_EQ(mid.tpcs, 1);
  EXPECT_EQ(mid.colours, 2);
  EXPECT_NEAR(mid.latency_s, ls_a + 2e9 / (4.8e12 * 2 / 8), 1e-12);
  const auto [busy, busy_budget] = allocate(200, Time::ms(5));
  EXPECT_NEAR(busy_budget, 1.6379e-3, 5e-7);
  EXPECT_EQ(busy.colours, 3);
  // A laxer target leaves more of the SLO to service: back to 2 colours at 200 req/s.
  EXPECT_EQ(allocate(200, Time::ms(5), 0.5).first.colours, 2);
  // A 0.6 ms SLO is out of reach with BE keeping a TPC and a colour: LS gets that maximum.
  const auto [tight, tight_budget] = allocate(100, Time::us(600));
  EXPECT_FALSE(tight.meets);
  EXPECT_EQ(tight.tpcs, 65);
  EXPECT_EQ(tight.colours, 7);
}

// The wait of a request that finds LS idle, by hand: BE's kernels are pure memory traffic on the
// 130 SMs LS leaves it (1 ms and 2 ms at 4.8 TB/s) and one on 20 SMs (1 ms), which stays clear of
// the 40 SMs of LS's first kernel. A random instant waits the residual of the kernel it falls in
// when that kernel is in the way: (1·0.5 + 2·1 + 1·0) / 4 = 0.625 ms. With no load every request
// finds LS idle, so the budget is the SLO less that wait.
TEST(Colocation, SgdrcBudgetCountsTheBeKernelInFlight) {
  const GpuPartitioning parts = test_machines::h200_partitioning();
  ColocationSetup s = setup_for(parts);
  s.be_kernels = {{"be/1ms", {0, 4.8e9, 264, 1}}, {"be/2ms", {0, 9.6e9, 264, 1}}, {"be/small", {0, 4.8e9, 20, 1}}};
  Engine engine;
  SimPlatform platform(engine, test_machines::one_h200());
  SgdrcColocation sgdrc;
  sgdrc.plan({s.ls_kernels, Time::ms(5), 0.99, {0, 1.0}, 0, s.be_kernels});
  sgdrc.setup(platform, s.gpu);
  double wait = -1;
  for (const auto& [k, v] : sgdrc.stats())
    if (k == "ls_idle_wait_s") wait = v;
  EXPECT_NEAR(wait, 0.625e-3, 1e-12);
  EXPECT_LE(sgdrc.latency_budget_s(), 5e-3 - 0.625e-3);
  EXPECT_GT(sgdrc.latency_budget_s(), 5e-3 - 0.625e-3 - 5e-7);
}

// SGDRC runs each LS kernel on its allocation: ls/a on the one TPC (2 of its 40 SMs: 20x its solo
// time, in 20 full waves), ls/b with its 2 of 8 colours, since BE's memory-bound kernel contends
// for bandwidth whenever it runs (4x its solo time), although BE runs all the time.
TEST(Colocation, SgdrcLsKernelsRunOnTheirAllocation) {
  for (const SgdrcEviction e : {SgdrcEviction::kernel, SgdrcEviction::block}) {
    ColocationPolicyOptions o;
    o.sgdrc_eviction = e;
    const Outcome alone = run("ls_alone", spaced(20, Time::ms(3)));
    const Outcome sgdrc = run("sgdrc", spaced(20, Time::ms(3)), o);
    ASSERT_EQ(sgdrc.m.ls_finished, 20);
    const auto duration_of = [](const Outcome& r, const std::string& name) {
      for (const ActivityRecord& a : r.records)
        if (a.name == name) return (a.end - a.start).to_seconds();
      return -1.0;
    };
    EXPECT_NEAR(duration_of(sgdrc, "ls/a"), duration_of(alone, "ls/a") * 20, 1e-12);
    EXPECT_NEAR(duration_of(sgdrc, "ls/b"), duration_of(alone, "ls/b") * 4, 1e-12);
    EXPECT_GT(sgdrc.m.be_kernels, 10);
    EXPECT_LE(sgdrc.m.ls_p99_latency_s, 5e-3);  // the profile's budget keeps it within the SLO here
    // Every LS kernel ran in the LS partition, every BE kernel in the BE one.
    for (const ActivityRecord& a : sgdrc.records)
      EXPECT_EQ(a.partition, a.name.rfind("ls/", 0) == 0 ? "sgdrc-ls" : "sgdrc-be") << a.name;
  }
}

// Colours go to LS only while BE contends for bandwidth, and colouring moves BE's pages: with a BE
// job that reads no DRAM, ls/b streams at the whole HBM (its solo time) and nothing migrates; with
// the usual BE (its memory-bound be/b contends) every busy period colours LS once (2 of 8
// colours) and copies 2/8 of BE's 800 MB, on and off.
TEST(Colocation, SgdrcColoursOnlyUnderContentionAndPaysTheMigration) {
  const auto be_resident = [](ColocationSetup& s) { s.be_resident_bytes = 8e8; };
  const auto compute_be = [](ColocationSetup& s) {
    s.be_resident_bytes = 8e8;
    s.be_kernels = {{"be/c", {2e12, 0, 400, 1}}};
  };
  const Outcome alone = run("ls_alone", spaced(20, Time::ms(3)));
  const Outcome quiet = run("sgdrc", spaced(20, Time::ms(3)), {}, false, 0, Time::ms(5), compute_be);
  ASSERT_EQ(quiet.m.ls_finished, 20);
  EXPECT_GT(quiet.m.be_kernels, 0);
  EXPECT_EQ(quiet.stat("colour_changes"), 0);
  EXPECT_EQ(quiet.stat("migrated_bytes"), 0);
  double ls_b_alone = 0;
  for (const ActivityRecord& a : alone.records)
    if (a.name == "ls/b") ls_b_alone = (a.end - a.start).to_seconds();
  for (const ActivityRecord& a : quiet.records)
    if (a.name == "ls/b") {
      EXPECT_NEAR((a.end - a.start).to_seconds(), ls_b_alone, 1e-12);
    }
  const Outcome busy = run("sgdrc", spaced(20, Time::ms(3)), {}, false, 0, Time::ms(5), be_resident);
  ASSERT_EQ(busy.m.ls_finished, 20);
  EXPECT_EQ(busy.stat("colour_changes"), 40);  // on and off in each of the 20 busy periods
  EXPECT_DOUBLE_EQ(busy.stat("migrated_bytes"), 20 * 8e8 * 2 / 8);
  int migrations = 0;
  for (const ActivityRecord& a : busy.records) migrations += a.name == "sgdrc colour migration";
  EXPECT_EQ(migrations, 20);
}

// The bound: BE never delays an LS kernel beyond one BE kernel boundary. Kernel eviction:
// an LS kernel that waited was launched exactly when a BE kernel ended, and waited less than that
// kernel's duration. Block eviction: it waited one wave of the BE kernel in its way, less still.
// The LS arrivals fall while BE kernels run (BE starts at 0, LS every 0.7 ms); the 0.6 ms SLO
// gives LS the largest allocation, so its first kernel takes TPCs BE holds.
TEST(Colocation, SgdrcDelaysLsByAtMostOneBeKernel) {
  for (const SgdrcEviction e : {SgdrcEviction::kernel, SgdrcEviction::block}) {
    ColocationPolicyOptions o;
    o.sgdrc_eviction = e;
    const Outcome r = run("sgdrc", spaced(40, Time::us(700)), o, false, 0, Time::us(600));
    ASSERT_EQ(r.m.ls_finished, 40);
    std::map<uint64_t, const ActivityRecord*> by_id;
    for (const ActivityRecord& a : r.records) by_id[a.id] = &a;
    int waited = 0;
    for (const ColocationKernelNote& n : r.notes) {
      if (!n.ls || n.wait_s == 0) continue;
      ++waited;
      const ActivityRecord& ls = *by_id.at(n.activity);
      const Time placed = ls.issued - Time::seconds(n.wait_s);  // when it was first placed (±1 ps)
      const ActivityRecord* be = nullptr;  // the BE kernel in the LS kernel's way
      for (const ActivityRecord& a : r.records)
        if (a.name.rfind("be/", 0) == 0 && a.start <= placed + Time::ns(1) && a.end + Time::ns(1) >= placed) be = &a;
      ASSERT_NE(be, nullptr);
      EXPECT_LE(n.wait_s, (be->end - be->start).to_seconds() * (1 + 1e-9));
      if (e == SgdrcEviction::kernel) {
        EXPECT_EQ(ls.issued, be->end);
      }
    }
    EXPECT_GT(waited, 0) << "no LS kernel ever found BE in its way: the test proves nothing";
  }
}

// Temporal multiplexing: BE never runs while an LS request is in service, and an LS request waits
// at most for the BE kernel in flight.
TEST(Colocation, TemporalNeverOverlapsLsAndBe) {
  const Outcome r = run("temporal", spaced(40, Time::us(700)));
  ASSERT_EQ(r.m.ls_finished, 40);
  EXPECT_GT(r.m.be_kernels, 0);
  for (const ActivityRecord& ls : r.records) {
    if (ls.name.rfind("ls/", 0) != 0) continue;
    for (const ActivityRecord& be : r.records)
      if (be.name.rfind("be/", 0) == 0) {
        EXPECT_TRUE(be.end <= ls.start || be.start >= ls.end) << ls.id << " " << be.id;
      }
  }
}

// The per-SM bandwidth cap: a memory-bound kernel on s SMs moves at most s·bw_per_SM, so alone
// on 20 SMs with 50 GB/s each, 2 GB take 2 ms instead of 2e9 / 4.8e12 = 0.42 ms.
TEST(Colocation, PerSmBandwidthCapBoundsFewSms) {
  const Outcome capped = run("ls_alone", spaced(1, Time::ms(1)), {}, false, 50e9);
  const Outcome free = run("ls_alone", spaced(1, Time::ms(1)), {}, false, 0);
  const auto duration_of = [](const Outcome& r, const std::string& name) {
    for (const ActivityRecord& a : r.records)
      if (a.name == name) return (a.end - a.start).to_seconds();
    return -1.0;
  };
  EXPECT_NEAR(duration_of(free, "ls/b"), 2e9 / 4.8e12, 1e-12);
  EXPECT_NEAR(duration_of(capped, "ls/b"), 2e9 / (20 * 50e9), 1e-12);
}

// Every kernel's SM cap and partition fit in the device: the partitions the policies create never
// reserve more SMs than the GPU has (SimPlatform throws otherwise) and no kernel asks for more.
TEST(Colocation, SmSharesNeverExceedTheDevice) {
  std::vector<Time> arrivals;
  for (int i = 0; i < 100; ++i) arrivals.push_back(Time::us(301) * i);
  for (std::string_view name : colocation_policy_names()) {
    const Outcome r = run(name, arrivals);
    for (const ColocationKernelNote& n : r.notes) {
      EXPECT_GE(n.sms, 1) << name;
      EXPECT_LE(n.sms, 132) << name;
    }
  }
}

// Naive MPS sharing slows LS down against LS alone; MIG isolates but gives LS only 64 SMs.
TEST(Colocation, MpsSharingSlowsLs) {
  const Outcome alone = run("ls_alone", spaced(20, Time::ms(3)));
  const Outcome mps = run("mps", spaced(20, Time::ms(3)));
  EXPECT_GT(mps.m.ls_mean_latency_s, alone.m.ls_mean_latency_s * 1.05);
  const Outcome mig = run("mig", spaced(20, Time::ms(3)));
  EXPECT_EQ(mig.m.ls_finished, 20);
}

// The interference term stretches a kernel launched beside another (alpha > 1) when the two
// share the memory system (MPS), never under MIG. Request latency is not asserted: the term
// stretches BE kernels as well, and in this hand case LS's mean latency comes out ~4 % lower
// with it on (the longer BE kernels leave LS alone more often).
TEST(Colocation, InterferenceTermSlowsSharedButNotMig) {
  const Outcome off = run("mps", spaced(20, Time::ms(3)), {}, false);
  const Outcome on = run("mps", spaced(20, Time::ms(3)), {}, true);
  double ls_alpha_max = 1, off_alpha_max = 1;
  for (const ColocationKernelNote& n : on.notes)
    if (n.ls) ls_alpha_max = std::max(ls_alpha_max, n.alpha);
  for (const ColocationKernelNote& n : off.notes) off_alpha_max = std::max(off_alpha_max, n.alpha);
  EXPECT_GT(ls_alpha_max, 1.0);
  EXPECT_EQ(off_alpha_max, 1.0);
  const Outcome mig_off = run("mig", spaced(20, Time::ms(3)), {}, false);
  const Outcome mig_on = run("mig", spaced(20, Time::ms(3)), {}, true);
  EXPECT_EQ(mig_off.m.ls_latencies_s, mig_on.m.ls_latencies_s);
}

// SGDRC's colours split L2 with the DRAM channels: the interference term applies only to kernels
// launched while LS holds no colours. Hand case: BE runs a short kernel back to back (2e10 FLOP,
// 40 MB, 60 SMs: 59 us, demand 0.14 of HBM), clear of the 40 SMs of ls/a. ls/a (compute, demand
// 0.016) starts beside it without colouring (0.016 + 0.14 < 1), sharing L2: α = 1 + 0.1 · u_BE.
// ls/b (memory-bound, demand 1) starts beside it coloured: α = 1, as are the BE kernels launched
// while LS keeps its colours. Under MPS the same ls/b shares L2 and takes α > 1.
TEST(Colocation, SgdrcColoursIsolateL2) {
  const auto short_be = [](ColocationSetup& s) { s.be_kernels = {{"be/m", {2e10, 4e7, 60, 1}}}; };
  const DeviceRates rates{132, 989e12, 4.8e12, 0, 0.75, 0};
  const KernelShape be_m{2e10, 4e7, 60, 1};
  const double u_be = 4e7 / (kernel_time_s(be_m, rates, 132, 1.0) * 4.8e12);
  ASSERT_GT(u_be, 0.1);
  ASSERT_LT(u_be, 0.2);
  const auto alphas = [](const Outcome& r, const std::string& name) {
    std::map<ActivityId, std::string> names;
    for (const ActivityRecord& a : r.records) names[a.id] = a.name;
    std::vector<double> out;
    for (const ColocationKernelNote& n : r.notes)
      if (names.at(n.activity) == name) out.push_back(n.alpha);
    return out;
  };
  const Outcome sgdrc = run("sgdrc", spaced(20, Time::ms(3)), {}, true, 0, Time::ms(5), short_be);
  ASSERT_EQ(sgdrc.m.ls_finished, 20);
  EXPECT_GT(sgdrc.stat("colour_changes"), 0);
  int ls_a_shared = 0;
  for (double a : alphas(sgdrc, "ls/a")) {
    if (a > 1) {
      EXPECT_NEAR(a, 1 + 0.1 * u_be, 1e-12);
      ++ls_a_shared;
    }
  }
  EXPECT_GT(ls_a_shared, 0) << "ls/a never ran beside BE: the test proves nothing";
  for (double a : alphas(sgdrc, "ls/b")) EXPECT_EQ(a, 1.0);
  // BE kernels launched while ls/b runs (LS coloured) take none either.
  std::map<ActivityId, const ActivityRecord*> by_id;
  for (const ActivityRecord& a : sgdrc.records) by_id[a.id] = &a;
  int be_beside_ls_b = 0;
  for (const ColocationKernelNote& n : sgdrc.notes) {
    if (n.ls) continue;
    const Time launched = by_id.at(n.activity)->issued;
    for (const ActivityRecord& a : sgdrc.records)
      if (a.name == "ls/b" && a.start < launched && launched < a.end) {
        EXPECT_EQ(n.alpha, 1.0);
        ++be_beside_ls_b;
      }
  }
  EXPECT_GT(be_beside_ls_b, 0) << "no BE kernel started beside a coloured LS kernel: the test proves nothing";
  const Outcome mps = run("mps", spaced(20, Time::ms(3)), {}, true, 0, Time::ms(5), short_be);
  double mps_ls_b = 1;
  for (double a : alphas(mps, "ls/b")) mps_ls_b = std::max(mps_ls_b, a);
  EXPECT_NEAR(mps_ls_b, 1 + 0.1 * u_be, 1e-12);
}

TEST(Colocation, SameInputsSameOutputs) {
  const Outcome a = run("orion", spaced(50, Time::us(500)));
  const Outcome b = run("orion", spaced(50, Time::us(500)));
  EXPECT_EQ(a.m.ls_latencies_s, b.m.ls_latencies_s);
  EXPECT_EQ(a.m.be_kernels, b.m.be_kernels);
}

}  // namespace
}  // namespace parallax
