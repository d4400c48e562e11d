// File: sim/platform/flow_solver_test.cpp
// Max-min cases small enough to solve by hand (the expected shares are in each comment), then
// invariants on random systems: no capacity exceeded, every active flow has a positive rate, and
// the allocation is max-min fair (every flow is bottlenecked: it sits on a saturated constraint
// where no other flow gets more, or it runs at its own bound).
#include "sim/platform/flow_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "sim/engine/random_streams.h"
#include "sim/platform/indexed_heap.h"

namespace parallax {
namespace {

constexpr double kGB = 1e9;

FlowId start1(FlowSolver& s, std::vector<FlowElement> els, double amount, uint64_t tag,
              double bound = FlowSolver::kUnbounded) {
  return s.start(s.make_class(els, bound), amount, tag, Time::zero());
}

// One link of 10 GB/s, three flows: 10/3 each.
TEST(FlowSolver, SingleBottleneckSharesEqually) {
  FlowSolver s;
  ConstraintId l = s.add_constraint(10 * kGB);
  FlowId a = start1(s, {{l, 1}}, 1e9, 1);
  FlowId b = start1(s, {{l, 1}}, 1e9, 2);
  FlowId c = start1(s, {{l, 1}}, 1e9, 3);
  s.solve(Time::zero());
  for (FlowId f : {a, b, c}) EXPECT_DOUBLE_EQ(s.rate(f), 10 * kGB / 3);
  EXPECT_NEAR(s.usage(l), 10 * kGB, 1);
}

// Link A (10) carries f1, f2; link B (4) carries f2, f3.
// B saturates first: f2 = f3 = 2. Then A: f1 = 10 - 2 = 8.
TEST(FlowSolver, TwoBottlenecks) {
  FlowSolver s;
  ConstraintId A = s.add_constraint(10 * kGB), B = s.add_constraint(4 * kGB);
  FlowId f1 = start1(s, {{A, 1}}, 1e9, 1);
  FlowId f2 = start1(s, {{A, 1}, {B, 1}}, 1e9, 2);
  FlowId f3 = start1(s, {{B, 1}}, 1e9, 3);
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f1), 8 * kGB);
  EXPECT_DOUBLE_EQ(s.rate(f2), 2 * kGB);
  EXPECT_DOUBLE_EQ(s.rate(f3), 2 * kGB);
}

// Parking lot: links L1..L3 of capacity 1; the long flow crosses all three, one short flow on
// each link. Every link has two flows: all four get 1/2.
// With L2 at capacity 3 instead: L1 and L3 saturate at 1/2 (long, s1, s3 = 1/2), then s2 = 3 - 1/2.
TEST(FlowSolver, ParkingLot) {
  FlowSolver s;
  ConstraintId L1 = s.add_constraint(1), L2 = s.add_constraint(1), L3 = s.add_constraint(1);
  FlowId lg = start1(s, {{L1, 1}, {L2, 1}, {L3, 1}}, 10, 0);
  FlowId s1 = start1(s, {{L1, 1}}, 10, 1);
  FlowId s2 = start1(s, {{L2, 1}}, 10, 2);
  FlowId s3 = start1(s, {{L3, 1}}, 10, 3);
  s.solve(Time::zero());
  for (FlowId f : {lg, s1, s2, s3}) EXPECT_DOUBLE_EQ(s.rate(f), 0.5);
  s.set_capacity(L2, 3);
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(lg), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(s1), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(s3), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(s2), 2.5);
}

// A bound below the fair share: capacity 10, flows bounded at 1 and unbounded: 1 and 9.
TEST(FlowSolver, BoundBelowFairShare) {
  FlowSolver s;
  ConstraintId l = s.add_constraint(10);
  FlowId a = start1(s, {{l, 1}}, 100, 1, 1.0);
  FlowId b = start1(s, {{l, 1}}, 100, 2);
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(a), 1);
  EXPECT_DOUBLE_EQ(s.rate(b), 9);
}

// Weights: a kernel that needs 2 units of HBM per unit of rate and a copy needing 1, on a
// capacity of 9: both at level x with 2x + x = 9 -> x = 3.
TEST(FlowSolver, ConsumptionWeights) {
  FlowSolver s;
  ConstraintId hbm = s.add_constraint(9);
  FlowId k = start1(s, {{hbm, 2}}, 100, 1);
  FlowId c = start1(s, {{hbm, 1}}, 100, 2);
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(k), 3);
  EXPECT_DOUBLE_EQ(s.rate(c), 3);
}

// Completion times: two 1 GB flows on 1 GB/s start together; the second, 2 GB, starts with it.
// Both run at 0.5 GB/s until the 1 GB one ends at t = 2 s; the other has 1 GB left, alone at
// 1 GB/s: it ends at 3 s.
TEST(FlowSolver, CompletionTimesFollowRateChanges) {
  FlowSolver s;
  ConstraintId l = s.add_constraint(kGB);
  FlowClassId k = s.make_class(std::vector<FlowElement>{{l, 1}});
  s.start(k, 1e9, 1, Time::zero());
  s.start(k, 2e9, 2, Time::zero());
  s.solve(Time::zero());
  EXPECT_EQ(s.next_completion(), Time::seconds(2));
  std::vector<uint64_t> done;
  s.collect_completed(s.next_completion(), done);
  EXPECT_EQ(done, (std::vector<uint64_t>{1}));
  s.solve(Time::seconds(2));
  EXPECT_EQ(s.next_completion(), Time::seconds(3));
  done.clear();
  s.collect_completed(Time::seconds(3), done);
  EXPECT_EQ(done, (std::vector<uint64_t>{2}));
  EXPECT_EQ(s.active_flows(), 0u);
  EXPECT_EQ(s.next_completion(), Time::max());
}

