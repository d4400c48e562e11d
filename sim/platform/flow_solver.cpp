// File: sim/platform/flow_solver.cpp
#include "sim/platform/flow_solver.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace parallax {

namespace {
constexpr double kPsPerSecond = 1e12;

// Finish times are rounded to the nearest picosecond, so at its event a member may still lack
// what it receives in half a picosecond; anything due within the next picosecond is done now.
// (Rounding up instead would bias long chains of dependent transfers: +0.5 ps per link.)
double completion_tolerance(double level, double rate) {
  return rate * 1e-12 + 1e-11 * std::fabs(level) + 1e-9;
}

void check_capacity(double capacity) {
  if (!(capacity >= 0) || !std::isfinite(capacity))
    throw std::invalid_argument("FlowSolver: constraint capacity must be finite and >= 0");
}
}  // namespace

ConstraintId FlowSolver::add_constraint(double capacity) {
  check_capacity(capacity);
  constraints_.push_back(Constraint{});
  constraints_.back().capacity = capacity;
  constraints_.back().slack = capacity > 0;
  constraint_groups_.emplace_back(this);
  constraint_completion_pos_.emplace_back();
  return static_cast<ConstraintId>(constraints_.size() - 1);
}

void FlowSolver::reserve_constraints(size_t n) {
  constraints_.reserve(n);
  constraint_groups_.reserve(n);
  constraint_completion_pos_.reserve(n);
}

void FlowSolver::set_capacity(ConstraintId c, double capacity) {
  check_capacity(capacity);
  Constraint& con = constraints_.at(c);
  con.capacity = capacity;
  con.rescan = true;
  ++capacity_changes_;
  // With classes, the next solve re-judges it (it is their constraint); without, judge it here.
  if (con.active.empty()) con.slack = capacity > 0;
  for (FlowClassId k : con.active) mark_dirty(k);
}

FlowClassId FlowSolver::make_class(std::span<const FlowElement> elements, double bound) {
  if (!(bound > 0)) throw std::invalid_argument("FlowSolver: class bound must be > 0");
  std::vector<FlowElement>& merged = merge_scratch_;
  merged.clear();
  for (const FlowElement& e : elements) {
    if (e.constraint >= constraints_.size()) throw std::invalid_argument("FlowSolver: unknown constraint id");
    if (!(e.weight > 0) || !std::isfinite(e.weight))
      throw std::invalid_argument("FlowSolver: element weight must be finite and > 0");
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&](const FlowElement& m) { return m.constraint == e.constraint; });
    if (it != merged.end()) it->weight += e.weight;
    else merged.push_back(e);
  }
  if (merged.empty() && !std::isfinite(bound))
    throw std::invalid_argument("FlowSolver: a class needs a constraint or a finite bound");
  FlowClassId id;
  if (!free_classes_.empty()) {
    id = free_classes_.back();
    free_classes_.pop_back();
  } else {
    id = static_cast<FlowClassId>(classes_.size());
    classes_.emplace_back();
    own_groups_.emplace_back(this);
    own_completion_pos_.emplace_back();
  }
  FlowClass& k = classes_[id];
  k.elements.clear();  // a reused id keeps its array
  k.elements.reserve(merged.size());  // (grown by push_back: four allocations a class, three freed)
  for (const FlowElement& e : merged) k.elements.push_back({e.constraint, 0, e.weight, 0});
  k.bound = bound;
  k.ceiling_capacities = UINT64_MAX;  // (a reused id's ceiling was another class's)
  k.members = 0;
  k.heap.clear();
  k.cancelled = 0;
  k.group = kNoGroup;
  k.s_base = k.g_base = 0;
  k.group_pos = -1;
  k.listed = false;
  k.in_lists = false;
  k.parked = false;
  k.live = true;
  Group& own = own_groups_[id];
  own.heap.clear();
  own.lambda = own.service = 0;
  own.last_ps = 0;
  completions_.remove(kOwnGroup | id);
  return id;
}

void FlowSolver::release_class(FlowClassId id) {
  FlowClass& k = classes_.at(id);
  if (!k.live) throw std::logic_error("FlowSolver: class released twice");
  if (k.members != 0) throw std::logic_error("FlowSolver: releasing a class with active members");
  if (k.parked) unpark(id);
  // A class that emptied since the last solve still changes its constraints' other users: keep
  // them as seeds of the next solve, which no longer sees this class's elements.
  if (k.dirty)
    for (const ClassElement& e : k.elements) released_seeds_.push_back(e.constraint);
  if (k.in_lists) leave_lists(id);
  k.live = false;
  free_classes_.push_back(id);
}

inline void FlowSolver::advance_group(Group& g, int64_t now_ps) {
  if (now_ps > g.last_ps) {
    g.service += g.lambda * static_cast<double>(now_ps - g.last_ps) / kPsPerSecond;
    g.last_ps = now_ps;
  }
}

inline double FlowSolver::class_service(const FlowClass& k, int64_t now_ps) const {
  if (k.group == kNoGroup) return k.s_base;
  const Group& g = group(k.group);
  const double gs = g.service + g.lambda * static_cast<double>(std::max<int64_t>(0, now_ps - g.last_ps)) / kPsPerSecond;
  return k.s_base + (gs - k.g_base);
}

