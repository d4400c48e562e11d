// File: tests/property/platform_invariants_test.cpp
// Invariants of SimPlatform under random machines and random transfer/collective workloads
// (random_machine.h, random_workload.h). For each seed, after the run:
//  * every request is accounted for: each copy and collective completes exactly once, and the
//    platform has no activity left (started == finished, no link direction still active);
//  * no constraint is over its capacity: after every issue and every completion, once the solver
//    has re-solved at that instant, usage(c) <= capacity(c) * (1 + 1e-9) for every constraint c
//    (between a start and the solve the new activity has no rate yet, so usage means nothing);
//  * time never decreases from one callback to the next, and nothing completes before it began;
//  * each copy takes at least its lower bound: route latency + bytes / slowest direction on its
//    route (and the GPU's copy-engine capacity, when it has one);
//  * the same seed gives the same completion times twice (determinism within a process).
// A failure names the seed; rerun one with PARALLAX_PROPERTY_SEED=N, or more seeds with
// PARALLAX_PROPERTY_RUNS=N (default 200 per machine shape).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "tests/property/property_seeds.h"
#include "tests/property/random_machine.h"
#include "tests/property/random_workload.h"

namespace parallax::property {
namespace {

// Issues the workload at its start times and checks the invariants at every callback.
class CheckingDriver final : public CompletionListener, private EventHandler {
 public:
  CheckingDriver(Engine& engine, SimPlatform& platform, const RandomWorkload& w)
      : engine_(engine), platform_(platform), w_(w) {
    const size_t n = w.copies.size() + w.collectives.size();
    completions_.assign(n, 0);
    finish_.assign(n, Time::zero());
  }

  void start() {
    for (size_t i = 0; i < completions_.size(); ++i) platform_.call_at(start_of(i), *this, kIssue | i);
  }

  void on_complete(uint64_t tag) override {
    const Time now = platform_.now();
    if (now < last_callback_) ADD_FAILURE() << "time went back from " << last_callback_.ps() << " to " << now.ps() << " ps";
    last_callback_ = now;
    const size_t i = tag & ~kIssue;
    if (tag & kIssue) {
      issue(i);
    } else {
      ++completions_.at(i);
      finish_[i] = now;
      if (now < start_of(i)) ADD_FAILURE() << "item " << i << " finished before it was issued";
    }
    check_capacities_after_solve();
  }

  const std::vector<int>& completions() const { return completions_; }
  const std::vector<Time>& finish() const { return finish_; }
  uint64_t capacity_checks() const { return capacity_checks_; }

 private:
  static constexpr uint64_t kIssue = uint64_t{1} << 63;
  // The platform solves at priority 255, the last at an instant; a check queued behind it at the
  // same priority runs after the solve, and queues itself again if something dirtied the solver
  // in between.
  static constexpr Priority kAfterSolve = 255;

  void check_capacities_after_solve() {
    if (check_pending_) return;
    check_pending_ = true;
    engine_.schedule_at(engine_.now(), *this, 0, kAfterSolve);
  }
  void handle_event(uint64_t) override {
    if (platform_.solve_due()) {
      engine_.schedule_at(engine_.now(), *this, 0, kAfterSolve);
      return;
    }
    check_pending_ = false;
    check_capacities();
  }

  Time start_of(size_t i) const {
    return i < w_.copies.size() ? w_.copies[i].start : w_.collectives[i - w_.copies.size()].start;
  }

  void issue(size_t i) {
    if (i < w_.copies.size()) {
      const RandomCopy& c = w_.copies[i];
      platform_.copy(c.src, c.dst, Bytes(c.bytes), *this, i);
    } else {
      const RandomCollective& c = w_.collectives[i - w_.copies.size()];
      platform_.collective(c.op, c.group, Bytes(c.bytes), CollectiveAlgo::ring, *this, i);
    }
  }

  void check_capacities() {
    const FlowSolver& s = platform_.solver();
    for (ConstraintId c = 0; c < s.constraint_count(); ++c) {
      ++capacity_checks_;
      if (s.usage(c) > s.capacity(c) * (1 + 1e-9))
        ADD_FAILURE() << "constraint " << c << " at " << platform_.now().ps() << " ps: usage " << s.usage(c)
                      << " > capacity " << s.capacity(c);
    }
  }

