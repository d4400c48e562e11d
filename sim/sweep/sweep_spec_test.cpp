// File: sim/sweep/sweep_spec_test.cpp
// The sweep file reader: what it accepts, and the located errors for what it does not.
#include "sim/sweep/sweep_spec.h"

#include <gtest/gtest.h>

#include "sim/sweep/sweep_test_files.h"

namespace parallax {
namespace {

using sweep_test::TempFolder;

// Parses `text` as <tmp>/s.yaml; returns the InputError's what() ("" when it parses).
std::string error_of(const TempFolder& tmp, const std::string& text) {
  try {
    parse_sweep_file(tmp.write("s.yaml", text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SweepSpec, ReadsBaseSetAxesAndSeeds) {
  TempFolder tmp;
  const SweepSpec s = parse_sweep_file(tmp.write("s.yaml",
                                                 "base: base.yaml\n"
                                                 "set: {output.trace: false}\n"
                                                 "axes:\n"
                                                 "  - cartesian: {hardware.gpus: [8, 64], x: [a]}\n"
                                                 "  - zip: {workload.collectives.0.bytes: [1MiB, 64MiB], y: [1, 2]}\n"
                                                 "seeds: [3, 4]\n"));
  EXPECT_EQ(s.base_text, sweep_test::kBaseText);
  ASSERT_EQ(s.fixed.size(), 1u);
  EXPECT_EQ(s.fixed[0].key, "output.trace");
  ASSERT_EQ(s.groups.size(), 3u);
  EXPECT_EQ(s.groups[0].kind, SweepAxisGroup::Kind::cartesian);
  EXPECT_EQ(s.groups[0].axes[0].key, "hardware.gpus");
  EXPECT_EQ(s.groups[0].axes[0].where.line, 4);
  EXPECT_EQ(s.groups[1].kind, SweepAxisGroup::Kind::zip);
  EXPECT_EQ(s.groups[2].axes[0].key, "seed");
  EXPECT_EQ(s.groups[2].axes[0].values.size(), 2u);
}

TEST(SweepSpec, RepeatMeansSeedsOneToN) {
  TempFolder tmp;
  const SweepSpec s = parse_sweep_file(tmp.write("s.yaml", "base: base.yaml\naxes: []\nrepeat: 3\n"));
  ASSERT_EQ(s.groups.size(), 1u);
  ASSERT_EQ(s.groups[0].axes[0].values.size(), 3u);
  EXPECT_EQ(s.groups[0].axes[0].values[2].scalar, "3");
}

TEST(SweepSpec, BaseIsRelativeToTheSweepFile) {
  TempFolder tmp;
  std::filesystem::create_directories(tmp.path() / "sub");
  tmp.write("sub/s.yaml", "base: ../base.yaml\naxes: []\n");
  const SweepSpec s = parse_sweep_file((tmp.path() / "sub" / "s.yaml").string());
  EXPECT_EQ(s.base_text, sweep_test::kBaseText);
}

TEST(SweepSpec, ErrorsNameTheFileLineAndKey) {
  TempFolder tmp;
  const std::string f = (tmp.path() / "s.yaml").string();
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - zip: {a: [1, 2], b: [1, 2, 3]}\n"),
            f + ":3:22: zipped lists must have one length: 'a' has 2 values, 'b' has 3");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes: []\nseedz: [1]\n"),
            f + ":3:1: unknown key 'seedz' (did you mean 'seeds'?)");
  EXPECT_EQ(error_of(tmp, "axes: []\n"), f + ":1:1: missing required key 'base'");
  EXPECT_EQ(error_of(tmp, "base: nope.yaml\naxes: []\n"),
            f + ":1:7: cannot open base scenario '" + (tmp.path() / "nope.yaml").string() + "': no such file or directory");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - cartesian: {a: []}\n"),
            f + ":3:20: 'axes.0.cartesian.a' has no values");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - cartesian: {a: 1}\n"),
            f + ":3:20: 'axes.0.cartesian.a' must be a list of values, got a scalar");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - cross: {a: [1]}\n"),
            f + ":3:5: unknown key 'axes.0.cross'");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - {cartesian: {a: [1]}, zip: {b: [1]}}\n"),
            f + ":3:5: 'axes.0' must hold exactly one of 'cartesian' or 'zip'");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes: []\nseeds: [1]\nrepeat: 2\n"),
            f + ":4:9: 'repeat' and 'seeds' both choose the seeds; give one");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes: []\nseeds: [x]\n"),
            f + ":3:9: 'seeds.0' must be a non-negative integer, got 'x'");
}

TEST(SweepSpec, AKeyIsVariedOnceAndNeverInsideAnother) {
  TempFolder tmp;
  const std::string f = (tmp.path() / "s.yaml").string();
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - cartesian: {a: [1]}\n  - zip: {a: [2]}\n"),
            f + ":4:11: 'a' is varied twice (first at line 3)");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\nset: {hardware: {gpus: 8}}\naxes:\n  - cartesian: {hardware.gpus: [1]}\n"),
            f + ":4:17: 'hardware.gpus' and 'hardware' (line 2) overlap: one lies inside the other");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - cartesian: {seed: [1]}\nseeds: [1]\n"),
            f + ":4:8: 'seed' is varied twice (first at line 3)");
  EXPECT_EQ(error_of(tmp, "base: base.yaml\naxes:\n  - cartesian: {a..b: [1]}\n"),
            f + ":3:17: 'a..b' is not a dotted key (a.b.0.c)");
}

}  // namespace
}  // namespace parallax
