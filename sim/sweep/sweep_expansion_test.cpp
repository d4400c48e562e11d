// File: sim/sweep/sweep_expansion_test.cpp
// Expansion order and counts of cartesian and zipped axes, canonical values, shards, and the
// point hash pinned to a value computed independently (FNV-1a by hand in Python).
#include "sim/sweep/sweep_expansion.h"

#include <gtest/gtest.h>

#include <set>

#include "sim/sweep/canonical_value.h"
#include "sim/sweep/point_hash.h"
#include "sim/sweep/sweep_shard.h"
#include "sim/sweep/sweep_test_files.h"

namespace parallax {
namespace {

using sweep_test::TempFolder;

ExpandedSweep plan_of(const TempFolder& tmp, const std::string& axes) {
  return expand_sweep(parse_sweep_file(tmp.write("s.yaml", "base: base.yaml\n" + axes)));
}

std::vector<std::string> values_of(const ExpandedSweep& plan) {
  std::vector<std::string> out;
  for (const SweepPoint& p : plan.points) {
    std::string row;
    for (const std::string& v : p.values) row += (row.empty() ? "" : " ") + v;
    out.push_back(row);
  }
  return out;
}

TEST(SweepExpansion, CartesianVariesTheLastKeyFastest) {
  TempFolder tmp;
  const ExpandedSweep plan = plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2, 3], b: [x, y]}\n");
  EXPECT_EQ(plan.axis_keys, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(values_of(plan), (std::vector<std::string>{"1 x", "1 y", "2 x", "2 y", "3 x", "3 y"}));
  for (size_t i = 0; i < plan.points.size(); ++i) EXPECT_EQ(plan.points[i].index, i);
}

TEST(SweepExpansion, ZipMovesItsListsTogether) {
  TempFolder tmp;
  const ExpandedSweep plan = plan_of(tmp, "axes:\n  - zip: {a: [1, 2, 3], b: [x, y, z]}\n");
  EXPECT_EQ(values_of(plan), (std::vector<std::string>{"1 x", "2 y", "3 z"}));
}

TEST(SweepExpansion, GroupsNestInFileOrderAndSeedsComeLast) {
  TempFolder tmp;
  const ExpandedSweep plan = plan_of(tmp,
                                 "set: {out: 0}\n"
                                 "axes:\n  - cartesian: {a: [1, 2]}\n  - zip: {b: [x, y], c: [3, 4]}\n"
                                 "seeds: [7, 8]\n");
  ASSERT_EQ(plan.points.size(), 8u);
  EXPECT_EQ(plan.axis_keys, (std::vector<std::string>{"a", "b", "c", "seed"}));
  EXPECT_EQ(values_of(plan), (std::vector<std::string>{"1 x 3 7", "1 x 3 8", "1 y 4 7", "1 y 4 8", "2 x 3 7",
                                                       "2 x 3 8", "2 y 4 7", "2 y 4 8"}));
  EXPECT_EQ(plan.points[5].overrides, (std::vector<std::string>{"out=0", "a=2", "b=x", "c=3", "seed=8"}));
}

TEST(SweepExpansion, NoAxesIsOnePoint) {
  TempFolder tmp;
  EXPECT_EQ(plan_of(tmp, "axes: []\n").points.size(), 1u);
}

TEST(SweepExpansion, TwoPointsWithOneConfigurationAreAnError) {
  TempFolder tmp;
  try {
    plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2, 1]}\n");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(e.message(), "points 0 and 2 resolve to the same configuration (a=1)");
  }
}

