// File: sim/platform/flow_solver.cpp
#include "sim/platform/flow_solver.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace parallax {

namespace {
constexpr double kPsPerSecond = 1e12;
constexpr size_t kHeapArity = 4;

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
  constraint_groups_.emplace_back();
  return static_cast<ConstraintId>(constraints_.size() - 1);
}

void FlowSolver::set_capacity(ConstraintId c, double capacity) {
  check_capacity(capacity);
  constraints_.at(c).capacity = capacity;
  for (FlowClassId k : constraints_[c].active) mark_dirty(k);
}

FlowClassId FlowSolver::make_class(std::span<const FlowElement> elements, double bound) {
  if (!(bound > 0)) throw std::invalid_argument("FlowSolver: class bound must be > 0");
  std::vector<FlowElement> merged;
  merged.reserve(elements.size());
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
    own_groups_.emplace_back();
  }
  FlowClass& k = classes_[id];
  k.elements = std::move(merged);
  k.slot.assign(k.elements.size(), 0);
  k.bound = bound;
  k.members = 0;
  k.heap.clear();
  k.group = kNoGroup;
  k.s_base = k.g_base = 0;
  k.group_pos = -1;
  k.live = true;
  own_groups_[id] = Group{};
  return id;
}

void FlowSolver::release_class(FlowClassId id) {
  FlowClass& k = classes_.at(id);
  if (!k.live) throw std::logic_error("FlowSolver: class released twice");
  if (k.members != 0) throw std::logic_error("FlowSolver: releasing a class with active members");
  k.live = false;
  free_classes_.push_back(id);
}

void FlowSolver::advance_group(Group& g, int64_t now_ps) {
  if (now_ps > g.last_ps) {
    g.service += g.lambda * static_cast<double>(now_ps - g.last_ps) / kPsPerSecond;
    g.last_ps = now_ps;
  }
}

