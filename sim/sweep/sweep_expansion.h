// File: sim/sweep/sweep_expansion.h
// The points of a SweepSpec, in a fixed order: the axis groups in file order, the first varying
// slowest (an odometer whose last wheel turns fastest); inside a cartesian group the keys nest the
// same way; a zip group is one wheel. A SweepSpace computes point i on demand from the axes (its
// axis values, the "--set" overrides that make it, shared ones first, and its hash, point_hash.h),
// so a sweep of millions of points holds only the axes' values, never the points.
//
//   axes: [{cartesian: {a: [1, 2]}}, {zip: {b: [x, y], c: [3, 4]}}]
//   -> 0: a=1 b=x c=3   1: a=1 b=y c=4   2: a=2 b=x c=3   3: a=2 b=y c=4
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/sweep/sweep_spec.h"

namespace parallax {

struct SweepPoint {
  size_t index = 0;
  std::vector<std::string> values;     // canonical text, one per axis_keys entry
  std::vector<std::string> overrides;  // "key=value": the `set:` ones, then the axes in file order
  std::string hash;
};

// The most points one sweep may expand to.
inline constexpr size_t kMaxSweepPoints = 10'000'000;

class SweepSpace {
 public:
  // Throws InputError (at the sweep file) when the product exceeds kMaxSweepPoints, or when two
  // points resolve to one configuration, naming the first such pair of indices. Two points are
  // one configuration exactly when, on every wheel, their values have one canonical text: so a
  // wheel that repeats a value (a tuple of values for a zip) is what makes a duplicate, and the
  // check needs only the axes.
  explicit SweepSpace(const SweepSpec& spec);

  std::vector<std::string> axis_keys;  // the varied keys, in file order (results.csv's axis columns)

  size_t size() const { return count_; }
  SweepPoint point(size_t index) const;
  // point(index).hash as a number, without building the override strings.
  uint64_t hash_of(size_t index) const;

  // The odometer: wheel w's position at point `index` (0 .. wheel_length(w) - 1).
  size_t wheel_count() const { return wheels_.size(); }
  size_t wheel_length(size_t w) const { return wheels_[w].length; }
  size_t digit(size_t index, size_t w) const { return index / wheels_[w].stride % wheels_[w].length; }

 private:
  struct Wheel {
    std::vector<std::string> keys;                 // moved together
    std::vector<std::vector<std::string>> values;  // canonical text, [key][position]
    size_t length = 0;
    size_t stride = 1;  // points per step of this wheel
  };
  // One override in the hash's key order: a `set:` entry (wheel == npos) or key k of wheel w.
  struct HashTerm {
    std::string key;
    size_t wheel = 0;
    size_t k = 0;
  };

  void check_distinct(const SweepSpec& spec) const;

  std::vector<Wheel> wheels_;
  std::vector<std::string> fixed_;         // "key=value" of `set:`
  std::vector<std::string> fixed_values_;  // their values, by position in fixed_
  std::vector<HashTerm> hash_terms_;       // sorted by key
  uint64_t prefix_state_ = 0;              // FNV-1a state after the identity text's header and base
  size_t count_ = 1;
};

// A sweep with every point materialised: only for sweeps small enough to hold (tests).
struct ExpandedSweep : SweepSpace {
  explicit ExpandedSweep(const SweepSpec& spec);
  std::vector<SweepPoint> points;  // points[i] == point(i)
};

ExpandedSweep expand_sweep(const SweepSpec& spec);

// A point hash's 16 lower-case hex digits -> the number; false when `text` is not one (no change to `out`
// is promised then).
bool parse_point_hash(const std::string& text, uint64_t& out);
std::string format_point_hash(uint64_t hash);

}  // namespace parallax