TEST(FlowSolver, CancelFreesTheShare) {
  FlowSolver s;
  ConstraintId l = s.add_constraint(kGB);
  FlowId a = start1(s, {{l, 1}}, 1e9, 1);
  FlowId b = start1(s, {{l, 1}}, 1e9, 2);
  s.solve(Time::zero());
  EXPECT_TRUE(s.cancel(a, Time::seconds(1)));   // b has 0.5 GB left
  EXPECT_FALSE(s.cancel(a, Time::seconds(1)));
  s.solve(Time::seconds(1));
  EXPECT_DOUBLE_EQ(s.rate(b), kGB);
  EXPECT_EQ(s.next_completion(), Time::seconds(1.5));
}

// Members of one class, the first to finish cancelled and its flow id reused by a new member:
// the cancelled entry must be skipped (never reported), the reused id must finish at its own
// level. 1 GB/s shared by the live members: a (1 GB) is cancelled at 0 and d (0.5 GB) takes its id;
// b (2 GB), c (3 GB) and d share 1/3 GB/s each until d ends at 1.5 s; then b and c get 0.5 GB/s:
// b's last 1.5 GB end at 4.5 s; c's last 1 GB runs alone at 1 GB/s, ending at 5.5 s.
TEST(FlowSolver, CancelledMembersOfAClassAreSkipped) {
  FlowSolver s;
  ConstraintId l = s.add_constraint(kGB);
  FlowClassId k = s.make_class(std::vector<FlowElement>{{l, 1}});
  const FlowId a = s.start(k, 1e9, 1, Time::zero());
  s.start(k, 2e9, 2, Time::zero());
  s.start(k, 3e9, 3, Time::zero());
  s.solve(Time::zero());
  EXPECT_TRUE(s.cancel(a, Time::zero()));
  const FlowId d = s.start(k, 0.5e9, 4, Time::zero());
  EXPECT_EQ(d, a);  // the id is reused
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(d), kGB / 3);
  std::vector<uint64_t> done;
  std::vector<Time> at;
  while (s.next_completion() != Time::max()) {
    const Time t = s.next_completion();
    const size_t before = done.size();
    s.collect_completed(t, done);
    at.insert(at.end(), done.size() - before, t);
    s.solve(t);
  }
  EXPECT_EQ(done, (std::vector<uint64_t>{4, 2, 3}));
  ASSERT_EQ(at.size(), 3u);
  EXPECT_EQ(at[0], Time::seconds(1.5));  // 0.5 GB at 1/3 GB/s
  EXPECT_EQ(at[1], Time::seconds(4.5));
  EXPECT_EQ(at[2], Time::seconds(5.5));
  EXPECT_EQ(s.active_flows(), 0u);
}

// The solver's heap built in bulk (append + heapify) pops in (key, id) order, ties by id, and keeps
// every position right for later changes and removals.
TEST(IndexedHeap, BulkBuildPopsInKeyThenIdOrder) {
  struct PositionIn {
    std::vector<int32_t>* pos;
    int32_t& operator()(uint32_t id) const { return (*pos)[id]; }
  };
  RandomStreams streams(7);
  RandomStream& rng = streams.stream("heap");
  for (uint32_t n : {0u, 1u, 2u, 5u, 17u, 200u}) {
    std::vector<int32_t> pos(n, -1);
    IndexedHeap<double, PositionIn> heap(PositionIn{&pos});
    std::vector<std::pair<double, uint32_t>> expect;
    for (uint32_t id = 0; id < n; ++id) {
      const double key = static_cast<double>(rng.uniform_int(8));  // many ties
      heap.append(id, key);
      expect.emplace_back(key, id);
    }
    heap.heapify();
    if (n > 3) {  // a change and a removal after the build
      heap.set(3, -1.0);
      expect[3].first = -1.0;
      heap.remove(1);
      expect.erase(expect.begin() + 1);
    }
    std::sort(expect.begin(), expect.end());
    std::vector<std::pair<double, uint32_t>> got;
    while (!heap.empty()) {
      got.emplace_back(heap.top_key(), heap.top_id());
      heap.pop();
    }
    EXPECT_EQ(got, expect) << "n = " << n;
  }
}

// Only the touched component is re-solved: flows on disjoint links do not join the solve.
TEST(FlowSolver, SelectiveResolveTouchesOnlyTheComponent) {
  FlowSolver s;
  std::vector<ConstraintId> links;
  for (int i = 0; i < 100; ++i) links.push_back(s.add_constraint(1));
  for (int i = 0; i < 100; ++i) start1(s, {{links[i], 1}}, 1, i);
  s.solve(Time::zero());
  const uint64_t before = s.classes_solved();
  start1(s, {{links[7], 1}}, 1, 1000);
  s.solve(Time::zero());
  EXPECT_EQ(s.classes_solved() - before, 2u);
}

TEST(FlowSolver, RejectsBadInput) {
  FlowSolver s;
  EXPECT_THROW(s.add_constraint(-1), std::invalid_argument);
  ConstraintId l = s.add_constraint(1);
  EXPECT_THROW(s.make_class(std::vector<FlowElement>{{l, 0}}), std::invalid_argument);
  EXPECT_THROW(s.make_class(std::vector<FlowElement>{{99, 1}}), std::invalid_argument);
  EXPECT_THROW(s.make_class(std::vector<FlowElement>{}), std::invalid_argument);
  FlowClassId k = s.make_class(std::vector<FlowElement>{{l, 1}});
  EXPECT_THROW(s.start(k, 0, 1, Time::zero()), std::invalid_argument);
}

// The max-min optimality conditions, checked directly: no constraint over capacity, usage()
// agrees, every flow has a positive rate and is either at its bound or on a saturated
// constraint where no other flow gets more.
struct LiveFlow {
  FlowId id;
  std::vector<FlowElement> els;
  double bound;
};