  Engine& engine_;
  SimPlatform& platform_;
  const RandomWorkload& w_;
  bool check_pending_ = false;
  std::vector<int> completions_;
  std::vector<Time> finish_;
  Time last_callback_;
  uint64_t capacity_checks_ = 0;
};

// route latency + bytes / slowest bandwidth along the route (copy engines included).
Time copy_lower_bound(SimPlatform& platform, const RandomCopy& c) {
  if (c.src == c.dst) return Time::zero();  // within one GPU: HBM-bound, no route
  Topology& topo = platform.topology();
  auto node = [&](Endpoint e) { return e.kind == Endpoint::Kind::gpu ? topo.gpu_node(e.index) : topo.host_node(e.index); };
  const Topology::Route& r = topo.route(node(c.src), node(c.dst));
  double slowest = 0;
  for (uint32_t d : r.directions) {
    const double bw = topo.directions()[d].bandwidth_Bps;
    slowest = slowest == 0 ? bw : std::min(slowest, bw);
  }
  // SimPlatform gives each GPU one copy-engine constraint per direction of capacity
  // copy_engines * copy_engine_Bps, which a lone copy may use in full (sim_platform.cpp).
  for (Endpoint e : {c.src, c.dst}) {
    if (e.kind != Endpoint::Kind::gpu || platform.gpu(e.index).copy_engine_Bps <= 0) continue;
    const GpuSpec& g = platform.gpu(e.index);
    slowest = std::min(slowest, g.copy_engine_Bps * std::max(1, g.copy_engines));
  }
  return r.latency + Time::seconds(static_cast<double>(c.bytes) / slowest);
}

struct RunResult {
  std::vector<Time> finish;
  uint64_t capacity_checks = 0;
};

RunResult run_one(MachineShape shape, uint64_t seed) {
  RandomStreams streams(seed);
  const HardwareSpec spec = random_machine(shape, streams.stream("machine"));
  const RandomWorkload w =
      random_workload(static_cast<int>(spec.gpus.size()), static_cast<int>(spec.hosts.size()), streams.stream("workload"));

  Engine engine;
  SimPlatform platform(engine, spec);
  CheckingDriver driver(engine, platform, w);
  driver.start();
  engine.run();

  for (size_t i = 0; i < driver.completions().size(); ++i)
    EXPECT_EQ(driver.completions()[i], 1) << "item " << i << " completed " << driver.completions()[i] << " times";
  EXPECT_EQ(platform.activities_started(), platform.activities_finished());
  EXPECT_EQ(engine.pending(), 0u);
  EXPECT_EQ(platform.solver().active_flows(), 0u);
  for (const auto& u : platform.link_usage()) EXPECT_EQ(u.active, 0);
  if (!driver.completions().empty()) {
    EXPECT_GT(driver.capacity_checks(), 0u);
  }

  for (size_t i = 0; i < w.copies.size(); ++i) {
    const RandomCopy& c = w.copies[i];
    const Time took = driver.finish()[i] - c.start;
    const Time bound = copy_lower_bound(platform, c);
    // 2 ps: the solver rounds each finish to the nearest picosecond, the bound rounds once more.
    EXPECT_GE(took.ps() + 2 + static_cast<int64_t>(bound.ps() * 1e-9), bound.ps())
        << "copy " << i << " (" << c.bytes << " bytes) took " << took.ps() << " ps, below its lower bound";
  }
  return {driver.finish(), driver.capacity_checks()};
}

void run_seeds(MachineShape shape) {
  const SeedRange seeds = property_seeds(200);
  const uint64_t first = seeds.first, last = seeds.last;
  uint64_t items = 0, checks = 0;
  for (uint64_t seed = first; seed <= last; ++seed) {
    SCOPED_TRACE(seed_note(seed, "machine " + to_string(shape) + ", "));
    const RunResult a = run_one(shape, seed);
    const RunResult b = run_one(shape, seed);
    EXPECT_EQ(a.finish, b.finish) << "two runs of one seed differ";
    if (::testing::Test::HasFailure()) return;  // the first failing seed is the useful one
    items += a.finish.size();
    checks += a.capacity_checks;
  }
  std::printf("%s: seeds %llu..%llu, %llu requests, %llu constraint checks\n", to_string(shape).c_str(),
              static_cast<unsigned long long>(first), static_cast<unsigned long long>(last),
              static_cast<unsigned long long>(items), static_cast<unsigned long long>(checks));
}

TEST(PlatformInvariants, Crossbar) { run_seeds(MachineShape::crossbar); }
TEST(PlatformInvariants, PairsAndSwitches) { run_seeds(MachineShape::pairs_and_switches); }
TEST(PlatformInvariants, LeafSpine) { run_seeds(MachineShape::leaf_spine); }
TEST(PlatformInvariants, RandomGraph) { run_seeds(MachineShape::random_graph); }

}  // namespace
}  // namespace parallax::property
