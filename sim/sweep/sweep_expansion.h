// File: sim/sweep/sweep_expansion.h
// Expands a SweepSpec into its points, in a fixed order: the axis groups in file order, the first
// varying slowest (an odometer whose last wheel turns fastest); inside a cartesian group the keys
// nest the same way; a zip group is one wheel. Each point gets its index, its axis values, the
// "--set" overrides that make it (shared ones first), and its hash (point_hash.h).
//
//   axes: [{cartesian: {a: [1, 2]}}, {zip: {b: [x, y], c: [3, 4]}}]
//   -> 0: a=1 b=x c=3   1: a=1 b=y c=4   2: a=2 b=x c=3   3: a=2 b=y c=4
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sim/sweep/sweep_spec.h"

namespace parallax {

struct SweepPoint {
  size_t index = 0;
  std::vector<std::string> values;     // canonical text, one per SweepPlan::axis_keys entry
  std::vector<std::string> overrides;  // "key=value": the `set:` ones, then the axes in file order
  std::string hash;
};

struct SweepPlan {
  std::vector<std::string> axis_keys;  // the varied keys, in file order (results.csv's axis columns)
  std::vector<SweepPoint> points;      // points[i].index == i
};

// The most points one sweep may expand to.
inline constexpr size_t kMaxSweepPoints = 10'000'000;

// Throws InputError (at the sweep file) when the product exceeds kMaxSweepPoints, or when two
// points resolve to one configuration (same hash), naming both indices.
SweepPlan expand_sweep(const SweepSpec& spec);

}  // namespace parallax