void expect_max_min_fair(const FlowSolver& s, const std::vector<ConstraintId>& cs,
                         const std::vector<LiveFlow>& flows, int trial) {
  std::map<ConstraintId, double> used;
  for (const LiveFlow& f : flows)
    for (auto& e : f.els) used[e.constraint] += e.weight * s.rate(f.id);
  for (ConstraintId c : cs) {
    ASSERT_LE(used[c], s.capacity(c) * (1 + 1e-9)) << "trial " << trial;
    ASSERT_NEAR(used[c], s.usage(c), 1e-9 * (1 + s.capacity(c))) << "trial " << trial;
  }
  for (size_t i = 0; i < flows.size(); ++i) {
    const double r = s.rate(flows[i].id);
    ASSERT_GT(r, 0) << "trial " << trial;
    if (r >= flows[i].bound * (1 - 1e-9)) continue;  // at its bound
    bool bottlenecked = false;
    for (auto& e : flows[i].els) {
      if (used[e.constraint] < s.capacity(e.constraint) * (1 - 1e-9)) continue;
      bool is_max = true;
      for (const LiveFlow& other : flows)
        for (auto& e2 : other.els)
          if (e2.constraint == e.constraint && s.rate(other.id) > r * (1 + 1e-9)) is_max = false;
      if (is_max) bottlenecked = true;
    }
    ASSERT_TRUE(bottlenecked) << "trial " << trial << " flow " << i;
  }
}

// A class over a random subset of `cs` (each constraint with probability `density`, weight 1 with
// probability `unit_weight`, else in [0.2, 3]), bounded one time in five (always if it has no
// constraint), for the random-sequence tests.
struct RandomClass {
  FlowClassId id;
  std::vector<FlowElement> els;
  double bound;
};

RandomClass random_class(FlowSolver& s, RandomStream& rng, const std::vector<ConstraintId>& cs, double density,
                         double unit_weight) {
  std::vector<FlowElement> els;
  for (ConstraintId c : cs)
    if (rng.uniform01() < density) els.push_back({c, rng.uniform01() < unit_weight ? 1.0 : rng.uniform(0.2, 3)});
  double bound = rng.uniform01() < 0.2 ? rng.uniform(0.1, 5) : FlowSolver::kUnbounded;
  if (els.empty()) bound = rng.uniform(0.1, 5);
  return {s.make_class(els, bound), els, bound};
}

// Random systems: check the max-min optimality conditions directly.
TEST(FlowSolver, RandomSystemsAreMaxMinFair) {
  RandomStream rng(12345);
  for (int trial = 0; trial < 200; ++trial) {
    FlowSolver s;
    const int nc = 1 + static_cast<int>(rng.uniform_int(12));
    std::vector<ConstraintId> cs;
    for (int i = 0; i < nc; ++i) cs.push_back(s.add_constraint(rng.uniform(0.5, 20)));
    std::vector<LiveFlow> flows;
    const int nf = 1 + static_cast<int>(rng.uniform_int(30));
    for (int i = 0; i < nf; ++i) {
      std::vector<FlowElement> els;
      for (int c = 0; c < nc; ++c)
        if (rng.uniform01() < 0.3) els.push_back({cs[c], rng.uniform01() < 0.7 ? 1.0 : rng.uniform(0.2, 3)});
      double bound = rng.uniform01() < 0.2 ? rng.uniform(0.1, 5) : FlowSolver::kUnbounded;
      if (els.empty()) bound = rng.uniform(0.1, 5);
      flows.push_back({start1(s, els, 1e3, i, bound), els, bound});
    }
    // Also cancel a few, to exercise the swap-remove bookkeeping.
    std::vector<LiveFlow> live;
    for (size_t i = 0; i < flows.size(); ++i) {
      if (i % 7 == 0) s.cancel(flows[i].id, Time::zero());
      else live.push_back(flows[i]);
    }
    s.solve(Time::zero());
    expect_max_min_fair(s, cs, live, trial);
  }
}

// Sequences of starts, cancellations and capacity changes with a solve after each: constraints
// move between slack and saturating as classes gain and lose members (a few large "HBM-like"
// capacities are slack most of the time), and each solve must still be max-min fair.
TEST(FlowSolver, RandomSequencesStayMaxMinFair) {
  RandomStream rng(777);
  for (int trial = 0; trial < 60; ++trial) {
    FlowSolver s;
    const int nc = 2 + static_cast<int>(rng.uniform_int(10));
    std::vector<ConstraintId> cs;
    for (int i = 0; i < nc; ++i) cs.push_back(s.add_constraint(rng.uniform01() < 0.3 ? rng.uniform(20, 60) : rng.uniform(0.5, 10)));
    std::vector<RandomClass> classes;
    for (int k = 0; k < 8; ++k) classes.push_back(random_class(s, rng, cs, 0.35, 0.7));
    std::vector<LiveFlow> live;
    for (int step = 0; step < 40; ++step) {
      const double u = rng.uniform01();
      if (u < 0.55 || live.empty()) {
        const RandomClass& k = classes[rng.uniform_int(classes.size())];
        live.push_back({s.start(k.id, 100, static_cast<uint64_t>(step), Time::zero()), k.els, k.bound});
      } else if (u < 0.9) {
        const size_t i = rng.uniform_int(live.size());
        ASSERT_TRUE(s.cancel(live[i].id, Time::zero()));
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        const ConstraintId c = cs[rng.uniform_int(cs.size())];
        s.set_capacity(c, rng.uniform01() < 0.5 ? s.capacity(c) * 4 : s.capacity(c) / 4);
      }
      s.solve(Time::zero());
      expect_max_min_fair(s, cs, live, trial * 100 + step);
    }
  }
}

// A live flow of a random-sequence test: its id and the index of its class.
struct LiveOf {
  FlowId id;
  size_t cls;
};

