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
// what its class moves in half a picosecond; anything due within the next picosecond is done now.
// (Rounding up instead would bias long chains of dependent transfers: +0.5 ps per link on average.)
double completion_tolerance(double level, double rate) {
  return rate * 1e-12 + 1e-11 * std::fabs(level) + 1e-9;
}
}  // namespace

ConstraintId FlowSolver::add_constraint(double capacity) {
  if (!(capacity >= 0) || !std::isfinite(capacity))
    throw std::invalid_argument("FlowSolver: constraint capacity must be finite and >= 0");
  constraints_.push_back(Constraint{});
  constraints_.back().capacity = capacity;
  return static_cast<ConstraintId>(constraints_.size() - 1);
}

void FlowSolver::set_capacity(ConstraintId c, double capacity) {
  if (!(capacity >= 0) || !std::isfinite(capacity))
    throw std::invalid_argument("FlowSolver: constraint capacity must be finite and >= 0");
  constraints_.at(c).capacity = capacity;
  for (FlowClassId k : constraints_[c].active) mark_dirty(k);
}

FlowClassId FlowSolver::make_class(std::span<const FlowElement> elements, double bound) {
  if (!(bound > 0)) throw std::invalid_argument("FlowSolver: class bound must be > 0");
  std::vector<FlowElement> merged;
  merged.reserve(elements.size());
  for (const FlowElement& e : elements) {
    if (e.constraint >= constraints_.size())
      throw std::invalid_argument("FlowSolver: unknown constraint id");
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
    heap_pos_.push_back(-1);
  }
  FlowClass& k = classes_[id];
  k.elements = std::move(merged);
  k.slot.assign(k.elements.size(), 0);
  k.bound = bound;
  k.members = 0;
  k.rate = 0;
  k.served = 0;
  k.last_ps = 0;
  k.heap.clear();
  heap_pos_[id] = -1;
  k.live = true;
  return id;
}

void FlowSolver::release_class(FlowClassId id) {
  FlowClass& k = classes_.at(id);
  if (!k.live) throw std::logic_error("FlowSolver: class released twice");
  if (k.members != 0) throw std::logic_error("FlowSolver: releasing a class with active members");
  k.live = false;
  free_classes_.push_back(id);
}

void FlowSolver::advance(FlowClass& k, int64_t now_ps) {
  if (now_ps > k.last_ps) {
    k.served += k.rate * static_cast<double>(now_ps - k.last_ps) / kPsPerSecond;
    k.last_ps = now_ps;
  }
}

FlowId FlowSolver::start(FlowClassId id, double amount, uint64_t tag, Time now) {
  if (!(amount > 0) || !std::isfinite(amount))
    throw std::invalid_argument("FlowSolver: amount must be finite and > 0");
  FlowClass& k = classes_.at(id);
  if (!k.live) throw std::logic_error("FlowSolver: start in a released class");
  if (k.members == 0) {
    k.served = 0;
    k.last_ps = now.ps();
  } else {
    advance(k, now.ps());
  }
  FlowId f;
  if (!free_flows_.empty()) {
    f = free_flows_.back();
    free_flows_.pop_back();
  } else {
    f = static_cast<FlowId>(flows_.size());
    flows_.emplace_back();
  }
  flows_[f] = Flow{id, k.served + amount, tag, true};
  k.heap.push_back(Member{flows_[f].level, f});
  std::push_heap(k.heap.begin(), k.heap.end(), std::greater<>{});
  if (k.members++ == 0) activate(id);
  ++active_flows_;
  mark_dirty(id);
  return f;
}