TEST(SweepExpansion, CanonicalValuesRoundTripThroughOverrides) {
  const ConfigNode list = parse_config_tree("[1, \"x y\", 'a: b', {GBps: 300}, '', null, '#c']", "t");
  EXPECT_EQ(canonical_value(list), R"([1, x y, "a: b", {GBps: 300}, "", null, "#c"])");
  // Reading the canonical text back gives the same canonical text.
  EXPECT_EQ(canonical_value(parse_config_tree(canonical_value(list), "t")), canonical_value(list));
  EXPECT_EQ(canonical_scalar("64MiB"), "64MiB");
  EXPECT_EQ(canonical_scalar("say \"hi\"\n"), R"("say \"hi\"\n")");
}

TEST(SweepExpansion, HashIsPinnedAndIgnoresOverrideOrder) {
  EXPECT_EQ(fnv1a64(""), kFnv1a64Offset);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);  // the FNV reference test vector
  // 8978f21f249bbbe5 = FNV-1a 64 of the identity text below, computed in Python.
  EXPECT_EQ(point_identity_text(sweep_test::kBaseText, {"b=\"x y: z\"", "a=1"}),
            "parallax-sweep-point v1\nbase 16\nname: x\nseed: 1\n\nset a=1\nset b=\"x y: z\"\n");
  EXPECT_EQ(point_hash(sweep_test::kBaseText, {"b=\"x y: z\"", "a=1"}), "8978f21f249bbbe5");
  EXPECT_EQ(point_hash(sweep_test::kBaseText, {"a=1", "b=\"x y: z\""}), "8978f21f249bbbe5");
  EXPECT_NE(point_hash("name: y\nseed: 1\n", {"a=1", "b=\"x y: z\""}), "8978f21f249bbbe5");
}

TEST(SweepExpansion, ReorderingAxesKeepsEachPointsHash) {
  TempFolder tmp;
  const ExpandedSweep ab = plan_of(tmp, "axes:\n  - cartesian: {a: [1, 2], b: [x, y]}\n");
  const ExpandedSweep ba = plan_of(tmp, "axes:\n  - cartesian: {b: [x, y], a: [1, 2]}\n");
  std::set<std::string> h1, h2;
  for (const SweepPoint& p : ab.points) h1.insert(p.hash);
  for (const SweepPoint& p : ba.points) h2.insert(p.hash);
  EXPECT_EQ(h1, h2);
  EXPECT_EQ(ab.points[1].hash, ba.points[2].hash);  // a=1 b=y
}

TEST(SweepShardTest, ShardsPartitionThePointsExactly) {
  for (size_t n : {1u, 2u, 3u, 7u, 64u, 100u}) {
    std::vector<int> owners(64, 0);
    for (size_t i = 0; i < n; ++i) {
      const SweepShard s = parse_shard(std::to_string(i) + "/" + std::to_string(n));
      for (size_t p = 0; p < owners.size(); ++p) owners[p] += s.holds(p) ? 1 : 0;
    }
    for (int o : owners) EXPECT_EQ(o, 1) << "N = " << n;
  }
}

TEST(SweepShardTest, BadShardsAndSlurmVariables) {
  EXPECT_THROW(parse_shard("2/2"), InputError);
  EXPECT_THROW(parse_shard("0/0"), InputError);
  EXPECT_THROW(parse_shard("1"), InputError);
  EXPECT_THROW(parse_shard("a/2"), InputError);
  const auto none = [](const char*) -> std::optional<std::string> { return std::nullopt; };
  EXPECT_FALSE(shard_from_slurm(none).has_value());
  const auto array = [](const char* name) -> std::optional<std::string> {
    const std::string n = name;
    if (n == "SLURM_ARRAY_TASK_COUNT") return "4";
    if (n == "SLURM_ARRAY_TASK_ID") return "6";
    if (n == "SLURM_ARRAY_TASK_MIN") return "5";
    return std::nullopt;
  };
  const std::optional<SweepShard> s = shard_from_slurm(array);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->index, 1u);
  EXPECT_EQ(s->count, 4u);
  const auto outside = [](const char* name) -> std::optional<std::string> {
    const std::string n = name;
    if (n == "SLURM_ARRAY_TASK_COUNT") return "2";
    if (n == "SLURM_ARRAY_TASK_ID") return "2";
    return std::nullopt;
  };
  EXPECT_THROW(shard_from_slurm(outside), InputError);
}

}  // namespace
}  // namespace parallax