// Every live flow of `s` has the rate a solver built from scratch gives (same capacities, classes
// and flows; max-min rates are unique), to 1e-12 relative.
void expect_matches_fresh(const FlowSolver& s, const std::vector<ConstraintId>& cs,
                          const std::vector<RandomClass>& classes, const std::vector<LiveOf>& live,
                          const std::string& where) {
  FlowSolver fresh;
  for (ConstraintId c : cs) fresh.add_constraint(s.capacity(c));  // same ids, in order
  std::vector<FlowClassId> fresh_cls;
  for (const RandomClass& k : classes) fresh_cls.push_back(fresh.make_class(k.els, k.bound));
  std::vector<FlowId> fresh_ids;
  for (const LiveOf& f : live) fresh_ids.push_back(fresh.start(fresh_cls[f.cls], 100, 0, Time::zero()));
  fresh.solve(Time::zero());
  for (size_t i = 0; i < live.size(); ++i) {
    const double want = fresh.rate(fresh_ids[i]);
    ASSERT_GT(want, 0);
    ASSERT_NEAR(s.rate(live[i].id), want, 1e-12 * want) << where << " flow " << i;
  }
}

// The incremental re-solve (only the groups a change reaches, slack flags judged only at the
// seeds, groups kept between solves) against a solver built from scratch with the same
// capacities, classes and live flows: the same rate for every flow (max-min rates are unique),
// to 1e-12 relative. Some classes span many constraints, so components merge and split.
TEST(FlowSolver, SelectiveResolveMatchesAFreshSolve) {
  RandomStream rng(4242);
  for (int trial = 0; trial < 40; ++trial) {
    FlowSolver s;
    const int nc = 3 + static_cast<int>(rng.uniform_int(14));
    std::vector<ConstraintId> cs;
    for (int i = 0; i < nc; ++i) cs.push_back(s.add_constraint(rng.uniform01() < 0.25 ? rng.uniform(30, 90) : rng.uniform(0.5, 10)));
    std::vector<RandomClass> classes;
    for (int k = 0; k < 12; ++k) classes.push_back(random_class(s, rng, cs, k % 4 == 0 ? 0.5 : 0.2, 0.6));
    std::vector<LiveOf> live;
    for (int step = 0; step < 60; ++step) {
      const double u = rng.uniform01();
      if (u < 0.5 || live.empty()) {
        const size_t k = rng.uniform_int(classes.size());
        live.push_back({s.start(classes[k].id, 100, static_cast<uint64_t>(step), Time::zero()), k});
      } else if (u < 0.9) {
        const size_t i = rng.uniform_int(live.size());
        ASSERT_TRUE(s.cancel(live[i].id, Time::zero()));
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        const ConstraintId c = cs[rng.uniform_int(cs.size())];
        s.set_capacity(c, rng.uniform01() < 0.5 ? s.capacity(c) * 4 : s.capacity(c) / 4);
      }
      s.solve(Time::zero());
      expect_matches_fresh(s, cs, classes, live, "trial " + std::to_string(trial) + " step " + std::to_string(step));
      if (HasFatalFailure()) return;
    }
  }
}

// More constraints in one filling set than the solver scans (it keeps a heap then): still
// max-min fair.
TEST(FlowSolver, LargeFillingSetsAreMaxMinFair) {
  RandomStream rng(99);
  for (int trial = 0; trial < 3; ++trial) {
    FlowSolver s;
    std::vector<ConstraintId> cs;
    for (int i = 0; i < 400; ++i) cs.push_back(s.add_constraint(rng.uniform(0.5, 5)));
    std::vector<LiveFlow> flows;
    for (int i = 0; i < 600; ++i) {
      std::vector<FlowElement> els;
      for (int j = 0; j < 3; ++j) els.push_back({cs[rng.uniform_int(cs.size())], 1.0});
      flows.push_back({start1(s, els, 1e3, static_cast<uint64_t>(i)), els, FlowSolver::kUnbounded});
    }
    s.solve(Time::zero());
    expect_max_min_fair(s, cs, flows, trial);
  }
}

// A constraint that cannot saturate (two 1-unit links under a 10-unit one) does not couple its
// classes: a start on one link re-solves only that link's classes. Once enough classes share
// it to saturate it, it joins them all again, and when they leave it lets them go.
TEST(FlowSolver, SlackConstraintsDoNotCouple) {
  FlowSolver s;
  const ConstraintId hbm = s.add_constraint(10);
  std::vector<ConstraintId> links;
  std::vector<FlowClassId> cls;
  for (int i = 0; i < 12; ++i) {
    links.push_back(s.add_constraint(1));
    cls.push_back(s.make_class(std::vector<FlowElement>{{links[i], 1}, {hbm, 1}}));
  }
  std::vector<FlowId> f;
  for (int i = 0; i < 9; ++i) f.push_back(s.start(cls[i], 1e3, i, Time::zero()));
  s.solve(Time::zero());
  for (int i = 0; i < 9; ++i) EXPECT_DOUBLE_EQ(s.rate(f[i]), 1);
  uint64_t before = s.classes_solved();
  f.push_back(s.start(cls[0], 1e3, 100, Time::zero()));  // class 0 now has two members
  s.solve(Time::zero());
  EXPECT_EQ(s.classes_solved() - before, 1u);
  EXPECT_DOUBLE_EQ(s.rate(f[0]), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(f[1]), 1);
  // Classes 9, 10, 11: twelve classes of ceiling 1 on 10 units, so the shared one saturates.
  for (int i = 9; i < 12; ++i) f.push_back(s.start(cls[i], 1e3, i, Time::zero()));
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f[0]), 0.5);  // still held by its link at 1/2 per member
  EXPECT_DOUBLE_EQ(s.rate(f[9]), 0.5);
  for (size_t i = 1; i < f.size(); ++i) {
    if (i != 9) {
      EXPECT_NEAR(s.rate(f[i]), 9.0 / 11, 1e-12) << i;  // the 10 units less class 0's 1
    }
  }
  EXPECT_NEAR(s.usage(hbm), 10, 1e-9);
  // Three leave: the shared constraint is slack again and every link runs full.
  for (size_t i = f.size() - 3; i < f.size(); ++i) s.cancel(f[i], Time::zero());
  s.solve(Time::zero());
  for (int i = 1; i < 9; ++i) EXPECT_DOUBLE_EQ(s.rate(f[i]), 1) << i;
}