FlowId FlowSolver::start(FlowClassId id, double amount, uint64_t tag, Time now) {
  if (!(amount > 0) || !std::isfinite(amount)) throw std::invalid_argument("FlowSolver: amount must be finite and > 0");
  FlowClass& k = classes_.at(id);
  if (!k.live) throw std::logic_error("FlowSolver: start in a released class");
  FlowId f;
  if (!free_flows_.empty()) {
    f = free_flows_.back();
    free_flows_.pop_back();
  } else {
    f = static_cast<FlowId>(flows_.size());
    flows_.emplace_back();
  }
  const bool refilled = k.parked;
  if (refilled) refill(id, now.ps());
  const double level = class_service(k, now.ps()) + amount;
  flows_[f] = Flow{id, level, tag, true};
  const bool new_min = k.heap.empty() || level < k.heap.front().level;
  k.heap.push_back(Member{level, f});
  std::push_heap(k.heap.begin(), k.heap.end(), std::greater<>{});
  if (refilled) {
    // Back on its constraints as it left them, with one member: its group gets its completion
    // from the solve this start asks for (as a class new to a group does).
    ++k.members;
    if (k.parked_members != 1) member_change(k, 1.0 - k.parked_members);
    place_in_group(id);
  } else {
    if (k.members++ == 0) activate(id);
    else member_change(k, 1);
    if (new_min && k.group != kNoGroup) {  // keep its group's heap right until the next solve
      place_in_group(id);
      update_group_completion(k.group);
    }
  }
  ++active_flows_;
  mark_dirty(id);
  return f;
}

bool FlowSolver::cancel(FlowId f, Time now) {
  (void)now;
  if (f >= flows_.size() || !flows_[f].active) return false;
  const FlowClassId id = flows_[f].cls;
  FlowClass& k = classes_[id];
  flows_[f].active = false;
  free_flows_.push_back(f);
  --active_flows_;
  if (--k.members == 0) {
    const GroupId g = k.group;
    deactivate(id, 1);
    if (g != kNoGroup) update_group_completion(g);
  } else {
    member_change(k, -1);
    ++k.cancelled;
    drop_cancelled_top(k);
    if (k.group != kNoGroup) {
      place_in_group(id);
      update_group_completion(k.group);
    }
  }
  mark_dirty(id);
  return true;
}

// A class that emptied since the last solve is still in its constraints' lists: it only counts
// again (a ring's hop, refilled a step after it emptied, with no solve between).
void FlowSolver::activate(FlowClassId id) {
  FlowClass& k = classes_[id];
  const bool listed = k.in_lists;
  k.in_lists = true;
  for (size_t i = 0; i < k.elements.size(); ++i) {
    Constraint& c = constraints_[k.elements[i].constraint];
    if (!listed) {
      k.elements[i].slot = static_cast<uint32_t>(c.active.size());
      c.active.push_back(id);
    }
    ++c.busy;
    ++c.unlisted;  // a class starts in no group: in no column
    c.ceiling_sum += k.elements[i].weight * k.ceiling;  // its first member (see is_slack())
  }
}

// Out of its constraints' lists: at the first solve after it emptied, or when it is released.
void FlowSolver::leave_lists(FlowClassId id) {
  FlowClass& k = classes_[id];
  k.in_lists = false;
  for (size_t i = 0; i < k.elements.size(); ++i) {
    const ConstraintId c = k.elements[i].constraint;
    auto& list = constraints_[c].active;
    const uint32_t pos = k.elements[i].slot;
    const FlowClassId moved = list.back();
    list[pos] = moved;
    list.pop_back();
    if (moved != id) {
      FlowClass& m = classes_[moved];
      for (size_t j = 0; j < m.elements.size(); ++j)
        if (m.elements[j].constraint == c) m.elements[j].slot = pos;
    }
  }
}

// The class lost its last `removed` members. Its group's completion is the caller's to update
// (collect_completed() does it once per group, after all of the group's classes that finish).
// It stays in its constraints' lists until the next solve (leave_lists()).
void FlowSolver::deactivate(FlowClassId id, uint32_t removed) {
  FlowClass& k = classes_[id];
  leave_constraints(k, removed);  // (before its columns: it reads `listed`)
  k.heap.clear();
  k.cancelled = 0;
  if (k.group != kNoGroup) {
    remove_from_group(id, removed);
    k.group = kNoGroup;
  }
  k.s_base = k.g_base = 0;
}

// The class's counts on its constraints leave with its last `removed` members.
void FlowSolver::leave_constraints(const FlowClass& k, uint32_t removed) {
  for (size_t i = 0; i < k.elements.size(); ++i) {
    Constraint& con = constraints_[k.elements[i].constraint];
    if (!k.listed) --con.unlisted;
    if (--con.busy == 0) con.ceiling_sum = 0;  // what rounding left of the sum goes
    else add_ceiling(con, -(removed * k.elements[i].weight * k.ceiling));
  }
}

