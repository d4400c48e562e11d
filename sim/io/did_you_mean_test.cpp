// File: sim/io/did_you_mean_test.cpp
// Edit distances worked by hand, and which candidates are close enough to suggest.
#include "sim/io/did_you_mean.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace parallax {
namespace {

TEST(DidYouMean, EditDistance) {
  EXPECT_EQ(edit_distance_ignoring_case("gpus", "gpus"), 0);
  EXPECT_EQ(edit_distance_ignoring_case("GPUs", "gpus"), 0);             // case is ignored
  EXPECT_EQ(edit_distance_ignoring_case("gpuz", "gpus"), 1);             // one substitution
  EXPECT_EQ(edit_distance_ignoring_case("hardwre", "hardware"), 1);      // one insertion
  EXPECT_EQ(edit_distance_ignoring_case("rnu", "run"), 1);               // one swap of neighbours
  EXPECT_EQ(edit_distance_ignoring_case("--otu", "--out"), 1);
  EXPECT_EQ(edit_distance_ignoring_case("abc", "cba"), 2);               // not one swap: two substitutions
  EXPECT_EQ(edit_distance_ignoring_case("", "run"), 3);
  EXPECT_EQ(edit_distance_ignoring_case("kitten", "sitting"), 3);
}

TEST(DidYouMean, ClosestMatchWithinTheLimit) {
  const std::vector<std::string> commands{"run", "sweep", "merge", "predict", "report"};
  EXPECT_EQ(closest_match("rnu", commands), "run");
  EXPECT_EQ(closest_match("swep", commands), "sweep");
  EXPECT_EQ(closest_match("xyz", commands), "");      // 3 letters: at most 1 edit
  EXPECT_EQ(closest_match("reprot", commands), "report");
  EXPECT_EQ(did_you_mean_suffix("mrege", commands), " (did you mean 'merge'?)");
  EXPECT_EQ(did_you_mean_suffix("zzzzzz", commands), "");
}

}  // namespace
}  // namespace parallax