double FlowSolver::class_service(const FlowClass& k, int64_t now_ps) const {
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
  const double level = class_service(k, now.ps()) + amount;
  flows_[f] = Flow{id, level, tag, true};
  const bool new_min = k.heap.empty() || level < k.heap.front().level;
  k.heap.push_back(Member{level, f});
  std::push_heap(k.heap.begin(), k.heap.end(), std::greater<>{});
  if (k.members++ == 0) activate(id);
  if (new_min && k.group != kNoGroup) {  // keep its group's heap right until the next solve
    place_in_group(id);
    update_group_completion(k.group);
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
  if (--k.members == 0) deactivate(id);
  else {
    drop_cancelled_top(k);
    if (k.group != kNoGroup) {
      place_in_group(id);
      update_group_completion(k.group);
    }
  }
  mark_dirty(id);
  return true;
}

void FlowSolver::activate(FlowClassId id) {
  FlowClass& k = classes_[id];
  for (size_t i = 0; i < k.elements.size(); ++i) {
    auto& list = constraints_[k.elements[i].constraint].active;
    k.slot[i] = static_cast<uint32_t>(list.size());
    list.push_back(id);
  }
}

void FlowSolver::deactivate(FlowClassId id) {
  FlowClass& k = classes_[id];
  for (size_t i = 0; i < k.elements.size(); ++i) {
    const ConstraintId c = k.elements[i].constraint;
    auto& list = constraints_[c].active;
    const uint32_t pos = k.slot[i];
    const FlowClassId moved = list.back();
    list[pos] = moved;
    list.pop_back();
    if (moved != id) {
      FlowClass& m = classes_[moved];
      for (size_t j = 0; j < m.elements.size(); ++j)
        if (m.elements[j].constraint == c) m.slot[j] = pos;
    }
  }
  k.heap.clear();
  if (k.group != kNoGroup) {
    const GroupId g = k.group;
    remove_from_group(id);
    k.group = kNoGroup;
    update_group_completion(g);
  }
  k.s_base = k.g_base = 0;
}

void FlowSolver::mark_dirty(FlowClassId id) {
  FlowClass& k = classes_[id];
  if (!k.dirty) {
    k.dirty = true;
    dirty_classes_.push_back(id);
  }
}

void FlowSolver::drop_cancelled_top(FlowClass& k) {
  while (!k.heap.empty()) {
    const Member& m = k.heap.front();
    const Flow& f = flows_[m.flow];
    if (f.active && &classes_[f.cls] == &k && f.level == m.level) return;
    std::pop_heap(k.heap.begin(), k.heap.end(), std::greater<>{});
    k.heap.pop_back();
  }
}

void FlowSolver::fix(FlowClassId id, double rate, GroupId g) {
  FlowClass& k = classes_[id];
  k.fixed = true;
  k.next_group = g;
  group(g).lambda = rate;
  const double n = k.members;
  for (const FlowElement& e : k.elements) {
    Constraint& c = constraints_[e.constraint];
    c.remaining -= n * e.weight * rate;
    c.demand -= n * e.weight;
    if (c.round != round_) {  // re-keyed once per round, in push_round_keys()
      c.round = round_;
      round_touched_.push_back(e.constraint);
    }
  }
}

// Each constraint whose share changed in this round gets one fresh key (older keys go stale).
void FlowSolver::push_round_keys() {
  for (ConstraintId cid : round_touched_) {
    Constraint& c = constraints_[cid];
    ++c.version;
    if (c.demand > 0) {
      fill_heap_.push_back(HeapKey{std::max(0.0, c.remaining) / c.demand, cid, c.version});
      std::push_heap(fill_heap_.begin(), fill_heap_.end(), std::greater<>{});
    }
  }
  round_touched_.clear();
  ++round_;
}

// Moves a class to the group solve() chose for it, keeping its service continuous.
void FlowSolver::regroup(FlowClassId id, int64_t now_ps) {
  FlowClass& k = classes_[id];
  if (k.next_group == k.group) return;
  const double s = class_service(k, now_ps);
  if (k.group != kNoGroup) remove_from_group(id);
  k.group = k.next_group;
  Group& g = group(k.group);
  advance_group(g, now_ps);
  k.s_base = s;
  k.g_base = g.service;
  place_in_group(id);
}

void FlowSolver::solve(Time now) {
  if (dirty_classes_.empty()) return;
  ++solves_;
  ++epoch_;
  const int64_t now_ps = now.ps();
  comp_constraints_.clear();
  comp_classes_.clear();
  touched_groups_.clear();
  auto take_constraints = [&](const FlowClass& k) {
    for (const FlowElement& e : k.elements) {
      Constraint& c = constraints_[e.constraint];
      if (c.mark != epoch_) {
        c.mark = epoch_;
        comp_constraints_.push_back(e.constraint);
      }
    }
  };
  // Seeds: every dirty class (a class that emptied still changes its constraints' other users).
  for (FlowClassId id : dirty_classes_) {
    FlowClass& k = classes_[id];
    k.dirty = false;
    if (!k.live) continue;
    take_constraints(k);
    if (k.members > 0 && k.mark != epoch_) {
      k.mark = epoch_;
      comp_classes_.push_back(id);
    }
  }
  dirty_classes_.clear();
  // The connected component: constraints <-> classes with members.
  for (size_t i = 0; i < comp_constraints_.size(); ++i) {
    for (FlowClassId id : constraints_[comp_constraints_[i]].active) {
      FlowClass& k = classes_[id];
      if (k.mark == epoch_) continue;
      k.mark = epoch_;
      comp_classes_.push_back(id);
      take_constraints(k);
    }
  }
  classes_solved_ += comp_classes_.size();

  // Bring every group of the component to `now` under its old rate before rates change.
  for (ConstraintId cid : comp_constraints_) {
    Constraint& c = constraints_[cid];
    c.remaining = c.capacity;
    c.demand = 0;
    ++c.version;
    advance_group(constraint_groups_[cid], now_ps);
    touched_groups_.push_back(cid);
  }
  bounded_.clear();
  size_t unfixed = comp_classes_.size();
  for (FlowClassId id : comp_classes_) {
    FlowClass& k = classes_[id];
    advance_group(own_groups_[id], now_ps);
    touched_groups_.push_back(kOwnGroup | id);
    k.fixed = false;
    // Fast path: a class alone on all of its constraints takes the smallest of them (or its
    // bound) without entering the filling heap. A ring's hops are all like this.
    bool alone = true;
    double rate = k.bound;
    GroupId g = kOwnGroup | id;
    for (const FlowElement& e : k.elements) {
      const Constraint& c = constraints_[e.constraint];
      if (c.active.size() != 1) {
        alone = false;
        break;
      }
      const double r = c.capacity / (k.members * e.weight);
      if (r < rate) {
        rate = r;
        g = e.constraint;
      }
    }
    if (alone) {
      k.fixed = true;
      k.next_group = g;
      group(g).lambda = rate;
      --unfixed;
      continue;
    }
    for (const FlowElement& e : k.elements) constraints_[e.constraint].demand += k.members * e.weight;
    if (std::isfinite(k.bound)) bounded_.push_back(id);
  }
  std::sort(bounded_.begin(), bounded_.end(), [&](FlowClassId a, FlowClassId b) {
    return classes_[a].bound < classes_[b].bound || (classes_[a].bound == classes_[b].bound && a < b);
  });
  fill_heap_.clear();
  for (ConstraintId cid : comp_constraints_) {
    const Constraint& c = constraints_[cid];
    if (c.demand > 0) fill_heap_.push_back(HeapKey{c.remaining / c.demand, cid, c.version});
  }
  std::make_heap(fill_heap_.begin(), fill_heap_.end(), std::greater<>{});

  // Progressive filling: every unfixed class runs at the common level lambda; the constraint
  // with the smallest remaining/demand saturates first and fixes its classes (they join its
  // group); a class bound below that level fixes the class at its bound (its own group).
  size_t next_bounded = 0;
  while (unfixed > 0) {
    while (!fill_heap_.empty()) {
      const HeapKey& top = fill_heap_.front();
      const Constraint& c = constraints_[top.c];
      if (top.version == c.version && c.demand > 0) break;
      std::pop_heap(fill_heap_.begin(), fill_heap_.end(), std::greater<>{});
      fill_heap_.pop_back();
    }
    while (next_bounded < bounded_.size() && classes_[bounded_[next_bounded]].fixed) ++next_bounded;
    const double lambda_c = fill_heap_.empty() ? kUnbounded : fill_heap_.front().lambda;
    const double lambda_b = next_bounded < bounded_.size() ? classes_[bounded_[next_bounded]].bound : kUnbounded;
    if (lambda_b <= lambda_c) {
      if (!std::isfinite(lambda_b)) throw std::logic_error("FlowSolver: unconstrained class");
      const FlowClassId id = bounded_[next_bounded++];
      fix(id, lambda_b, kOwnGroup | id);
      push_round_keys();
      --unfixed;
      continue;
    }
    const ConstraintId cid = fill_heap_.front().c;
    std::pop_heap(fill_heap_.begin(), fill_heap_.end(), std::greater<>{});
    fill_heap_.pop_back();
    const auto& active = constraints_[cid].active;  // fix() never changes active lists
    for (size_t i = 0; i < active.size(); ++i) {
      const FlowClassId id = active[i];
      if (classes_[id].fixed) continue;
      fix(id, lambda_c, cid);
      --unfixed;
    }
    constraints_[cid].demand = 0;
    push_round_keys();
  }
  for (FlowClassId id : comp_classes_) regroup(id, now_ps);
  for (GroupId g : touched_groups_) update_group_completion(g);
}

Time FlowSolver::next_completion() const {
  return completion_heap_.empty() ? Time::max() : Time::ps(completion_heap_.front().second);
}

void FlowSolver::collect_completed(Time now, std::vector<uint64_t>& tags) {
  const int64_t now_ps = now.ps();
  while (!completion_heap_.empty() && completion_heap_.front().second <= now_ps) {
    const GroupId gid = completion_heap_.front().first;
    Group& g = group(gid);
    advance_group(g, now_ps);
    while (!g.heap.empty()) {
      const auto [key, id] = g.heap.front();
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
        deactivate(id);  // leaves the group's heap
      } else {
        drop_cancelled_top(k);
        place_in_group(id);  // its key grew
        if (k.members == before) break;  // rounding left it short: wait for its next key
      }
    }
    update_group_completion(gid);
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
    for (const FlowElement& e : k.elements)
      if (e.constraint == c) u += k.members * e.weight * r;
  }
  return u;
}