// Parking: a class that empties alone in its group, unlisted and in the group of its ceiling
// (a ring's hop at the end of a step), leaves its group's heap but keeps its group and its
// counts on its constraints until the next solve. A start before then (the hop's next chunk,
// a latency later) takes it back where it was: no leave and re-entry on each constraint, no
// move into its group at the solve (docs/performance.md "Inlining, parked classes and page
// faults"). The group's service curve restarts at the refill, as a fresh group's does at its
// first class, so the numbers are those of the path without parking. A class still empty at
// the next solve (or released) finishes leaving there (unpark()).
inline bool FlowSolver::parkable(const FlowClass& k) const {
  return !k.listed && k.group == k.ceiling_group && group(k.group).heap.size() == 1;
}

inline void FlowSolver::park(FlowClassId id, uint32_t removed) {
  FlowClass& k = classes_[id];
  k.heap.clear();
  k.cancelled = 0;
  remove_from_group(id, removed);
  k.parked = true;
  k.parked_members = removed;
  parked_.push_back(id);
}

// A parked class that no start took back: it leaves its constraints and its group now.
void FlowSolver::unpark(FlowClassId id) {
  FlowClass& k = classes_[id];
  k.parked = false;
  leave_constraints(k, k.parked_members);
  k.group = kNoGroup;
  k.s_base = k.g_base = 0;
}

// A start in a parked class: back in its group, which no other class can have joined (classes
// change groups only in a solve, and the parked one was its group's only class).
inline void FlowSolver::refill(FlowClassId id, int64_t now_ps) {
  FlowClass& k = classes_[id];
  Group& g = group(k.group);
  k.parked = false;
  g.service = 0;
  g.last_ps = now_ps;
  k.s_base = k.g_base = 0;
  if (std::isfinite(k.bound)) ++g.bounded;
}

inline void FlowSolver::mark_dirty(FlowClassId id) {
  FlowClass& k = classes_[id];
  if (!k.dirty) {
    k.dirty = true;
    dirty_classes_.push_back(id);
  }
}

// Without cancellations every entry is live: no look-up of the (cold) flow records.
void FlowSolver::drop_cancelled_top(FlowClass& k) {
  while (k.cancelled > 0 && !k.heap.empty()) {
    const Member& m = k.heap.front();
    const Flow& f = flows_[m.flow];
    if (f.active && &classes_[f.cls] == &k && f.level == m.level) return;
    std::pop_heap(k.heap.begin(), k.heap.end(), std::greater<>{});
    k.heap.pop_back();
    --k.cancelled;
  }
}

// The rate of each member if the class had its constraints to itself, and the group that would
// fix it: on a tie, the one progressive filling would pick (the bound, then the lowest id).
double FlowSolver::alone_rate(const FlowClass& k, GroupId& g) const {
  double rate = k.bound;
  for (const ClassElement& e : k.elements) {
    const double r = constraints_[e.constraint].capacity / (k.members * e.weight);
    if (r < rate || (r == rate && !(g & kOwnGroup) && e.constraint < g)) {
      rate = r;
      g = e.constraint;
    }
  }
  return rate;
}

// is_slack() (flow_solver.h) is true when the constraint cannot saturate: every class on it at
// its ceiling leaves room. Rates never exceed ceilings, so progressive filling would never pick
// it; the margin keeps rounding in the filling's shares far from a tie with one that saturates.
// The sum is kept as classes come and go and change ceilings, O(1) a change (add_ceiling()).
// A current ceiling's term is at most the capacity (a ceiling is at most capacity / (members x
// weight) on each of its constraints), so the rounding stays far below the margin; a stale one
// (the capacity changed, or the class was inactive meanwhile) may be far larger, and what it
// leaves when it cancels may not be (a capacity cut to 0 under classes with large ceilings left
// the sum at -5e-4 in a property test). After such a term the sum is taken again.
// A stale term enters unchecked (a start, a member change) but always leaves through a checked
// one (the class's next solve replaces its ceiling, or it deactivates).
void FlowSolver::rescan_ceilings(Constraint& c, ConstraintId cid) {
  double most = 0;
  for (FlowClassId id : c.active) {
    const FlowClass& k = classes_[id];
    for (const ClassElement& e : k.elements)
      if (e.constraint == cid) most += k.members * e.weight * k.ceiling;
  }
  c.ceiling_sum = most;
  c.rescan = false;
}


// The entry of group g on constraint c, made if missing. Only a class changing group looks one
// up (a few per solve); it scans the shorter of the group's column and the constraint's row.
uint32_t FlowSolver::find_or_add_entry(ConstraintId c, GroupId g) {
  Constraint& con = constraints_[c];
  Group& gr = group(g);
  if (gr.column.size() <= con.row.size()) {
    for (uint32_t e : gr.column)
      if (entries_[e].constraint == c) return e;
  } else {
    for (uint32_t e : con.row)
      if (entries_[e].group == g) return e;
  }
  uint32_t e;
  if (!free_entries_.empty()) {
    e = free_entries_.back();
    free_entries_.pop_back();
  } else {
    e = static_cast<uint32_t>(entries_.size());
    entries_.emplace_back();
  }
  entries_[e] = ColumnEntry{c, g, 0, 0, static_cast<uint32_t>(con.row.size()), static_cast<uint32_t>(gr.column.size())};
  con.row.push_back(e);
  gr.column.push_back(e);
  if (g == c) con.self_entry = static_cast<int32_t>(e);
  return e;
}