bool FlowSolver::cancel(FlowId f, Time now) {
  if (f >= flows_.size() || !flows_[f].active) return false;
  const FlowClassId id = flows_[f].cls;
  FlowClass& k = classes_[id];
  advance(k, now.ps());
  flows_[f].active = false;
  free_flows_.push_back(f);
  --active_flows_;
  if (--k.members == 0) deactivate(id);
  else drop_cancelled_top(k);
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
  k.rate = 0;
  k.served = 0;
  heap_remove(id);
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

void FlowSolver::fix(FlowClassId id, double rate) {
  FlowClass& k = classes_[id];
  k.fixed = true;
  k.rate = rate;
  const double n = k.members;
  for (const FlowElement& e : k.elements) {
    Constraint& c = constraints_[e.constraint];
    c.remaining -= n * e.weight * rate;
    c.demand -= n * e.weight;
    ++c.version;
    if (c.demand > 0) {
      fill_heap_.push_back(HeapKey{std::max(0.0, c.remaining) / c.demand, e.constraint, c.version});
      std::push_heap(fill_heap_.begin(), fill_heap_.end(), std::greater<>{});
    }
  }
}

void FlowSolver::solve(Time now) {
  if (dirty_classes_.empty()) return;
  ++solves_;
  ++epoch_;
  comp_constraints_.clear();
  comp_classes_.clear();
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

  // Progressive filling. Every unfixed class runs at the common level lambda; the constraint
  // with the smallest remaining/demand saturates first and fixes its classes; a class bound
  // below that level fixes the class at its bound.
  const int64_t now_ps = now.ps();
  for (ConstraintId cid : comp_constraints_) {
    Constraint& c = constraints_[cid];
    c.remaining = c.capacity;
    c.demand = 0;
    ++c.version;
  }
  bounded_.clear();
  size_t unfixed = comp_classes_.size();
  for (FlowClassId id : comp_classes_) {
    FlowClass& k = classes_[id];
    advance(k, now_ps);
    k.fixed = false;
    // Fast path: a class alone on all of its constraints takes the smallest of them (or its
    // bound) without entering the filling heap. A ring's hops are all like this.
    bool alone = true;
    double rate = k.bound;
    for (const FlowElement& e : k.elements) {
      const Constraint& c = constraints_[e.constraint];
      if (c.active.size() != 1) {
        alone = false;
        break;
      }
      rate = std::min(rate, c.capacity / (k.members * e.weight));
    }
    if (alone) {
      k.fixed = true;
      k.rate = rate;
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
    const double lambda_b =
        next_bounded < bounded_.size() ? classes_[bounded_[next_bounded]].bound : kUnbounded;
    if (lambda_b <= lambda_c) {
      if (!std::isfinite(lambda_b)) throw std::logic_error("FlowSolver: unconstrained class");
      fix(bounded_[next_bounded++], lambda_b);
      --unfixed;
      continue;
    }
    const ConstraintId cid = fill_heap_.front().c;
    std::pop_heap(fill_heap_.begin(), fill_heap_.end(), std::greater<>{});
    fill_heap_.pop_back();
    // fix() may grow this constraint's heap entries but never its active list.
    const auto& active = constraints_[cid].active;
    for (size_t i = 0; i < active.size(); ++i) {
      FlowClassId id = active[i];
      if (classes_[id].fixed) continue;
      fix(id, lambda_c);
      --unfixed;
    }
    constraints_[cid].demand = 0;
    ++constraints_[cid].version;
  }
  for (FlowClassId id : comp_classes_) update_completion(id);
}

void FlowSolver::update_completion(FlowClassId id) {
  FlowClass& k = classes_[id];
  drop_cancelled_top(k);
  if (k.members == 0 || k.heap.empty() || !(k.rate > 0)) {
    heap_remove(id);
    return;
  }
  const double left = k.heap.front().level - k.served;
  int64_t finish = k.last_ps;
  if (left > 0) {
    const double dt_ps = std::nearbyint(left / k.rate * kPsPerSecond);
    const double room = static_cast<double>(Time::max().ps() - k.last_ps);
    finish = dt_ps >= room ? Time::max().ps() : k.last_ps + static_cast<int64_t>(dt_ps);
  }
  heap_set(id, finish);
}

Time FlowSolver::next_completion() const {
  return completion_heap_.empty() ? Time::max() : Time::ps(completion_heap_.front().second);
}

void FlowSolver::collect_completed(Time now, std::vector<uint64_t>& tags) {
  const int64_t now_ps = now.ps();
  while (!completion_heap_.empty() && completion_heap_.front().second <= now_ps) {
    const FlowClassId id = completion_heap_.front().first;
    FlowClass& k = classes_[id];
    advance(k, now_ps);
    const uint32_t before = k.members;
    while (!k.heap.empty()) {
      drop_cancelled_top(k);
      if (k.heap.empty()) break;
      const Member m = k.heap.front();
      if (m.level > k.served + completion_tolerance(m.level, k.rate)) break;
      std::pop_heap(k.heap.begin(), k.heap.end(), std::greater<>{});
      k.heap.pop_back();
      Flow& f = flows_[m.flow];
      tags.push_back(f.tag);
      f.active = false;
      free_flows_.push_back(m.flow);
      --k.members;
      --active_flows_;
    }
    if (k.members != before) {
      mark_dirty(id);
      if (k.members == 0) {
        deactivate(id);
        continue;
      }
    }
    update_completion(id);
  }
}

double FlowSolver::rate(FlowId f) const {
  const Flow& fl = flows_.at(f);
  return fl.active ? classes_[fl.cls].rate : 0;
}

double FlowSolver::remaining(FlowId f, Time now) const {
  const Flow& fl = flows_.at(f);
  if (!fl.active) return 0;
  const FlowClass& k = classes_[fl.cls];
  const double served =
      k.served + k.rate * static_cast<double>(std::max<int64_t>(0, now.ps() - k.last_ps)) / kPsPerSecond;
  return std::max(0.0, fl.level - served);
}

double FlowSolver::usage(ConstraintId c) const {
  double u = 0;
  for (FlowClassId id : constraints_.at(c).active) {
    const FlowClass& k = classes_[id];
    for (const FlowElement& e : k.elements)
      if (e.constraint == c) u += k.members * e.weight * k.rate;
  }
  return u;
}

// --- completion heap: 4-ary heap of (class, finish ps), ties by class id ----------------------

namespace {
constexpr size_t kHeapArity = 4;
bool heap_less(const std::pair<FlowClassId, int64_t>& a, const std::pair<FlowClassId, int64_t>& b) {
  return a.second < b.second || (a.second == b.second && a.first < b.first);
}
}  // namespace

void FlowSolver::heap_set(FlowClassId id, int64_t key) {
  if (heap_pos_[id] < 0) {
    heap_pos_[id] = static_cast<int32_t>(completion_heap_.size());
    completion_heap_.emplace_back(id, key);
    heap_up(completion_heap_.size() - 1);
    return;
  }
  const size_t i = static_cast<size_t>(heap_pos_[id]);
  const int64_t old = completion_heap_[i].second;
  if (key == old) return;
  completion_heap_[i].second = key;
  if (key < old) heap_up(i);
  else heap_down(i);
}

void FlowSolver::heap_remove(FlowClassId id) {
  if (heap_pos_[id] < 0) return;
  const size_t i = static_cast<size_t>(heap_pos_[id]);
  heap_pos_[id] = -1;
  const auto last = completion_heap_.back();
  completion_heap_.pop_back();
  if (i == completion_heap_.size()) return;
  completion_heap_[i] = last;
  heap_pos_[last.first] = static_cast<int32_t>(i);
  heap_up(i);
  heap_down(static_cast<size_t>(heap_pos_[last.first]));
}

void FlowSolver::heap_up(size_t i) {
  auto item = completion_heap_[i];
  while (i > 0) {
    size_t p = (i - 1) / kHeapArity;
    if (!heap_less(item, completion_heap_[p])) break;
    completion_heap_[i] = completion_heap_[p];
    heap_pos_[completion_heap_[i].first] = static_cast<int32_t>(i);
    i = p;
  }
  completion_heap_[i] = item;
  heap_pos_[item.first] = static_cast<int32_t>(i);
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
    heap_pos_[completion_heap_[i].first] = static_cast<int32_t>(i);
    i = best;
  }
  completion_heap_[i] = item;
  heap_pos_[item.first] = static_cast<int32_t>(i);
}

}  // namespace parallax