// --- the columns: a group's summed demand per constraint, kept as classes move and members change

using Els = std::vector<FlowElement>;

// A class whose group's constraint is picked after another of its constraints saturates moves to
// that one. l2 (4) first fixes a and b at 2 each; then nine members on l1 (10) make l1 saturate
// first, at 1: a leaves l2's group for l1's, and b gets the rest of l2: 3.
TEST(FlowSolver, AForeignClassMovesToTheConstraintThatSaturatesFirst) {
  FlowSolver s;
  const ConstraintId l1 = s.add_constraint(10), l2 = s.add_constraint(4);
  const FlowClassId a = s.make_class(Els{{l1, 1}, {l2, 1}}), b = s.make_class(Els{{l2, 1}});
  const FlowClassId c = s.make_class(Els{{l1, 1}});
  const FlowId fa = s.start(a, 10, 1, Time::zero());
  const FlowId fb = s.start(b, 1e6, 2, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fa), 2);
  EXPECT_DOUBLE_EQ(s.rate(fb), 2);
  std::vector<FlowId> fc;
  for (int i = 0; i < 9; ++i) fc.push_back(s.start(c, 1e6, 10 + i, Time::seconds(1)));
  s.solve(Time::seconds(1));
  EXPECT_DOUBLE_EQ(s.rate(fa), 1);
  EXPECT_DOUBLE_EQ(s.rate(fc[0]), 1);
  EXPECT_DOUBLE_EQ(s.rate(fb), 3);
  EXPECT_NEAR(s.usage(l1), 10, 1e-12);
  EXPECT_NEAR(s.usage(l2), 4, 1e-12);
  // a served 2 in the first second, then 1/s: its last 8 take until t = 9 s.
  EXPECT_DOUBLE_EQ(s.remaining(fa, Time::seconds(1)), 8);
  EXPECT_EQ(s.next_completion(), Time::seconds(9));
}

// A bounded class held below its bound by a constraint's group leaves it for its own group once
// the share passes the bound, and comes back when the share falls again.
TEST(FlowSolver, ABoundedClassLeavesAConstraintGroupAndComesBack) {
  FlowSolver s;
  const ConstraintId l = s.add_constraint(6);
  const FlowClassId a = s.make_class(Els{{l, 1}}, 2.5);
  const FlowClassId b = s.make_class(Els{{l, 1}}), c = s.make_class(Els{{l, 1}});
  const FlowId fa = s.start(a, 100, 1, Time::zero());
  const FlowId fb = s.start(b, 1e6, 2, Time::zero());
  FlowId fc = s.start(c, 1e6, 3, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fa), 2);  // 6 / 3 < 2.5
  s.cancel(fc, Time::seconds(1));
  s.solve(Time::seconds(1));
  EXPECT_DOUBLE_EQ(s.rate(fa), 2.5);  // at its bound, alone in its group
  EXPECT_DOUBLE_EQ(s.rate(fb), 3.5);
  fc = s.start(c, 1e6, 4, Time::seconds(2));
  s.solve(Time::seconds(2));
  EXPECT_DOUBLE_EQ(s.rate(fa), 2);
  EXPECT_DOUBLE_EQ(s.rate(fb), 2);
  // Served 2 + 2.5 + 2 (by t = 3 s): its service stayed continuous through both moves.
  EXPECT_DOUBLE_EQ(s.remaining(fa, Time::seconds(3)), 100 - 6.5);
}

// A group whose constraint turned slack while its classes stay (none of them dirty): the filling
// must still fix them, each by its own link. Six classes of ceiling 1 share h (4): h saturates at
// 2/3 each and holds all six in its group. Three leave: the other three would take 3 < 4, so h
// is slack, and its group's classes move to their links' groups at 1.
TEST(FlowSolver, AGroupWhoseConstraintTurnedSlackStillHasItsClassesFixed) {
  FlowSolver s;
  const ConstraintId h = s.add_constraint(4);
  std::vector<FlowId> f;
  for (int i = 0; i < 6; ++i) {
    const ConstraintId li = s.add_constraint(1);
    f.push_back(s.start(s.make_class(Els{{li, 1}, {h, 1}}), 1e3, i, Time::zero()));
  }
  s.solve(Time::zero());
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(s.rate(f[i]), 4.0 / 6) << i;
  for (int i = 3; i < 6; ++i) s.cancel(f[i], Time::seconds(1));
  s.solve(Time::seconds(1));
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(s.rate(f[i]), 1) << i;
  EXPECT_NEAR(s.remaining(f[0], Time::seconds(2)), 1e3 - 4.0 / 6 - 1, 1e-9);
}