void FlowSolver::join_columns(FlowClassId id) {
  FlowClass& k = classes_[id];
  k.listed = true;
  for (size_t i = 0; i < k.elements.size(); ++i) {
    const uint32_t e = find_or_add_entry(k.elements[i].constraint, k.group);
    k.elements[i].entry = e;
    entries_[e].demand += k.members * k.elements[i].weight;
    ++entries_[e].count;
  }
}

// Its demand leaves with `members` members (the class's, or those it just lost).
void FlowSolver::leave_columns(FlowClassId id, double members) {
  FlowClass& k = classes_[id];
  k.listed = false;
  Group& g = group(k.group);
  for (size_t i = 0; i < k.elements.size(); ++i) {
    const uint32_t e = k.elements[i].entry;
    ColumnEntry& ent = entries_[e];
    ent.demand -= members * k.elements[i].weight;
    if (--ent.count > 0) continue;
    // Its last class left: out of the row and the column (swap-remove), back to the pool.
    Constraint& con = constraints_[ent.constraint];
    const uint32_t row_last = con.row.back();
    con.row[ent.row_pos] = row_last;
    entries_[row_last].row_pos = ent.row_pos;
    con.row.pop_back();
    const uint32_t col_last = g.column.back();
    g.column[ent.col_pos] = col_last;
    entries_[col_last].col_pos = ent.col_pos;
    g.column.pop_back();
    if (con.self_entry == static_cast<int32_t>(e)) con.self_entry = -1;
    free_entries_.push_back(e);
  }
}

// A class in a group is listed in its columns, or unlisted: counted in Constraint::unlisted
// only. Only a class alone in its group, and alone on every constraint that may saturate, is
// left unlisted (the fast path's: a ring's hops): it couples nothing, so its column entries
// would be made and freed for nothing. It is listed when a second class joins its group
// (move_to_group()) or shares one of its constraints that may saturate (solve()'s seeds).
void FlowSolver::list_class(FlowClassId id) {
  FlowClass& k = classes_[id];
  for (const ClassElement& e : k.elements) --constraints_[e.constraint].unlisted;
  join_columns(id);
  if (in_solve(k.group))  // (its group was taken with an empty column)
    for (const ClassElement& e : k.elements) take_constraint(e.constraint);
}

// A class gained (delta > 0) or lost members: its constraints' sums of ceilings and, when it is
// listed, its entries' demands follow.
void FlowSolver::member_change(const FlowClass& k, double delta) {
  for (size_t i = 0; i < k.elements.size(); ++i) {
    const ClassElement& e = k.elements[i];
    constraints_[e.constraint].ceiling_sum += delta * e.weight * k.ceiling;  // (see is_slack())
    if (k.listed) entries_[k.elements[i].entry].demand += delta * e.weight;
  }
}

// A group joins the solve (its column's constraints join in take_owners()). Its rate is still the
// old one: bring its service curve to now under it, and keep it (the filling may change it).
inline void FlowSolver::take_group(GroupId g) {
  Group& gr = group(g);
  if (gr.mark == epoch_) return;
  gr.mark = epoch_;
  comp_groups_.push_back(g);
  advance_group(gr, now_ps_);
  gr.lambda_before = gr.heap.empty() ? kUnbounded : gr.lambda;
}

// Each group taken since the last call brings in the constraints of its column that may
// saturate (a slack one never enters the filling) and, since its rate may change and with it
// what is left on each of them, the group each of them fixes (its owner).
void FlowSolver::take_owners() {
  for (; owners_taken_ < comp_groups_.size(); ++owners_taken_) {
    const GroupId g = comp_groups_[owners_taken_];
    for (uint32_t e : group(g).column) {
      const ConstraintId cid = entries_[e].constraint;
      if (constraints_[cid].slack) continue;
      take_constraint(cid);
      const Group& owner = constraint_groups_[cid];
      if (owner.mark != epoch_ && !owner.heap.empty()) take_group(cid);
    }
  }
}

// The rates the filling gave are max-min fair for the whole problem if every group left out
// still has its bottleneck: its rate at most that of each group in the solve fixed by a
// constraint it uses. It was before the solve (the old allocation was max-min fair), so only a
// group whose rate fell (or that was empty, with nothing known) needs the check. A group left
// out that runs faster joins, with its owners, for another pass.
bool FlowSolver::settled() {
  constexpr double kSettleMargin = 1e-12;  // far below the filling's rounding of a share
  const size_t before = comp_groups_.size();
  for (size_t i = 0; i < before; ++i) {
    const GroupId gid = comp_groups_[i];
    if (gid & kOwnGroup) continue;  // a bound fixes no one else
    const Group& g = group(gid);
    if (g.heap.empty() || !(g.lambda < g.lambda_before)) continue;
    const double most = g.lambda * (1 + kSettleMargin);
    for (uint32_t e : constraints_[gid].row) {
      const GroupId h = entries_[e].group;
      if (!in_solve(h) && group(h).lambda > most) take_group(h);
    }
  }
  if (comp_groups_.size() == before) return true;
  take_owners();
  return false;
}

