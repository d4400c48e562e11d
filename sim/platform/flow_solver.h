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
// Three levels keep it fast when thousands of flows are coupled:
//  * Flow classes. Activities with the same constraints, weights and bound always get the same
//    rate; they are solved once, as a class with a multiplicity. A member finishes when its
//    class's cumulative service reaches the member's level (service at join + amount).
//  * Bottleneck groups. Every class fixed by the same saturated constraint gets that
//    constraint's rate. A group keeps one service curve for all its classes, so a change of the
//    fair share updates one group, not each class; a class only moves when its bottleneck does.
//  * Columns. Each group keeps, per constraint its classes use, their summed demand (members x
//    weight) and count; each constraint keeps its row (the groups with an entry on it).
//    Progressive filling fixes a whole group by walking its column, and visits a class only when
//    it changes group (a constraint saturating under a class of another unfixed group takes it,
//    a class reaching its bound moves to its own group).
//  * Incremental re-solve. A start or finish marks its class dirty; solve() re-fills only the
//    groups the change can reach: the dirty classes' groups, the groups their constraints fix,
//    and, closed over, the group each of those groups' constraints fixes (a rate that moves
//    changes what is left on every constraint it uses). Every other group keeps its rate, and
//    its usage is taken off the capacities before the filling. If a group whose rate fell now
//    runs slower than a group left out on the constraint that fixes it, that group was not
//    bottlenecked where it thought: it joins and the filling runs again (after a few such
//    passes, the whole connected component, which is always exact).
//  * Slack constraints. Each class has a ceiling: the rate it would get alone (its bound, or its
//    tightest constraint's capacity over its demand there). A constraint whose classes could all
//    run at their ceilings within its capacity never saturates, so it neither couples its classes
//    into one component nor enters progressive filling: the rates are those of the full problem.
//    A GPU's HBM, shared by every copy to and from it at 30x a link's bandwidth, is the usual one.
//  * Parked classes. A class that empties alone in its group keeps its group and its counts on
//    its constraints until the next solve; a start before then (a ring's hop, a latency after its
//    last chunk) takes it back where it was instead of leaving and re-entering everything.
// Completion times: each group keeps a heap of its classes by first finish, and a calendar of
// groups (one bucket per picosecond, completion_calendar.h) gives the next completion overall;
// the groups due at an instant leave it together.
//
// Time is integer picoseconds (the engine's Time); finishes are rounded to the nearest ps.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/platform/completion_calendar.h"
#include "sim/platform/indexed_heap.h"

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

  FlowSolver() = default;
  // Its heaps point back into it: not copyable, not movable.
  FlowSolver(const FlowSolver&) = delete;
  FlowSolver& operator=(const FlowSolver&) = delete;

  ConstraintId add_constraint(double capacity);
  // Room for n constraints in all, made at once: a platform's thousands of constraints, added
  // one by one, copied the growing arrays over fresh pages (page faults).
  void reserve_constraints(size_t n);
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
  // Appends the tags of every activity finished by `now` and removes them. Deterministic order.
  void collect_completed(Time now, std::vector<uint64_t>& tags);

  double rate(FlowId f) const;  // units/s, as of the last solve
  double remaining(FlowId f, Time now) const;
  size_t active_flows() const { return active_flows_; }
  // Sum of w * rate over the constraint's active activities (for invariant checks and counters).
  double usage(ConstraintId c) const;
  uint64_t solves() const { return solves_; }
  uint64_t classes_solved() const { return classes_solved_; }

 private:
  using GroupId = uint32_t;  // constraint c -> c; class k's own group -> kOwnGroup | k
  static constexpr GroupId kNoGroup = UINT32_MAX;
  static constexpr GroupId kOwnGroup = 0x80000000u;

  // Where each heap keeps its entries' positions.
  struct ClassInGroup {
    FlowSolver* solver = nullptr;
    int32_t& operator()(uint32_t k) const { return solver->classes_[k].group_pos; }
  };
  struct GroupInCompletions {
    FlowSolver* solver = nullptr;
    CalendarPlace& operator()(uint32_t g) const { return solver->completion_pos(g); }
  };
  struct ConstraintInFill {
    FlowSolver* solver = nullptr;
    int32_t& operator()(uint32_t c) const { return solver->constraints_[c].fill_pos; }
  };

  // The classes of one group on one constraint. Entries live in a pool (stable ids) so that a
  // class can keep the ids of its entries: a member change is then one add per element.
  struct ColumnEntry {
    ConstraintId constraint = 0;
    GroupId group = 0;
    double demand = 0;   // sum of members x weight
    uint32_t count = 0;  // classes
    uint32_t row_pos = 0;
    uint32_t col_pos = 0;
  };
  // Two cache lines: the first holds what every start, finish and solve reads (a ring's step
  // reads nothing else), the second the filling's scratch and the row.
  struct alignas(64) Constraint {
    double capacity = 0;
    double ceiling_sum = 0;           // sum of members x weight x ceiling of its active classes
    // Classes with members, and those that emptied since the last solve (in no solve's view),
    // unordered (swap-remove); busy counts the former.
    std::vector<FlowClassId> active;
    uint32_t busy = 0;
    uint32_t unlisted = 0;            // active classes on it not in its row
    uint32_t mark = 0;
    uint32_t held = 0;  // solve(): a dirty class with members uses it (epoch_)
    // As of the last solve that had one of its classes dirty (only those change it): the sum of
    // its classes' ceilings (members x weight x ceiling) stays below its capacity.
    bool slack = false;
    bool was_slack = false;  // solve() scratch, for a seed: `slack` before the solve judged it
    bool rescan = false;              // ceiling_sum is taken again at the next judgement
    std::vector<uint32_t> row;        // entries of the groups with classes on it, unordered
    int32_t self_entry = -1;          // the entry of its own group, if any
    uint32_t unfixed = 0;             // solve() scratch: classes on it not fixed yet
    double remaining = 0;             // scratch for solve()
    double demand = 0;
    uint32_t round = 0;
    int32_t fill_pos = -1;
  };
  // Two cache lines: the first holds what a start, a finish and the solve of a class alone
  // read (a ring's step reads nothing else, for hundreds of groups in turn), the second the
  // filling's.
  struct alignas(64) Group {
    explicit Group(FlowSolver* s) : heap(ClassInGroup{s}) {}
    double lambda = 0;   // rate of each member of each class in the group
    double service = 0;  // per-member service since the group last emptied
    int64_t last_ps = 0;
    IndexedHeap<double, ClassInGroup> heap;  // classes by the group service of their first finish
    uint32_t mark = 0;             // solve(): in the solve (epoch_)
    // solve() scratch: whether a class joined, left or was re-keyed, and the rate before the
    // solve (kUnbounded if it was empty: nothing is known of the rates on its constraint); a
    // group with neither change keeps its completion time.
    bool moved = false;
    double lambda_before = 0;
    uint32_t fixed = 0;            // solve(): its rate is set in this filling pass (fill_epoch_)
    uint32_t bounded = 0;          // classes with a finite bound
    std::vector<uint32_t> column;  // its entries, one per constraint its classes use, unordered
  };
  struct Member {
    double level;
    FlowId flow;
    bool operator>(const Member& o) const {
      return level > o.level || (level == o.level && flow > o.flow);
    }
  };
  // A class's element, and where the class sits on its constraint: one array per class (an array
  // per field was three allocations a class).
  struct ClassElement {
    ConstraintId constraint;
    uint32_t slot;  // position of this class in the constraint's Constraint::active
    double weight;
    uint32_t entry;  // its group's column entry on the constraint (while listed)
  };
  // Two cache lines: the first holds what the solve reads of a dirty class, the second what a
  // start or a finish adds (its members' heap, its place on its group's service curve).
  struct alignas(64) FlowClass {
    std::vector<ClassElement> elements;
    // What the ceiling was computed for: it holds while no capacity changed and the class has as
    // many members (a ring's hop empties and refills its class at every step).
    uint64_t ceiling_capacities = UINT64_MAX;
    double ceiling = 0;          // per-member rate alone; as of the solve that last saw it dirty
    uint32_t ceiling_members = 0;
    uint32_t members = 0;
    GroupId group = kNoGroup;
    GroupId ceiling_group = kNoGroup;  // the group that rate would put it in
    int32_t group_pos = -1;      // position in its group's heap
    bool live = false;
    bool dirty = false;
    bool listed = false;          // in its group's column (else counted in Constraint::unlisted)
    // Parked (flow_solver.cpp, above parkable()): empty, out of its group's heap, but still in
    // `group` and counted on its constraints with parked_members members until the next solve.
    bool parked = false;
    std::vector<Member> heap;    // min-heap by level (class-service units); cancelled ones lazily
    // Service of a member of this class at time t: s_base + (group service at t - g_base).
    double s_base = 0;
    double g_base = 0;
    double bound = kUnbounded;
    uint32_t cancelled = 0;      // entries of `heap` whose flow was cancelled (not yet dropped)
    uint32_t parked_members = 0;
    bool in_lists = false;       // in its constraints' Constraint::active
  };
  struct Flow {
    FlowClassId cls = 0;
    double level = 0;
    uint64_t tag = 0;
    bool active = false;
  };

  Group& group(GroupId g) { return g & kOwnGroup ? own_groups_[g & ~kOwnGroup] : constraint_groups_[g]; }
  const Group& group(GroupId g) const {
    return g & kOwnGroup ? own_groups_[g & ~kOwnGroup] : constraint_groups_[g];
  }
  // Places in the completion calendar, kept apart from the groups: a sift touches only this array.
  CalendarPlace& completion_pos(GroupId g) {
    return g & kOwnGroup ? own_completion_pos_[g & ~kOwnGroup] : constraint_completion_pos_[g];
  }
  [[gnu::always_inline]] void advance_group(Group& g, int64_t now_ps);
  [[gnu::always_inline]] double class_service(const FlowClass& k, int64_t now_ps) const;
  void activate(FlowClassId id);
  void deactivate(FlowClassId id, uint32_t removed);
  void leave_constraints(const FlowClass& k, uint32_t removed);
  [[gnu::always_inline]] bool parkable(const FlowClass& k) const;
  [[gnu::always_inline]] void park(FlowClassId id, uint32_t removed);
  void unpark(FlowClassId id);
  [[gnu::always_inline]] void refill(FlowClassId id, int64_t now_ps);
  void leave_lists(FlowClassId id);
  [[gnu::always_inline]] void mark_dirty(FlowClassId id);
  double alone_rate(const FlowClass& k, GroupId& g) const;
  // What it judges, and why the running sum holds: flow_solver.cpp, above rescan_ceilings().
  bool is_slack(Constraint& c, ConstraintId cid) {
    if (c.rescan) rescan_ceilings(c, cid);
    return c.ceiling_sum < c.capacity * (1 - 1e-9);
  }
  void rescan_ceilings(Constraint& c, ConstraintId cid);
  // A term that may cancel a stale one: one far above the capacity leaves the sum to be taken
  // again (see is_slack() in flow_solver.cpp).
  static void add_ceiling(Constraint& c, double term) {
    c.ceiling_sum += term;
    if (std::fabs(term) > 2 * c.capacity) c.rescan = true;
  }
  void drop_cancelled_top(FlowClass& k);
  // Column upkeep: a class's demand enters and leaves its group's entries.
  uint32_t find_or_add_entry(ConstraintId c, GroupId g);
  void join_columns(FlowClassId id);
  void leave_columns(FlowClassId id, double members);
  void list_class(FlowClassId id);
  void member_change(const FlowClass& k, double delta);
  bool in_solve(GroupId g) const { return group(g).mark == epoch_; }
  bool is_fixed(GroupId g) const { return group(g).fixed == fill_epoch_; }
  void take_constraint(ConstraintId cid) {
    Constraint& c = constraints_[cid];
    if (c.mark != epoch_) {
      c.mark = epoch_;
      comp_constraints_.push_back(cid);
    }
  }
  // A seed of the solve: taken, with its judgement before the solve kept in was_slack.
  void take_seed(ConstraintId cid) {
    Constraint& c = constraints_[cid];
    if (c.mark != epoch_) c.was_slack = c.slack;
    take_constraint(cid);
  }
  [[gnu::always_inline]] void take_group(GroupId g);  // into the solve, brought to now under its old rate
  void take_owners();          // closes the solve over "the group a member's constraint fixes"
  bool settled();              // no group left out runs faster than the constraint fixing it
  void take_component();       // every group connected through constraints that may saturate
  void fill_pass();            // progressive filling of the solve's unfixed groups
  [[gnu::always_inline]] bool alone_on(const Constraint& c) const;
  void fix_alone();
  void finish_solve();
  void fix_group(GroupId g, double rate);
  void push_round_keys();
  // The filling set: constraints by fair share, the smallest first (ties: the lowest id).
  void fill_build();
  void fill_set(ConstraintId cid, double share);
  void fill_remove(ConstraintId cid);
  void fill_top(double& share, ConstraintId& cid) const;
  void move_to_group(FlowClassId id, GroupId g, bool list);  // at now_ps_
  [[gnu::always_inline]] void place_in_group(FlowClassId id);  // (re)keys the class in its group's heap
  void remove_from_group(FlowClassId id, double members);
  void update_group_completion(GroupId g);

  std::vector<Constraint> constraints_;
  std::vector<Group> constraint_groups_;
  std::vector<FlowClass> classes_;
  std::vector<Group> own_groups_;
  std::vector<CalendarPlace> constraint_completion_pos_;
  std::vector<CalendarPlace> own_completion_pos_;
  std::vector<FlowClassId> free_classes_;
  std::vector<FlowElement> merge_scratch_;  // make_class(): the elements, merged by constraint
  std::vector<Flow> flows_;
  std::vector<FlowId> free_flows_;
  std::vector<FlowClassId> dirty_classes_;
  std::vector<FlowClassId> parked_;  // parked since the last solve (some may have refilled)
  CompletionCalendar<GroupInCompletions> completions_{GroupInCompletions{this}};  // groups by finish ps
  size_t active_flows_ = 0;
  uint32_t epoch_ = 0;
  uint32_t fill_epoch_ = 0;
  uint64_t capacity_changes_ = 0;  // set_capacity() calls so far
  int64_t now_ps_ = 0;  // the time of the solve under way
  uint64_t solves_ = 0;
  uint64_t classes_solved_ = 0;
  // scratch reused by solve()
  std::vector<ColumnEntry> entries_;
  std::vector<uint32_t> free_entries_;
  std::vector<ConstraintId> comp_constraints_;
  std::vector<GroupId> comp_groups_;
  std::vector<ConstraintId> released_seeds_;  // constraints of dirty classes released before solve()
  std::vector<FlowClassId> bounded_;
  std::vector<FlowClassId> solving_;  // the dirty classes of the solve under way
  size_t owners_taken_ = 0;           // comp_groups_[0, owners_taken_) have their owners taken
  std::vector<std::pair<GroupId, double>> alone_;  // groups the fast path fixes, and their rates
  std::vector<ConstraintId> round_touched_;
  uint32_t round_ = 1;
  // Up to kFillScan constraints the filling set is an unordered array, scanned for its smallest
  // share: it picks the same constraint as the heap, and up to a few hundred entries its
  // predictable loop costs less CPU than the heap's sifts after every round (random N=10,000:
  // -27 %; the 128-link crossbar: -12 %). Larger sets, where a scan per round would grow
  // quadratically, use the heap. fill_pos indexes whichever holds the constraint.
  static constexpr size_t kFillScan = 256;
  bool fill_scan_ = true;
  std::vector<std::pair<double, ConstraintId>> fill_list_;
  IndexedHeap<double, ConstraintInFill> fill_{ConstraintInFill{this}};
  std::vector<GroupId> due_;  // collect_completed() scratch
};

}  // namespace parallax
