// File: sim/sweep/sweep_expansion.cpp
#include "sim/sweep/sweep_expansion.h"

#include <algorithm>
#include <charconv>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/sweep/canonical_value.h"
#include "sim/sweep/point_hash.h"

namespace parallax {

namespace {

constexpr size_t kFixedTerm = static_cast<size_t>(-1);

SourceLocation sweep_file_of(const SweepSpec& spec) { return SourceLocation{spec.source, 0, 0}; }

}  // namespace

SweepSpace::SweepSpace(const SweepSpec& spec) {
  for (const SweepAxisGroup& g : spec.groups) {
    const auto add = [&](const std::vector<const SweepAxis*>& axes) {
      Wheel w;
      for (const SweepAxis* a : axes) {
        w.keys.push_back(a->key);
        std::vector<std::string> text;
        text.reserve(a->values.size());
        for (const ConfigNode& v : a->values) text.push_back(canonical_value(v));
        w.values.push_back(std::move(text));
      }
      w.length = w.values.front().size();
      wheels_.push_back(std::move(w));
    };
    if (g.kind == SweepAxisGroup::Kind::zip) {
      std::vector<const SweepAxis*> axes;
      for (const SweepAxis& a : g.axes) axes.push_back(&a);
      add(axes);
    } else {
      for (const SweepAxis& a : g.axes) add({&a});
    }
  }
  for (const Wheel& w : wheels_) {
    if (count_ > kMaxSweepPoints / w.length)
      throw InputError(sweep_file_of(spec), "axes",
                       fmt::format("the axes expand to more than {} points", kMaxSweepPoints));
    count_ *= w.length;
  }
  for (size_t w = wheels_.size(); w-- > 0;)
    wheels_[w].stride = w + 1 < wheels_.size() ? wheels_[w + 1].stride * wheels_[w + 1].length : 1;
  for (const Wheel& w : wheels_)
    for (const std::string& key : w.keys) axis_keys.push_back(key);

  for (const SweepAxis& a : spec.fixed) {
    fixed_values_.push_back(canonical_value(a.values.front()));
    fixed_.push_back(a.key + "=" + fixed_values_.back());
    hash_terms_.push_back(HashTerm{a.key, kFixedTerm, fixed_.size() - 1});
  }
  for (size_t w = 0; w < wheels_.size(); ++w)
    for (size_t k = 0; k < wheels_[w].keys.size(); ++k) hash_terms_.push_back(HashTerm{wheels_[w].keys[k], w, k});
  // The keys are distinct (parse_sweep_text checks), so this is the order point_identity_text sorts to.
  std::stable_sort(hash_terms_.begin(), hash_terms_.end(),
                   [](const HashTerm& a, const HashTerm& b) { return a.key < b.key; });
  const std::string header = point_identity_text(spec.base_text, {});
  prefix_state_ = fnv1a64(header);
  check_distinct(spec);
}

// Point j repeats an earlier configuration exactly when some wheel stands at a position whose
// values (all of them, for a zip) already appeared at an earlier position of that wheel. The first
// such point is the smallest repeated position r of some wheel times its stride, with the other
// wheels at 0; the earlier point is the first occurrence f times the stride.
void SweepSpace::check_distinct(const SweepSpec& spec) const {
  size_t best_j = count_, best_i = 0;
  for (const Wheel& w : wheels_) {
    std::map<std::vector<std::string>, size_t> first;
    for (size_t r = 0; r < w.length; ++r) {
      std::vector<std::string> tuple;
      for (const std::vector<std::string>& v : w.values) tuple.push_back(v[r]);
      const auto [it, fresh] = first.emplace(std::move(tuple), r);
      if (fresh) continue;
      if (r * w.stride < best_j) {
        best_j = r * w.stride;
        best_i = it->second * w.stride;
      }
      break;
    }
  }
  if (best_j == count_) return;
  throw InputError(sweep_file_of(spec), "axes",
                   fmt::format("points {} and {} resolve to the same configuration ({})", best_i, best_j,
                               fmt::join(point(best_j).overrides, " ")));
}

SweepPoint SweepSpace::point(size_t index) const {
  SweepPoint p;
  p.index = index;
  p.overrides = fixed_;
  for (size_t w = 0; w < wheels_.size(); ++w) {
    const size_t d = digit(index, w);
    for (size_t k = 0; k < wheels_[w].keys.size(); ++k) {
      const std::string& value = wheels_[w].values[k][d];
      p.values.push_back(value);
      p.overrides.push_back(wheels_[w].keys[k] + "=" + value);
    }
  }
  p.hash = format_point_hash(hash_of(index));
  return p;
}

uint64_t SweepSpace::hash_of(size_t index) const {
  uint64_t state = prefix_state_;
  for (const HashTerm& t : hash_terms_) {
    state = fnv1a64("set ", state);
    state = fnv1a64(t.key, state);
    state = fnv1a64("=", state);
    state = fnv1a64(t.wheel == kFixedTerm ? fixed_values_[t.k] : wheels_[t.wheel].values[t.k][digit(index, t.wheel)],
                    state);
    state = fnv1a64("\n", state);
  }
  return state;
}

ExpandedSweep::ExpandedSweep(const SweepSpec& spec) : SweepSpace(spec) {
  points.reserve(size());
  for (size_t i = 0; i < size(); ++i) points.push_back(point(i));
}

ExpandedSweep expand_sweep(const SweepSpec& spec) { return ExpandedSweep(spec); }

bool parse_point_hash(const std::string& text, uint64_t& out) {
  if (text.size() != 16) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && end == text.data() + text.size() && format_point_hash(out) == text;
}

std::string format_point_hash(uint64_t hash) { return fmt::format("{:016x}", hash); }

}  // namespace parallax