// Every group on every constraint of the solve that may saturate, and so on: the connected
// component, where no group is left out and one filling pass is exact. (An unlisted class is
// alone on every constraint that may saturate: it is in no row and needs none.)
void FlowSolver::take_component() {
  for (size_t i = 0; i < comp_constraints_.size(); ++i) {
    const Constraint& c = constraints_[comp_constraints_[i]];
    if (c.slack) continue;
    for (uint32_t e : c.row) take_group(entries_[e].group);
    take_owners();
  }
}

// Every class of the group runs at `rate` from now: its column's demand leaves the filling.
void FlowSolver::fix_group(GroupId g, double rate) {
  Group& gr = group(g);
  gr.fixed = fill_epoch_;
  gr.lambda = rate;
  for (uint32_t e : gr.column) {
    const ColumnEntry& ent = entries_[e];
    Constraint& c = constraints_[ent.constraint];
    if (c.slack) continue;
    c.remaining -= ent.demand * rate;
    c.demand -= ent.demand;
    c.unfixed -= ent.count;
    if (c.round != round_) {  // re-keyed once per round, in push_round_keys()
      c.round = round_;
      round_touched_.push_back(ent.constraint);
    }
  }
}

// Each constraint whose share changed in this round gets its new key once.
void FlowSolver::push_round_keys() {
  for (ConstraintId cid : round_touched_) {
    const Constraint& c = constraints_[cid];
    if (c.unfixed > 0 && c.demand > 0) fill_set(cid, std::max(0.0, c.remaining) / c.demand);
    else fill_remove(cid);
  }
  round_touched_.clear();
  ++round_;
}

// Every constraint of the solve that may saturate: its unfixed demand (the sum over its row), what
// the groups already fixed and those left out of the solve use of it taken off its capacity, and,
// if it has unfixed demand, its place in the filling set.
void FlowSolver::fill_build() {
  for (const auto& [share, cid] : fill_list_) constraints_[cid].fill_pos = -1;
  fill_list_.clear();
  fill_.clear();
  for (ConstraintId cid : comp_constraints_) {
    Constraint& c = constraints_[cid];
    if (c.slack) continue;  // (the filling never reads a slack constraint's scratch)
    c.remaining = c.capacity;
    c.demand = 0;
    c.unfixed = 0;
    for (uint32_t e : c.row) {
      const ColumnEntry& ent = entries_[e];
      const Group& g = group(ent.group);
      if (g.mark == epoch_ && g.fixed != fill_epoch_) {
        c.demand += ent.demand;
        c.unfixed += ent.count;
      } else {
        c.remaining -= ent.demand * g.lambda;
      }
    }
    if (c.unfixed > 0 && c.demand > 0) {
      c.fill_pos = static_cast<int32_t>(fill_list_.size());  // (the heap's append sets its own)
      fill_list_.emplace_back(std::max(0.0, c.remaining) / c.demand, cid);
    }
  }
  fill_scan_ = fill_list_.size() <= kFillScan;
  if (fill_scan_) return;
  for (const auto& [share, cid] : fill_list_) fill_.append(cid, share);
  fill_list_.clear();
  fill_.heapify();
}

void FlowSolver::fill_set(ConstraintId cid, double share) {
  if (!fill_scan_) return fill_.set(cid, share);
  int32_t& pos = constraints_[cid].fill_pos;
  if (pos < 0) {
    pos = static_cast<int32_t>(fill_list_.size());
    fill_list_.emplace_back(share, cid);
  } else {
    fill_list_[static_cast<size_t>(pos)].first = share;
  }
}

void FlowSolver::fill_remove(ConstraintId cid) {
  if (!fill_scan_) return fill_.remove(cid);
  int32_t& pos = constraints_[cid].fill_pos;
  if (pos < 0) return;
  const auto last = fill_list_.back();
  fill_list_[static_cast<size_t>(pos)] = last;
  constraints_[last.second].fill_pos = pos;
  fill_list_.pop_back();
  pos = -1;
}

// The smallest share and its constraint; kUnbounded when the set is empty.
void FlowSolver::fill_top(double& share, ConstraintId& cid) const {
  share = kUnbounded;
  if (!fill_scan_) {
    if (fill_.empty()) return;
    share = fill_.top_key();
    cid = fill_.top_id();
    return;
  }
  if (fill_list_.empty()) return;
  auto best = fill_list_.front();
  for (const auto& e : fill_list_)
    if (e.first < best.first || (e.first == best.first && e.second < best.second)) best = e;
  share = best.first;
  cid = best.second;
}

// Moves a class into group g, keeping its service continuous (g is at `now` or empty).
void FlowSolver::move_to_group(FlowClassId id, GroupId g, bool list) {
  FlowClass& k = classes_[id];
  if (k.group == g) return;
  const double s = class_service(k, now_ps_);
  const bool was_listed = k.listed;
  if (k.group != kNoGroup) remove_from_group(id, k.members);
  Group& gr = group(g);
  take_group(g);  // (a class's own group, or a constraint's that was empty)
  if (gr.heap.empty()) {  // a fresh curve
    gr.service = 0;
    gr.last_ps = now_ps_;
  } else {  // two classes in one group: both in its column
    list = true;
    const FlowClassId first = gr.heap.top_id();
    if (!classes_[first].listed) list_class(first);
    advance_group(gr, now_ps_);
  }
  k.group = g;
  if (std::isfinite(k.bound)) ++gr.bounded;
  if (list) join_columns(id);  // (Constraint::unlisted counts the active classes not listed)
  if (was_listed != list)
    for (const ClassElement& e : k.elements) constraints_[e.constraint].unlisted += list ? -1u : 1u;
  k.s_base = s;
  k.g_base = gr.service;
  place_in_group(id);
}