// Members join and finish in a class that keeps its group: the group's demand on its other
// constraints follows. a (on l1, l3) and b (l1) share l1 (12); a and c share l3 (20). l1 fixes
// a and b first; c gets what a leaves of l3. A second member of a: 4 each on l1, c 20 - 2 x 4.
TEST(FlowSolver, MemberChangesWithoutAGroupChangeMoveTheColumns) {
  FlowSolver s;
  const ConstraintId l1 = s.add_constraint(12), l3 = s.add_constraint(20);
  const FlowClassId a = s.make_class(Els{{l1, 1}, {l3, 1}});
  const FlowId fa1 = s.start(a, 4, 1, Time::zero());
  const FlowId fb = s.start(s.make_class(Els{{l1, 1}}), 1e6, 2, Time::zero());
  const FlowId fc = s.start(s.make_class(Els{{l3, 1}}), 1e6, 3, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fa1), 6);
  EXPECT_DOUBLE_EQ(s.rate(fc), 14);
  const FlowId fa2 = s.start(a, 1e6, 4, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fa2), 4);
  EXPECT_DOUBLE_EQ(s.rate(fb), 4);
  EXPECT_DOUBLE_EQ(s.rate(fc), 12);
  // a's first member (4 units at 4/s) finishes at 1 s; then l1 gives 6 each again and c 14.
  EXPECT_EQ(s.next_completion(), Time::seconds(1));
  std::vector<uint64_t> done;
  s.collect_completed(Time::seconds(1), done);
  EXPECT_EQ(done, (std::vector<uint64_t>{1}));
  s.solve(Time::seconds(1));
  EXPECT_DOUBLE_EQ(s.rate(fa2), 6);
  EXPECT_DOUBLE_EQ(s.rate(fc), 14);
}

// A class alone on its links is left out of the columns; a class that comes to share one of its
// links (even one started and cancelled before a solve saw it) must still couple with it.
TEST(FlowSolver, AClassAloneOnItsLinksCouplesWhenAnotherComes) {
  FlowSolver s;
  const ConstraintId l = s.add_constraint(2), hbm = s.add_constraint(100);
  const FlowClassId k = s.make_class(Els{{l, 1}, {hbm, 1}});
  const FlowClassId j = s.make_class(Els{{l, 1}});
  const FlowId fk = s.start(k, 1e3, 1, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fk), 2);
  s.cancel(s.start(j, 1e3, 2, Time::zero()), Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fk), 2);
  const FlowId fj = s.start(j, 1e3, 3, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fk), 1);
  EXPECT_DOUBLE_EQ(s.rate(fj), 1);
  s.cancel(fj, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fk), 2);
}

// A start on a link re-fills the groups that link fixes, not a group bottlenecked elsewhere
// that only uses it: A (1 unit) holds f1 and f2 at 1/2 each; B (10) gives f3 the 9.5 f2 leaves.
// A second flow on B (f4) halves B's share, 4.75, still above A's 1/2: f1 and f2 keep their
// rates and stay out of the solve (two classes re-solved, not four).
TEST(FlowSolver, AChangeAboveAGroupLeavesItOutOfTheSolve) {
  FlowSolver s;
  const ConstraintId a = s.add_constraint(1), b = s.add_constraint(10);
  const FlowId f1 = start1(s, {{a, 1}}, 1e3, 1);
  const FlowId f2 = start1(s, {{a, 1}, {b, 1}}, 1e3, 2);
  const FlowId f3 = start1(s, {{b, 1}}, 1e3, 3);
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f3), 9.5);
  const uint64_t before = s.classes_solved();
  const FlowId f4 = start1(s, {{b, 1}}, 1e3, 4);
  s.solve(Time::zero());
  EXPECT_EQ(s.classes_solved() - before, 2u);
  EXPECT_DOUBLE_EQ(s.rate(f1), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(f2), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(f3), 4.75);
  EXPECT_DOUBLE_EQ(s.rate(f4), 4.75);
}

// The same with B at 1.2: a second flow on B leaves 0.35 each to f3 and f4 if f2 keeps its 1/2,
// and f2 would then run faster than the others on B, where it is not bottlenecked: its group joins
// the solve. Max-min: B fixes f2, f3, f4 at 0.4; A gives f1 the 0.6 left.
TEST(FlowSolver, AGroupLeftOutThatWouldRunFasterJoinsTheSolve) {
  FlowSolver s;
  const ConstraintId a = s.add_constraint(1), b = s.add_constraint(1.2);
  const FlowId f1 = start1(s, {{a, 1}}, 1e3, 1);
  const FlowId f2 = start1(s, {{a, 1}, {b, 1}}, 1e3, 2);
  const FlowId f3 = start1(s, {{b, 1}}, 1e3, 3);
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f2), 0.5);
  EXPECT_NEAR(s.rate(f3), 0.7, 1e-15);
  const FlowId f4 = start1(s, {{b, 1}}, 1e3, 4);
  s.solve(Time::zero());
  EXPECT_NEAR(s.rate(f1), 0.6, 1e-15);
  EXPECT_NEAR(s.rate(f2), 0.4, 1e-15);
  EXPECT_NEAR(s.rate(f3), 0.4, 1e-15);
  EXPECT_NEAR(s.rate(f4), 0.4, 1e-15);
}

