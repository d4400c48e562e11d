// File: sim/sweep/sweep_expansion.cpp
#include "sim/sweep/sweep_expansion.h"

#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/sweep/canonical_value.h"
#include "sim/sweep/point_hash.h"

namespace parallax {

namespace {

// One wheel of the odometer: a key of a cartesian group, or a whole zip group.
struct Wheel {
  std::vector<const SweepAxis*> axes;  // moved together
  size_t length = 0;
};

std::vector<Wheel> wheels_of(const SweepSpec& spec) {
  std::vector<Wheel> wheels;
  for (const SweepAxisGroup& g : spec.groups) {
    if (g.kind == SweepAxisGroup::Kind::zip) {
      Wheel w;
      for (const SweepAxis& a : g.axes) w.axes.push_back(&a);
      w.length = g.axes.front().values.size();
      wheels.push_back(std::move(w));
    } else {
      for (const SweepAxis& a : g.axes) wheels.push_back(Wheel{{&a}, a.values.size()});
    }
  }
  return wheels;
}

SourceLocation at_file(const SweepSpec& spec) { return SourceLocation{spec.source, 0, 0}; }

}  // namespace

SweepPlan expand_sweep(const SweepSpec& spec) {
  const std::vector<Wheel> wheels = wheels_of(spec);
  size_t count = 1;
  for (const Wheel& w : wheels) {
    if (count > kMaxSweepPoints / w.length)
      throw InputError(at_file(spec), "axes",
                       fmt::format("the axes expand to more than {} points", kMaxSweepPoints));
    count *= w.length;
  }

  SweepPlan plan;
  for (const Wheel& w : wheels)
    for (const SweepAxis* a : w.axes) plan.axis_keys.push_back(a->key);

  std::vector<std::string> fixed;
  for (const SweepAxis& a : spec.fixed) fixed.push_back(a.key + "=" + canonical_value(a.values.front()));
  // Canonical text of every value, computed once.
  std::vector<std::vector<std::vector<std::string>>> text(wheels.size());
  for (size_t w = 0; w < wheels.size(); ++w)
    for (const SweepAxis* a : wheels[w].axes) {
      std::vector<std::string> values;
      for (const ConfigNode& v : a->values) values.push_back(canonical_value(v));
      text[w].push_back(std::move(values));
    }

  plan.points.reserve(count);
  std::unordered_map<std::string, size_t> seen;
  std::vector<size_t> digit(wheels.size(), 0);
  for (size_t index = 0; index < count; ++index) {
    SweepPoint p;
    p.index = index;
    p.overrides = fixed;
    for (size_t w = 0; w < wheels.size(); ++w)
      for (size_t k = 0; k < wheels[w].axes.size(); ++k) {
        const std::string& value = text[w][k][digit[w]];
        p.values.push_back(value);
        p.overrides.push_back(wheels[w].axes[k]->key + "=" + value);
      }
    p.hash = point_hash(spec.base_text, p.overrides);
    const auto [it, fresh] = seen.emplace(p.hash, index);
    if (!fresh)
      throw InputError(at_file(spec), "axes",
                       fmt::format("points {} and {} resolve to the same configuration ({})", it->second, index,
                                   fmt::join(p.overrides, " ")));
    plan.points.push_back(std::move(p));
    for (size_t w = wheels.size(); w-- > 0;) {  // advance the odometer, last wheel fastest
      if (++digit[w] < wheels[w].length) break;
      digit[w] = 0;
    }
  }
  return plan;
}

}  // namespace parallax