// --- a group's heap of classes, keyed by the group service at which the class's first member
// finishes: level - s_base + g_base -----------------------------------------------------------

void FlowSolver::place_in_group(FlowClassId id) {
  FlowClass& k = classes_[id];
  Group& g = group(k.group);
  const double key = k.heap.front().level - k.s_base + k.g_base;
  if (k.group_pos < 0) {
    k.group_pos = static_cast<int32_t>(g.heap.size());
    g.heap.emplace_back(key, id);
    group_heap_up(g, g.heap.size() - 1);
    return;
  }
  const size_t i = static_cast<size_t>(k.group_pos);
  const double old = g.heap[i].first;
  g.heap[i].first = key;
  if (key < old) group_heap_up(g, i);
  else group_heap_down(g, i);
}

void FlowSolver::remove_from_group(FlowClassId id) {
  FlowClass& k = classes_[id];
  if (k.group_pos < 0) return;
  Group& g = group(k.group);
  const size_t i = static_cast<size_t>(k.group_pos);
  k.group_pos = -1;
  const auto last = g.heap.back();
  g.heap.pop_back();
  if (g.heap.empty()) {  // restart the service curve: keeps its magnitude (and rounding) small
    g.service = 0;
  }
  if (i == g.heap.size()) return;
  g.heap[i] = last;
  classes_[last.second].group_pos = static_cast<int32_t>(i);
  group_heap_up(g, i);
  group_heap_down(g, static_cast<size_t>(classes_[last.second].group_pos));
}