void FlowSolver::solve(Time now) {
  if (dirty_classes_.empty()) return;
  ++solves_;
  ++epoch_;
  now_ps_ = now.ps();
  comp_constraints_.clear();
  comp_groups_.clear();
  owners_taken_ = 0;
  alone_.clear();
  solving_.swap(dirty_classes_);
  dirty_classes_.clear();
  for (FlowClassId id : parked_)
    if (classes_[id].parked) unpark(id);
  parked_.clear();
  // Seeds: the constraints of every dirty class (a class that emptied still changes its
  // constraints' other users), and each dirty class's ceiling. Only a seed can have changed
  // whether it is slack (its classes' ceilings are the ones that moved); Constraint::was_slack
  // keeps each one's judgement before the solve, and the same judgement asks whether every
  // dirty class is alone (alone_on()). A seed is judged as a class with members first takes it,
  // while its line is at hand (a ring's step judges 1,500 seeds, which a second pass read from
  // memory again); a change that may alter a judgement made so (a ceiling moved, a class left
  // the lists, a seed to rescan or of a released class) has them all taken again below, as
  // they were: the sums and lists are final by then.
  bool alone = true;
  bool judge_again = !released_seeds_.empty();
  for (FlowClassId id : solving_) {
    FlowClass& k = classes_[id];
    k.dirty = false;
    if (!k.live) continue;
    if (k.members == 0) {
      for (const ClassElement& e : k.elements) take_seed(e.constraint);
      if (k.in_lists) leave_lists(id);  // (every list the solve reads holds busy classes only)
      judge_again = true;
      continue;
    }
    for (const ClassElement& e : k.elements) {
      Constraint& c = constraints_[e.constraint];
      c.held = epoch_;
      if (c.mark == epoch_) continue;
      take_seed(e.constraint);
      if (c.rescan) {
        judge_again = true;
        continue;
      }
      c.slack = is_slack(c, e.constraint);
      // (alone_on(): k is the one class a list of one holds.)
      alone = alone && ((c.slack && c.was_slack) || c.active.size() == 1);
    }
    if (k.ceiling_capacities == capacity_changes_ && k.ceiling_members == k.members) continue;
    k.ceiling_capacities = capacity_changes_;
    k.ceiling_members = k.members;
    k.ceiling_group = kOwnGroup | id;
    const double ceiling = alone_rate(k, k.ceiling_group);
    if (ceiling != k.ceiling) {
      for (const ClassElement& e : k.elements)
        add_ceiling(constraints_[e.constraint], k.members * e.weight * (ceiling - k.ceiling));
      k.ceiling = ceiling;
      judge_again = true;
    }
  }
  for (ConstraintId cid : released_seeds_) take_seed(cid);
  released_seeds_.clear();
  const size_t seeds = comp_constraints_.size();
  if (judge_again) {
    alone = true;
    for (size_t i = 0; i < seeds; ++i) {
      const ConstraintId cid = comp_constraints_[i];
      Constraint& c = constraints_[cid];
      c.slack = is_slack(c, cid);
      alone = alone && alone_on(c);
    }
  }
  if (alone) return fix_alone();
  // A class new to the solver joins the group of its ceiling: the filling moves it if another
  // constraint or its bound fixes it first.
  for (FlowClassId id : solving_) {
    const FlowClass& k = classes_[id];
    if (!k.live || k.members == 0) continue;
    if (k.group == kNoGroup) move_to_group(id, k.ceiling_group, /*list=*/false);
    else take_group(k.group);
  }
  // A seed that may saturate brings in the group it fixes; one that could not saturate before
  // brings in every group on it, whose rates it may now hold down.
  for (size_t i = 0; i < seeds; ++i) {
    const ConstraintId cid = comp_constraints_[i];
    Constraint& c = constraints_[cid];
    const bool was_slack = c.was_slack;
    if (was_slack && c.slack) continue;
    // A shared constraint lists its unlisted classes first: from now on they share.
    if (c.unlisted > 0 && c.active.size() > 1) {
      for (FlowClassId id : c.active) {
        const FlowClass& k = classes_[id];
        if (k.listed || k.group == kNoGroup) continue;
        list_class(id);
        take_group(k.group);
      }
    }
    // (An unlisted class alone in its group is alone on every constraint that may saturate: a
    // change on one that leaves it alone leaves its rate.)
    const Group& owner = constraint_groups_[cid];
    if (!owner.heap.empty() && classes_[owner.heap.top_id()].listed) take_group(cid);
    if (was_slack)
      for (uint32_t e : c.row) take_group(entries_[e].group);
  }
  take_owners();
  // Nothing left running here: every class of these constraints emptied, and so did their groups.
  if (comp_groups_.empty()) return;

  // Fast path: a dirty class alone on all of its constraints that may saturate takes the
  // smallest of them (or its bound) without entering the filling. A ring's hops are all like this.
  for (FlowClassId id : solving_) {
    FlowClass& k = classes_[id];
    if (!k.live || k.members == 0) continue;
    bool alone = true;
    for (const ClassElement& e : k.elements) {
      const Constraint& c = constraints_[e.constraint];
      if (!c.slack && c.active.size() != 1) {
        alone = false;
        break;
      }
    }
    if (!alone) continue;
    if (k.group != k.ceiling_group) move_to_group(id, k.ceiling_group, /*list=*/false);
    if (group(k.ceiling_group).heap.size() != 1) continue;  // (never: a class alone on its bottleneck is its group)
    alone_.emplace_back(k.ceiling_group, k.ceiling);
  }
  solving_.clear();

  fill_pass();
  constexpr int kMaxPasses = 4;
  for (int pass = 1; !settled(); ++pass) {
    if (pass == kMaxPasses) {
      take_component();
      fill_pass();
      break;
    }
    fill_pass();
  }
  finish_solve();
}