// Flows between the leaves of a three-level tree (each up and down link a constraint, some
// flows also on a shared "HBM" of the leaf): the bottlenecks sit at every level, so a change
// reaches groups through the owners of their links, and groups left out must join when a rate
// falls below theirs. Against a solver built from scratch after every step, to 1e-12 relative.
TEST(FlowSolver, TreeSequencesMatchAFreshSolve) {
  RandomStream rng(2026);
  constexpr int kLeaves = 16, kPods = 4;
  for (int trial = 0; trial < 30; ++trial) {
    FlowSolver s;
    std::vector<ConstraintId> cs;
    auto add = [&](double c) {
      cs.push_back(s.add_constraint(c));
      return cs.back();
    };
    std::vector<ConstraintId> leaf_up, leaf_down, pod_up, pod_down, hbm;
    for (int i = 0; i < kLeaves; ++i) {
      leaf_up.push_back(add(rng.uniform(1, 4)));
      leaf_down.push_back(add(rng.uniform(1, 4)));
      hbm.push_back(add(rng.uniform(3, 12)));
    }
    for (int p = 0; p < kPods; ++p) {
      pod_up.push_back(add(rng.uniform(2, 8)));
      pod_down.push_back(add(rng.uniform(2, 8)));
    }
    std::vector<RandomClass> classes;
    for (int k = 0; k < 40; ++k) {
      const int src = static_cast<int>(rng.uniform_int(kLeaves));
      int dst = static_cast<int>(rng.uniform_int(kLeaves - 1));
      if (dst >= src) ++dst;
      std::vector<FlowElement> els{{leaf_up[src], 1}, {leaf_down[dst], 1}};
      const int ps = src / (kLeaves / kPods), pd = dst / (kLeaves / kPods);
      if (ps != pd) {
        els.push_back({pod_up[ps], 1});
        els.push_back({pod_down[pd], 1});
      }
      if (rng.uniform01() < 0.3) els.push_back({hbm[src], rng.uniform(0.5, 2)});
      const double bound = rng.uniform01() < 0.1 ? rng.uniform(0.2, 2) : FlowSolver::kUnbounded;
      classes.push_back({s.make_class(els, bound), els, bound});
    }
    std::vector<LiveOf> live;
    for (int step = 0; step < 120; ++step) {
      if (rng.uniform01() < 0.55 || live.empty()) {
        const size_t k = rng.uniform_int(classes.size());
        live.push_back({s.start(classes[k].id, 100, static_cast<uint64_t>(step), Time::zero()), k});
      } else {
        const size_t i = rng.uniform_int(live.size());
        ASSERT_TRUE(s.cancel(live[i].id, Time::zero()));
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      }
      s.solve(Time::zero());
      expect_matches_fresh(s, cs, classes, live, "trial " + std::to_string(trial) + " step " + std::to_string(step));
      if (HasFatalFailure()) return;
    }
  }
}

// A class keeps its ceiling (its rate alone) between solves while its member count and the
// capacities stay: a hop that empties and refills runs at the same rate, and one whose link
// changed meanwhile at the new one.
TEST(FlowSolver, AClassThatRefillsKeepsItsCeilingUntilACapacityChanges) {
  FlowSolver s;
  const ConstraintId l = s.add_constraint(2), hbm = s.add_constraint(100);
  const FlowClassId k = s.make_class(Els{{l, 1}, {hbm, 1}});
  FlowId f = s.start(k, 1e3, 1, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f), 2);
  s.cancel(f, Time::zero());
  f = s.start(k, 1e3, 2, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f), 2);
  s.cancel(f, Time::zero());
  s.solve(Time::zero());
  s.set_capacity(l, 4);
  f = s.start(k, 1e3, 3, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f), 4);
  const FlowId g = s.start(k, 1e3, 4, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(f), 2);
  EXPECT_DOUBLE_EQ(s.rate(g), 2);
}

// A class that empties stays in its links' lists until the next solve: refilled before it, it
// shares as before; released before it, its id's next class (on another link) leaves no trace on
// the first; left empty through a solve, the other class on its link takes the whole link.
TEST(FlowSolver, AClassEmptiedBeforeASolveCountsOnlyWithMembers) {
  FlowSolver s;
  const ConstraintId l = s.add_constraint(2), m = s.add_constraint(3);
  const FlowClassId a = s.make_class(Els{{l, 1}});
  const FlowClassId b = s.make_class(Els{{l, 1}});
  FlowId fa = s.start(a, 1e3, 1, Time::zero());
  const FlowId fb = s.start(b, 1e3, 2, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fb), 1);
  s.cancel(fa, Time::zero());
  EXPECT_DOUBLE_EQ(s.usage(l), 1);  // (b's rate, until the next solve)
  fa = s.start(a, 1e3, 3, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fa), 1);
  EXPECT_DOUBLE_EQ(s.rate(fb), 1);
  s.cancel(fa, Time::zero());
  s.release_class(a);
  const FlowClassId c = s.make_class(Els{{m, 1}});
  EXPECT_EQ(c, a);  // the id is reused
  const FlowId fc = s.start(c, 1e3, 4, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fb), 2);
  EXPECT_DOUBLE_EQ(s.rate(fc), 3);
  // A class on l and n (1.5 alone, in n's group) saturates l at 1 with b, while c (two members)
  // and h share m at 1.5: only l's classes move to l's group.
  const ConstraintId n = s.add_constraint(1.5);
  const FlowId fe = s.start(s.make_class(Els{{l, 1}, {n, 1}}), 1e3, 5, Time::zero());
  const FlowId fc2 = s.start(c, 1e3, 6, Time::zero());
  s.set_capacity(m, 4.5);
  const FlowId fh = s.start(s.make_class(Els{{m, 1}}), 1e3, 7, Time::zero());
  s.solve(Time::zero());
  EXPECT_DOUBLE_EQ(s.rate(fb), 1);
  EXPECT_DOUBLE_EQ(s.rate(fe), 1);
  EXPECT_DOUBLE_EQ(s.rate(fc), 1.5);
  EXPECT_DOUBLE_EQ(s.rate(fc2), 1.5);
  EXPECT_DOUBLE_EQ(s.rate(fh), 1.5);
  EXPECT_DOUBLE_EQ(s.usage(l), 2);
  EXPECT_DOUBLE_EQ(s.usage(m), 4.5);
}