void FlowSolver::group_heap_up(Group& g, size_t i) {
  auto item = g.heap[i];
  while (i > 0) {
    const size_t p = (i - 1) / 2;
    if (!(item < g.heap[p])) break;
    g.heap[i] = g.heap[p];
    classes_[g.heap[i].second].group_pos = static_cast<int32_t>(i);
    i = p;
  }
  g.heap[i] = item;
  classes_[item.second].group_pos = static_cast<int32_t>(i);
}

void FlowSolver::group_heap_down(Group& g, size_t i) {
  auto item = g.heap[i];
  const size_t n = g.heap.size();
  for (;;) {
    size_t l = 2 * i + 1;
    if (l >= n) break;
    size_t best = l;
    if (l + 1 < n && g.heap[l + 1] < g.heap[l]) best = l + 1;
    if (!(g.heap[best] < item)) break;
    g.heap[i] = g.heap[best];
    classes_[g.heap[i].second].group_pos = static_cast<int32_t>(i);
    i = best;
  }
  g.heap[i] = item;
  classes_[item.second].group_pos = static_cast<int32_t>(i);
}

// --- the completion heap: 4-ary heap of (group, finish ps), ties by group id --------------------

void FlowSolver::update_group_completion(GroupId gid) {
  Group& g = group(gid);
  if (g.heap.empty() || !(g.lambda > 0)) {
    heap_remove(gid);
    return;
  }
  const double left = g.heap.front().first - g.service;
  int64_t finish = g.last_ps;
  if (left > 0) {
    const double dt_ps = std::nearbyint(left / g.lambda * kPsPerSecond);
    const double room = static_cast<double>(Time::max().ps() - g.last_ps);
    finish = dt_ps >= room ? Time::max().ps() : g.last_ps + static_cast<int64_t>(dt_ps);
  }
  heap_set(gid, finish);
}

namespace {
bool heap_less(const std::pair<uint32_t, int64_t>& a, const std::pair<uint32_t, int64_t>& b) {
  return a.second < b.second || (a.second == b.second && a.first < b.first);
}
}  // namespace

void FlowSolver::heap_set(GroupId gid, int64_t key) {
  Group& g = group(gid);
  if (g.heap_pos < 0) {
    g.heap_pos = static_cast<int32_t>(completion_heap_.size());
    completion_heap_.emplace_back(gid, key);
    heap_up(completion_heap_.size() - 1);
    return;
  }
  const size_t i = static_cast<size_t>(g.heap_pos);
  const int64_t old = completion_heap_[i].second;
  if (key == old) return;
  completion_heap_[i].second = key;
  if (key < old) heap_up(i);
  else heap_down(i);
}

void FlowSolver::heap_remove(GroupId gid) {
  Group& g = group(gid);
  if (g.heap_pos < 0) return;
  const size_t i = static_cast<size_t>(g.heap_pos);
  g.heap_pos = -1;
  const auto last = completion_heap_.back();
  completion_heap_.pop_back();
  if (i == completion_heap_.size()) return;
  completion_heap_[i] = last;
  group(last.first).heap_pos = static_cast<int32_t>(i);
  heap_up(i);
  heap_down(static_cast<size_t>(group(last.first).heap_pos));
}

void FlowSolver::heap_up(size_t i) {
  auto item = completion_heap_[i];
  while (i > 0) {
    const size_t p = (i - 1) / kHeapArity;
    if (!heap_less(item, completion_heap_[p])) break;
    completion_heap_[i] = completion_heap_[p];
    group(completion_heap_[i].first).heap_pos = static_cast<int32_t>(i);
    i = p;
  }
  completion_heap_[i] = item;
  group(item.first).heap_pos = static_cast<int32_t>(i);
}

void FlowSolver::heap_down(size_t i) {
  auto item = completion_heap_[i];
  const size_t n = completion_heap_.size();
  for (;;) {
    const size_t first = kHeapArity * i + 1;
    if (first >= n) break;
    size_t best = first;
    const size_t end = std::min(first + kHeapArity, n);
    for (size_t c = first + 1; c < end; ++c)
      if (heap_less(completion_heap_[c], completion_heap_[best])) best = c;
    if (!heap_less(completion_heap_[best], item)) break;
    completion_heap_[i] = completion_heap_[best];
    group(completion_heap_[i].first).heap_pos = static_cast<int32_t>(i);
    i = best;
  }
  completion_heap_[i] = item;
  group(item.first).heap_pos = static_cast<int32_t>(i);
}

}  // namespace parallax