// Every group of the solve has its rate: its completion moves if its rate or its classes did.
void FlowSolver::finish_solve() {
  for (GroupId gid : comp_groups_) {
    Group& g = group(gid);
    if (!is_fixed(gid) && !g.heap.empty()) throw std::logic_error("FlowSolver: unconstrained class");
    classes_solved_ += g.heap.size();
    if (g.moved || g.lambda != g.lambda_before) update_group_completion(gid);
    g.moved = false;
  }
}

// Whether a seed lets every dirty class run alone at its ceiling: it cannot saturate (nor could
// before), or it carries at most one class, a dirty one. When every seed does, no other class
// sees the change (a ring's step: each hop's next chunk on its own link).
// A class with members is in the lists of all its constraints, and a dirty one without has left
// them by now: one class on a constraint a dirty class with members uses (`held`) is that class.
// (The stamp spares reading the list and the class: two cache misses a seed in a ring's step.)
inline bool FlowSolver::alone_on(const Constraint& c) const {
  if (c.slack && c.was_slack) return true;
  return c.active.size() == 0 || (c.active.size() == 1 && c.held == epoch_);
}

// The solve when every seed is alone_on(): each dirty class in the group of its ceiling, at its
// ceiling.
// A class already in that group, as its only class (a ring's refilled hop), is finished here
// too: its group is touched once, not again in finish_solve() after every other class has
// pushed it out of the cache. No other class of the solve can reach that group (one alone on
// its constraints that may saturate shares its group with no one).
void FlowSolver::fix_alone() {
  ++fill_epoch_;
  for (FlowClassId id : solving_) {
    FlowClass& k = classes_[id];
    if (!k.live || k.members == 0) continue;
    if (k.group == k.ceiling_group) {
      Group& g = group(k.group);
      if (g.mark != epoch_ && g.heap.size() == 1) {
        g.mark = epoch_;
        advance_group(g, now_ps_);
        const double before = g.lambda;
        g.lambda = k.ceiling;  // (`fixed` is left: nothing of this solve asks)
        ++classes_solved_;
        if (g.moved || g.lambda != before) update_group_completion(k.group);
        g.moved = false;
        continue;
      }
    }
    if (k.group != kNoGroup) take_group(k.group);
    move_to_group(id, k.ceiling_group, /*list=*/false);
    Group& g = group(k.ceiling_group);
    g.fixed = fill_epoch_;
    g.lambda = k.ceiling;
  }
  solving_.clear();
  finish_solve();
}

// One progressive filling over the groups of the solve, none fixed but the fast path's.
void FlowSolver::fill_pass() {
  ++fill_epoch_;
  for (const auto& [gid, rate] : alone_) {
    Group& g = group(gid);
    g.fixed = fill_epoch_;
    g.lambda = rate;
  }
  bounded_.clear();
  for (GroupId gid : comp_groups_) {
    const Group& g = group(gid);
    if (g.bounded == 0) continue;
    for (const auto& item : g.heap.items())
      if (std::isfinite(classes_[item.second].bound)) bounded_.push_back(item.second);
  }
  std::sort(bounded_.begin(), bounded_.end(), [&](FlowClassId a, FlowClassId b) {
    return classes_[a].bound < classes_[b].bound || (classes_[a].bound == classes_[b].bound && a < b);
  });
  fill_build();

  // Every unfixed group runs at the common level lambda; the constraint with the smallest
  // remaining/demand saturates first and fixes its group, after taking in the unfixed classes on
  // it from other groups of the solve; a class bound below that level is fixed at its bound, in
  // its own group.
  size_t next_bounded = 0;
  for (;;) {
    while (next_bounded < bounded_.size() && is_fixed(classes_[bounded_[next_bounded]].group)) ++next_bounded;
    double lambda_c;
    ConstraintId cid = 0;
    fill_top(lambda_c, cid);
    const double lambda_b = next_bounded < bounded_.size() ? classes_[bounded_[next_bounded]].bound : kUnbounded;
    if (!std::isfinite(lambda_c) && !std::isfinite(lambda_b)) break;
    if (lambda_b <= lambda_c) {
      const FlowClassId id = bounded_[next_bounded++];
      move_to_group(id, kOwnGroup | id, /*list=*/true);
      fix_group(kOwnGroup | id, lambda_b);
      push_round_keys();
      continue;
    }
    fill_remove(cid);
    Constraint& c = constraints_[cid];
    const uint32_t own = c.self_entry >= 0 ? entries_[static_cast<size_t>(c.self_entry)].count : 0;
    if (c.unfixed > own) {  // classes of other unfixed groups: they are fixed here, so they move
      for (size_t i = 0; i < c.active.size(); ++i) {
        const FlowClassId id = c.active[i];
        const GroupId g = classes_[id].group;
        if (g != cid && in_solve(g) && !is_fixed(g)) move_to_group(id, cid, /*list=*/true);
      }
    }
    fix_group(cid, lambda_c);
    c.demand = 0;
    push_round_keys();
  }
}

