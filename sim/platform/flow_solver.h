// File: sim/platform/flow_solver.h
// Flow-level sharing: activities draw on capacities, and their rates are the max-min fair
// allocation computed by progressive filling. The solver knows nothing of GPUs or links: a
// constraint is an opaque id with a capacity (bytes/s of a link direction, FLOP/s of an SM pool,
// bytes/s of HBM), an activity consumes `weight` units of a constraint per unit of its own rate.
//
// Model (as SimGrid's lmm, REFERENCE.md §7.4). For activities i with rates x_i:
//     for every constraint c:  sum_i  w_ic * x_i  <=  C_c          x_i <= bound_i
// and the x_i are max-min fair: no rate can grow without shrinking a rate that is not larger.
// Example: link A (10 GB/s) carries flows f1, f2; link B (4 GB/s) carries f2, f3.
//     B saturates first at 2 GB/s each (f2 = f3 = 2); then A gives f1 the rest: f1 = 8.
//
// Two things make it fast:
//  * Flow classes. Activities with the same constraints, weights and bound always get the same
//    rate, so they are solved once, as a class with a multiplicity. Each class keeps the service a
//    member has received since the class began (`served`); a member finishes when `served`
//    reaches its own level (service at join + amount), so members never need individual updates.
//  * Selective re-solve. A start or finish marks its class dirty; the next solve() re-computes
//    only the connected component (constraints <-> active classes) that the dirty classes touch.
// Completion times live in an indexed heap of classes keyed by their next finish.
//
// Time is integer picoseconds (the engine's Time); finishes are rounded to the nearest ps.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "sim/engine/sim_time.h"

namespace parallax {

using ConstraintId = uint32_t;
using FlowClassId = uint32_t;
using FlowId = uint32_t;

struct FlowElement {
  ConstraintId constraint;
  double weight;  // units of the constraint consumed per unit of the activity's rate (> 0)
};

class FlowSolver {
 public:
  static constexpr double kUnbounded = std::numeric_limits<double>::infinity();

  ConstraintId add_constraint(double capacity);
  void set_capacity(ConstraintId c, double capacity);
  double capacity(ConstraintId c) const { return constraints_[c].capacity; }
  size_t constraint_count() const { return constraints_.size(); }

  // A class of activities that share elements and a per-activity rate bound. Every class needs at
  // least one element or a finite bound. Classes live until released (release only when empty).
  FlowClassId make_class(std::span<const FlowElement> elements, double bound = kUnbounded);
  void release_class(FlowClassId k);

  // Starts an activity of `amount` units (> 0) in class k at time `now`. `tag` comes back from
  // collect_completed(). The rate is only known after the next solve().
  FlowId start(FlowClassId k, double amount, uint64_t tag, Time now);
  // Removes an unfinished activity; false if it already finished.
  bool cancel(FlowId f, Time now);

  // Re-computes the rates of every component touched since the last solve, at time `now`.
  void solve(Time now);
  bool needs_solve() const { return !dirty_classes_.empty(); }

  // Earliest finish over all active activities (Time::max() if none). Valid after solve().
  Time next_completion() const;
  // Appends the tags of every activity finished by `now` (in class order, then level order, so
  // deterministic) and removes them. Call with now == next_completion().
  void collect_completed(Time now, std::vector<uint64_t>& tags);

  double rate(FlowId f) const;           // units/s, as of the last solve
  double remaining(FlowId f, Time now) const;
  size_t active_flows() const { return active_flows_; }
  // Sum of w * rate over the constraint's active activities (for invariant checks and counters).
  double usage(ConstraintId c) const;
  uint64_t solves() const { return solves_; }
  uint64_t classes_solved() const { return classes_solved_; }

 private:
  struct Constraint {
    double capacity = 0;
    std::vector<FlowClassId> active;  // classes with members, unordered (swap-remove)
    // scratch for solve()
    double remaining = 0;
    double demand = 0;
    uint32_t mark = 0;
    uint32_t version = 0;
  };
  struct Member {
    double level;
    FlowId flow;
    bool operator>(const Member& o) const {
      return level > o.level || (level == o.level && flow > o.flow);
    }
  };
  struct FlowClass {
    std::vector<FlowElement> elements;
    std::vector<uint32_t> slot;       // position of this class in each element's Constraint::active
    double bound = kUnbounded;
    uint32_t members = 0;
    double rate = 0;
    double served = 0;                // service per member since the class last became non-empty
    int64_t last_ps = 0;
    std::vector<Member> heap;         // min-heap by level; cancelled members removed lazily
    uint32_t mark = 0;
    bool fixed = false;
    bool live = false;
    bool dirty = false;
  };
  struct Flow {
    FlowClassId cls = 0;
    double level = 0;
    uint64_t tag = 0;
    bool active = false;
  };

  void advance(FlowClass& k, int64_t now_ps);
  void activate(FlowClassId id);
  void deactivate(FlowClassId id);
  void mark_dirty(FlowClassId id);
  void drop_cancelled_top(FlowClass& k);
  void update_completion(FlowClassId id);
  void fix(FlowClassId id, double rate);
  // completion heap (indexed binary heap of classes by next finish)
  void heap_set(FlowClassId id, int64_t key);
  void heap_remove(FlowClassId id);
  void heap_up(size_t i);
  void heap_down(size_t i);

  std::vector<Constraint> constraints_;
  std::vector<FlowClass> classes_;
  std::vector<FlowClassId> free_classes_;
  std::vector<Flow> flows_;
  std::vector<FlowId> free_flows_;
  std::vector<FlowClassId> dirty_classes_;
  // Completion heap: 4-ary, (class, finish ps), positions kept apart from the classes so that
  // sifting touches two small arrays only.
  std::vector<std::pair<FlowClassId, int64_t>> completion_heap_;
  std::vector<int32_t> heap_pos_;  // per class; -1 when not in the heap
  size_t active_flows_ = 0;
  uint32_t epoch_ = 0;
  uint64_t solves_ = 0;
  uint64_t classes_solved_ = 0;
  // scratch reused by solve()
  std::vector<ConstraintId> comp_constraints_;
  std::vector<FlowClassId> comp_classes_;
  std::vector<FlowClassId> bounded_;
  struct HeapKey {
    double lambda;
    ConstraintId c;
    uint32_t version;
    bool operator>(const HeapKey& o) const {
      return lambda > o.lambda || (lambda == o.lambda && c > o.c);
    }
  };
  std::vector<HeapKey> fill_heap_;
};

}  // namespace parallax