// A hop that finishes alone on its link is parked until the next solve: refilled a latency later
// it runs at its ceiling again from the refill (its service curve restarts: remaining() is its
// whole amount); left empty through a solve it leaves its link, which another class then has
// to itself; released while parked, its id's next class leaves no trace on the first link.
TEST(FlowSolver, AParkedClassRefillsWhereItLeft) {
  FlowSolver s;
  const ConstraintId l = s.add_constraint(2), m = s.add_constraint(4), hbm = s.add_constraint(100);
  const FlowClassId k = s.make_class(Els{{l, 1}, {hbm, 1}});
  FlowId f = s.start(k, 1e3, 1, Time::zero());
  s.solve(Time::zero());
  ASSERT_EQ(s.next_completion(), Time::seconds(500));
  std::vector<uint64_t> tags;
  s.collect_completed(Time::seconds(500), tags);
  ASSERT_EQ(tags, std::vector<uint64_t>{1});
  const Time later = Time::seconds(500) + Time::us(2);
  f = s.start(k, 1e3, 2, later);
  EXPECT_DOUBLE_EQ(s.remaining(f, later), 1e3);
  s.solve(later);
  EXPECT_DOUBLE_EQ(s.rate(f), 2);
  EXPECT_EQ(s.next_completion(), later + Time::seconds(500));
  tags.clear();
  s.collect_completed(later + Time::seconds(500), tags);
  ASSERT_EQ(tags, std::vector<uint64_t>{2});
  // Empty through a solve: b, started on l meanwhile, gets the whole link.
  const Time t2 = later + Time::seconds(500);
  const FlowId b = s.start(s.make_class(Els{{l, 1}, {m, 1}}), 1e3, 3, t2);
  s.solve(t2);
  EXPECT_DOUBLE_EQ(s.rate(b), 2);
  EXPECT_DOUBLE_EQ(s.usage(l), 2);
  f = s.start(k, 1e3, 4, t2 + Time::seconds(1));
  s.solve(t2 + Time::seconds(1));
  EXPECT_DOUBLE_EQ(s.rate(f), 1);
  EXPECT_DOUBLE_EQ(s.rate(b), 1);
  EXPECT_DOUBLE_EQ(s.remaining(f, t2 + Time::seconds(1)), 1e3);
  // Parked, then released: the class that takes its id runs on m alone.
  const FlowClassId alone = s.make_class(Els{{m, 1}});
  const FlowId g = s.start(alone, 8, 5, t2 + Time::seconds(1));
  s.solve(t2 + Time::seconds(1));
  EXPECT_DOUBLE_EQ(s.rate(g), 3);  // m: 4 less b's 1
  tags.clear();
  s.collect_completed(s.next_completion(), tags);
  ASSERT_EQ(tags, std::vector<uint64_t>{5});
  s.release_class(alone);
  const FlowClassId reused = s.make_class(Els{{hbm, 1}}, 7);
  EXPECT_EQ(reused, alone);
  const FlowId h = s.start(reused, 1e3, 6, t2 + Time::seconds(4));
  s.solve(t2 + Time::seconds(4));
  EXPECT_DOUBLE_EQ(s.rate(h), 7);
  EXPECT_DOUBLE_EQ(s.usage(m), 1);
}

// Sequences driven by completions, as the platform drives them: each flow that ends is followed,
// often, by the next flow of its class before the next solve (a parked class refilled) or after
// it (a parked class that left). After every solve each flow's rate is what a solver built from
// scratch gives, and a flow just started has its whole amount left.
TEST(FlowSolver, CompletionSequencesWithRefillsMatchAFreshSolve) {
  RandomStream rng(909);
  int refills = 0;
  for (int trial = 0; trial < 30; ++trial) {
    FlowSolver s;
    std::vector<ConstraintId> cs;
    for (int i = 0; i < 8; ++i) cs.push_back(s.add_constraint(rng.uniform(1, 4)));
    std::vector<RandomClass> classes;
    for (int k = 0; k < 10; ++k) {
      std::vector<FlowElement> els{{cs[rng.uniform_int(cs.size())], 1}};
      if (rng.uniform01() < 0.5) els.push_back({cs[rng.uniform_int(cs.size())], rng.uniform(0.5, 2)});
      const double bound = rng.uniform01() < 0.2 ? rng.uniform(0.3, 3) : FlowSolver::kUnbounded;
      classes.push_back({s.make_class(els, bound), els, bound});
    }
    std::map<uint64_t, LiveOf> live;  // by tag
    uint64_t next_tag = 0;
    Time now = Time::zero();
    auto start = [&](size_t k, Time at) {
      const double amount = rng.uniform(1, 20);
      const FlowId f = s.start(classes[k].id, amount, next_tag, at);
      EXPECT_NEAR(s.remaining(f, at), amount, 1e-9 * amount);
      live[next_tag++] = {f, k};
    };
    auto check = [&](int step) {
      std::vector<LiveOf> flows;
      for (const auto& [tag, f] : live) flows.push_back(f);
      expect_matches_fresh(s, cs, classes, flows, "trial " + std::to_string(trial) + " step " + std::to_string(step));
    };
    for (int i = 0; i < 4; ++i) start(rng.uniform_int(classes.size()), now);
    s.solve(now);
    for (int step = 0; step < 80 && !live.empty(); ++step) {
      now = s.next_completion();
      std::vector<uint64_t> tags;
      s.collect_completed(now, tags);
      ASSERT_FALSE(tags.empty());
      std::vector<size_t> ended;
      for (uint64_t t : tags) {
        ended.push_back(live.at(t).cls);
        live.erase(t);
      }
      const double u = rng.uniform01();
      if (u < 0.5) {  // the next chunks a latency later, no solve between: refills
        now = now + Time::us(2);
        for (size_t k : ended) start(k, now);
        refills += static_cast<int>(ended.size());
      } else if (u < 0.8 && !live.empty()) {  // a solve first: the parked classes leave
        s.solve(now);
        check(step);
        now = now + Time::us(1);
        for (size_t k : ended)
          if (rng.uniform01() < 0.5) start(k, now);
      }
      if (rng.uniform01() < 0.4) start(rng.uniform_int(classes.size()), now);
      s.solve(now);
      check(step);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(refills, 500);
}

}  // namespace
}  // namespace parallax
