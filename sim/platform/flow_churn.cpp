// File: sim/platform/flow_churn.cpp
#include "sim/platform/flow_churn.h"

#include <time.h>

#include <array>
#include <chrono>
#include <vector>

#include "sim/engine/random_streams.h"
#include "sim/platform/flow_solver.h"

namespace parallax {

namespace {

constexpr int kCrossbarGpus = 64;
constexpr double kLinkBps = 300e9;
constexpr double kMeanBytes = 1 << 20;

// Picks the class of a new flow: a random GPU pair, or the island of the replaced flow.
class ChurnWorkload {
 public:
  ChurnWorkload(FlowSolver& solver, FlowChurnShape shape, uint64_t flows) : solver_(solver), shape_(shape) {
    if (shape == FlowChurnShape::crossbar) {
      for (int g = 0; g < 2 * kCrossbarGpus; ++g) solver_.add_constraint(kLinkBps);
      pair_class_.assign(kCrossbarGpus * kCrossbarGpus, kNone);
    } else {
      const uint64_t islands = std::max<uint64_t>(1, flows / 4);
      for (uint64_t i = 0; i < islands; ++i) {
        const ConstraintId up = solver_.add_constraint(kLinkBps), down = solver_.add_constraint(kLinkBps);
        const std::array<FlowElement, 2> e{FlowElement{up, 1.0}, FlowElement{down, 1.0}};
        island_class_.push_back(solver_.make_class(e));
      }
    }
  }

  FlowClassId class_for(uint64_t flow_index, RandomStream& rng) {
    if (shape_ == FlowChurnShape::independent) return island_class_[flow_index % island_class_.size()];
    const uint64_t s = rng.uniform_int(kCrossbarGpus);
    uint64_t d = rng.uniform_int(kCrossbarGpus - 1);
    if (d >= s) ++d;
    FlowClassId& k = pair_class_[s * kCrossbarGpus + d];
    if (k == kNone) {
      const std::array<FlowElement, 2> e{FlowElement{static_cast<ConstraintId>(s), 1.0},
                                         FlowElement{static_cast<ConstraintId>(kCrossbarGpus + d), 1.0}};
      k = solver_.make_class(e);
      ++classes_;
    }
    return k;
  }
  uint64_t classes() const { return shape_ == FlowChurnShape::crossbar ? classes_ : island_class_.size(); }

 private:
  static constexpr FlowClassId kNone = UINT32_MAX;
  FlowSolver& solver_;
  FlowChurnShape shape_;
  std::vector<FlowClassId> pair_class_;    // crossbar: src * G + dst
  std::vector<FlowClassId> island_class_;  // independent
  uint64_t classes_ = 0;
};

double thread_cpu_seconds() {
  timespec t{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace

const char* to_string(FlowChurnShape shape) { return shape == FlowChurnShape::crossbar ? "crossbar" : "independent"; }

FlowChurnResult run_flow_churn(FlowChurnShape shape, uint64_t flows, uint64_t events, uint64_t seed) {
  using clock = std::chrono::steady_clock;
  FlowSolver solver;
  RandomStreams streams(seed);
  RandomStream& rng = streams.stream("flow-churn");
  ChurnWorkload workload(solver, shape, flows);
  FlowChurnResult r;
  r.flows = flows;

  const auto t0 = clock::now();
  for (uint64_t i = 0; i < flows; ++i) solver.start(workload.class_for(i, rng), 1 + rng.exponential(kMeanBytes), i, Time());
  solver.solve(Time());
  const auto t1 = clock::now();
  r.setup_s = std::chrono::duration<double>(t1 - t0).count();

  const uint64_t solves0 = solver.solves(), classes0 = solver.classes_solved();
  const double cpu0 = thread_cpu_seconds();
  std::vector<uint64_t> done;
  while (r.events < events) {
    const Time now = solver.next_completion();
    done.clear();
    solver.collect_completed(now, done);
    for (uint64_t tag : done) solver.start(workload.class_for(tag, rng), 1 + rng.exponential(kMeanBytes), tag, now);
    solver.solve(now);
    r.events += done.size();
  }
  r.wall_s = std::chrono::duration<double>(clock::now() - t1).count();
  r.cpu_s = thread_cpu_seconds() - cpu0;
  r.solves = solver.solves() - solves0;
  r.classes_solved = solver.classes_solved() - classes0;
  r.active_classes = workload.classes();
  return r;
}

}  // namespace parallax