Time FlowSolver::next_completion() const {
  return completions_.empty() ? Time::max() : Time::ps(completions_.top_key());
}

void FlowSolver::collect_completed(Time now, std::vector<uint64_t>& tags) {
  const int64_t now_ps = now.ps();
  // Every group due by now, taken at once in completion order. The work on one moves only its own
  // entry, past now or out (one left due would be popped again, unchanged, for ever), so this is
  // the order popping them one at a time gives.
  due_.clear();
  completions_.take_upto(now_ps, due_);
  for (const GroupId gid : due_) {
    Group& g = group(gid);
    advance_group(g, now_ps);
    while (!g.heap.empty()) {
      const double key = g.heap.top_key();
      const FlowClassId id = g.heap.top_id();
      if (key > g.service + completion_tolerance(key, g.lambda)) break;
      FlowClass& k = classes_[id];
      const double served = class_service(k, now_ps);
      const uint32_t before = k.members;
      while (!k.heap.empty()) {
        drop_cancelled_top(k);
        if (k.heap.empty()) break;
        const Member m = k.heap.front();
        if (m.level > served + completion_tolerance(m.level, g.lambda)) break;
        std::pop_heap(k.heap.begin(), k.heap.end(), std::greater<>{});
        k.heap.pop_back();
        Flow& f = flows_[m.flow];
        tags.push_back(f.tag);
        f.active = false;
        free_flows_.push_back(m.flow);
        --k.members;
        --active_flows_;
      }
      if (k.members != before) mark_dirty(id);
      if (k.members == 0) {
        if (parkable(k)) park(id, before);  // leaves the group's heap
        else deactivate(id, before);        // (the same)
      } else {
        if (k.members != before) member_change(k, static_cast<double>(k.members) - static_cast<double>(before));
        drop_cancelled_top(k);
        place_in_group(id);  // its key grew
        if (k.members == before) break;  // rounding left it short: wait for its next key
      }
    }
    // An emptied group has no completion: take_upto() took its entry.
    if (!g.heap.empty()) update_group_completion(gid);
  }
}

double FlowSolver::rate(FlowId f) const {
  const Flow& fl = flows_.at(f);
  if (!fl.active) return 0;
  const FlowClass& k = classes_[fl.cls];
  return k.group == kNoGroup ? 0 : group(k.group).lambda;
}

double FlowSolver::remaining(FlowId f, Time now) const {
  const Flow& fl = flows_.at(f);
  if (!fl.active) return 0;
  return std::max(0.0, fl.level - class_service(classes_[fl.cls], now.ps()));
}

double FlowSolver::usage(ConstraintId c) const {
  double u = 0;
  for (FlowClassId id : constraints_.at(c).active) {
    const FlowClass& k = classes_[id];
    const double r = k.group == kNoGroup ? 0 : group(k.group).lambda;
    for (const ClassElement& e : k.elements)
      if (e.constraint == c) u += k.members * e.weight * r;
  }
  return u;
}

// --- a group's heap of classes, keyed by the group service at which the class's first member
// finishes: level - s_base + g_base; and the calendar of groups by next completion -----------

inline void FlowSolver::place_in_group(FlowClassId id) {
  FlowClass& k = classes_[id];
  Group& g = group(k.group);
  g.heap.set(id, k.heap.front().level - k.s_base + k.g_base);
  g.moved = true;
}

void FlowSolver::remove_from_group(FlowClassId id, double members) {
  const FlowClass& k = classes_[id];
  Group& g = group(k.group);
  if (std::isfinite(k.bound)) --g.bounded;
  if (k.listed) leave_columns(id, members);
  g.heap.remove(id);
  g.moved = true;
  if (g.heap.empty()) g.service = 0;  // restart the service curve: keeps its magnitude small
}

void FlowSolver::update_group_completion(GroupId gid) {
  Group& g = group(gid);
  if (g.heap.empty() || !(g.lambda > 0)) {
    completions_.remove(gid);
    return;
  }
  const double left = g.heap.top_key() - g.service;
  int64_t finish = g.last_ps;
  if (left > 0) {
    const double dt_ps = std::nearbyint(left / g.lambda * kPsPerSecond);
    // A completion past the clock's range is a wrong result if saturated (it would end at the
    // clock's last picosecond): refuse it (the loaders bound what reaches here, input_limits.h).
    const double room = static_cast<double>(Time::max().ps() - g.last_ps);
    if (!(dt_ps < room)) throw TimeRangeError("an activity would finish past the clock's range (±9.2e6 s)");
    finish = g.last_ps + static_cast<int64_t>(dt_ps);
  }
  completions_.set(gid, finish);
}

}  // namespace parallax
