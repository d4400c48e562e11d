// File: sim/sweep/sweep_space_test.cpp
// SweepSpace computes points on demand: its fast hash (FNV state of the fixed part reused) equals
// point_hash of the point's overrides, and its duplicate check, which reasons on the axes only,
// names the same pair as a brute-force search over every point's hash, on many small random axes.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/sweep/point_hash.h"
#include "sim/sweep/sweep_expansion.h"
#include "sim/sweep/sweep_test_files.h"

namespace parallax {
namespace {

using sweep_test::TempFolder;

SweepSpec spec_of(const TempFolder& tmp, const std::string& body) {
  return parse_sweep_file(tmp.write("s.yaml", "base: base.yaml\n" + body));
}

TEST(SweepSpace, FastHashEqualsThePointHashOfItsOverrides) {
  TempFolder tmp;
  const SweepSpace space(spec_of(tmp,
                                 "set: {zz: 1, out: {a: [1, 2]}}\n"
                                 "axes:\n  - cartesian: {m: [1, 'x y'], b: [2MiB, 3]}\n  - zip: {c: [1, 2], a: [p, q]}\n"
                                 "seeds: [5, 6, 7]\n"));
  ASSERT_EQ(space.size(), 24u);
  for (size_t i = 0; i < space.size(); ++i) {
    const SweepPoint p = space.point(i);
    EXPECT_EQ(p.hash, point_hash(sweep_test::kBaseText, p.overrides)) << i;
    EXPECT_EQ(format_point_hash(space.hash_of(i)), p.hash) << i;
    uint64_t parsed = 0;
    EXPECT_TRUE(parse_point_hash(p.hash, parsed));
    EXPECT_EQ(parsed, space.hash_of(i));
  }
  uint64_t h = 0;
  EXPECT_FALSE(parse_point_hash("00FF00FF00FF00FF", h));  // upper case is not how hashes are written
  EXPECT_FALSE(parse_point_hash("00ff", h));
}

// The first point whose configuration an earlier point had, and that earlier point, by hashing
// every point in order (what materialising the sweep did).
std::string brute_force_duplicate(const SweepSpace& space) {
  std::unordered_map<uint64_t, size_t> seen;
  for (size_t i = 0; i < space.size(); ++i) {
    const auto [it, fresh] = seen.emplace(space.hash_of(i), i);
    if (!fresh) return fmt::format("points {} and {} ", it->second, i);
  }
  return "";
}

TEST(SweepSpace, DuplicatesFoundOnTheAxesMatchABruteForceSearch) {
  TempFolder tmp;
  std::mt19937 rng(7);
  const auto values = [&](size_t n) {
    std::string list = "[";
    for (size_t i = 0; i < n; ++i) list += (i ? ", " : "") + std::to_string(rng() % 4);
    return list + "]";
  };
  size_t duplicates = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const size_t zip_length = 1 + rng() % 3;
    const std::string body = "axes:\n  - cartesian: {a: " + values(1 + rng() % 4) + ", b: " + values(1 + rng() % 3) +
                             "}\n  - zip: {c: " + values(zip_length) + ", d: " + values(zip_length) + "}\n";
    const SweepSpec spec = spec_of(tmp, body);
    std::string expected;
    {
      // Independently of SweepSpace: every point's configuration as text, built from the spec's
      // values in expansion order, and the first one seen before.
      std::unordered_map<std::string, size_t> seen;
      size_t count = 1;
      std::vector<std::vector<std::string>> wheels;
      for (const SweepAxisGroup& g : spec.groups) {
        if (g.kind == SweepAxisGroup::Kind::zip) {
          std::vector<std::string> w;
          for (size_t r = 0; r < g.axes.front().values.size(); ++r) {
            std::string o;
            for (const SweepAxis& a : g.axes) o += a.key + "=" + a.values[r].scalar + " ";
            w.push_back(o);
          }
          wheels.push_back(w);
        } else {
          for (const SweepAxis& a : g.axes) {
            std::vector<std::string> w;
            for (const ConfigNode& v : a.values) w.push_back(a.key + "=" + v.scalar + " ");
            wheels.push_back(w);
          }
        }
      }
      for (const auto& w : wheels) count *= w.size();
      for (size_t i = 0; i < count && expected.empty(); ++i) {
        std::string config;
        size_t rest = i, stride = count;
        for (const auto& w : wheels) {
          stride /= w.size();
          config += w[rest / stride];
          rest %= stride;
        }
        const auto [it, fresh] = seen.emplace(config, i);
        if (!fresh) expected = fmt::format("points {} and {} resolve to the same configuration (", it->second, i);
      }
    }
    try {
      const SweepSpace space(spec);
      EXPECT_EQ(expected, "") << body;
      EXPECT_EQ(brute_force_duplicate(space), "") << body;
    } catch (const InputError& e) {
      ++duplicates;
      EXPECT_FALSE(expected.empty()) << body << e.message();
      EXPECT_EQ(e.message().substr(0, expected.size()), expected) << body;
    }
  }
  EXPECT_GT(duplicates, 50u);  // the random axes do exercise the check
  EXPECT_LT(duplicates, 300u);
}

}  // namespace
}  // namespace parallax
