// File: sim/scenario/overlap_workload_test.cpp
// The `overlap` workload kind's reader: both modes load with their defaults, and every class of
// error (unknown key, wrong type, out-of-range value, a key of the other mode, an indivisible
// shape) names its file:line:col and dotted key.
#include <gtest/gtest.h>

#include <string>

#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

// The workload's keys start on line 4, column 3 (a missing key is reported at the mapping: 4:3).
std::string scenario(std::string_view workload_keys) {
  return "name: o\nhardware: a6000x8-nvlink-pairs\nworkload:\n  kind: overlap\n" + std::string(workload_keys);
}

std::string overlap_error_of(std::string_view workload_keys) {
  try {
    load_scenario_text(scenario(workload_keys), "o.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(OverlapWorkload, GridDefaults) {
  const Scenario s = load_scenario_text(scenario(""), "o.yaml");
  EXPECT_EQ(s.workload_kind, "overlap");
  EXPECT_EQ(s.overlap.mode, "grid");
  EXPECT_EQ(s.overlap.tp, (std::vector<int64_t>{2, 4, 8}));
  EXPECT_EQ(s.overlap.layers.size(), 4u);
  EXPECT_EQ(s.overlap.max_degree, 32);
  EXPECT_EQ(s.overlap.default_degree, 4);
  EXPECT_EQ(s.overlap.trace_config, 0);
}

TEST(OverlapWorkload, EndToEnd) {
  const Scenario s = load_scenario_text(
      scenario("  mode: end_to_end\n  tp: [4]\n  seq_len: 1024\n  micro_batch: 4\n  trace_config: 1\n"
               "  models:\n    - {name: a, hidden: 2048, heads: 16, layers: 24}\n"
               "    - {name: b, hidden: 4096, heads: 32, layers: 32}\n"),
      "o.yaml");
  EXPECT_EQ(s.overlap.mode, "end_to_end");
  ASSERT_EQ(s.overlap.models.size(), 2u);
  EXPECT_EQ(s.overlap.models[1].name, "b");
  EXPECT_EQ(s.overlap.models[1].hidden, 4096);
  EXPECT_EQ(s.overlap.models[1].heads, 32);
  EXPECT_EQ(s.overlap.models[1].layers, 32);
  EXPECT_EQ(s.overlap.seq_len, 1024);
  EXPECT_EQ(s.overlap.micro_batch, 4);
  EXPECT_EQ(s.overlap.trace_config, 1);
}

TEST(OverlapWorkload, UnknownKeys) {
  EXPECT_EQ(overlap_error_of("  max_degre: 8\n"),
            "o.yaml:5:3: unknown key 'workload.max_degre' (did you mean 'max_degree'?)");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n  models:\n    - {name: a, hidden: 2048, head: 16, layers: 24}\n"),
            "o.yaml:7:31: unknown key 'workload.models.0.head' (did you mean 'heads'?)");
}

TEST(OverlapWorkload, WrongTypes) {
  EXPECT_EQ(overlap_error_of("  tp: 4\n"), "o.yaml:5:7: 'workload.tp' must be a non-empty list");
  EXPECT_EQ(overlap_error_of("  tp: [2, two]\n"), "o.yaml:5:11: 'workload.tp.1' must be an integer, got 'two'");
  EXPECT_EQ(overlap_error_of("  ops: [ag_gem]\n"),
            "o.yaml:5:9: 'workload.ops.0' must be one of ag_gemm, gemm_rs, gemm_ar; got 'ag_gem' (did you mean 'ag_gemm'?)");
  EXPECT_EQ(overlap_error_of("  mode: e2e\n"), "o.yaml:5:9: 'workload.mode' must be one of grid, end_to_end; got 'e2e'");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n  models: {name: a}\n"),
            "o.yaml:6:11: 'workload.models' must be a non-empty list");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n  models:\n    - {name: [a], hidden: 2048, heads: 16, layers: 24}\n"),
            "o.yaml:7:14: 'workload.models.0.name' must be a string, got a list");
}

TEST(OverlapWorkload, OutOfRange) {
  EXPECT_EQ(overlap_error_of("  tp: [2, 16]\n"), "o.yaml:5:11: 'workload.tp.1' must be at most 8, got 16");
  EXPECT_EQ(overlap_error_of("  hidden: [32]\n"), "o.yaml:5:12: 'workload.hidden.0' must be at least 64, got 32");
  EXPECT_EQ(overlap_error_of("  max_degree: 0\n"), "o.yaml:5:15: 'workload.max_degree' must be at least 1, got 0");
  EXPECT_EQ(overlap_error_of("  max_degree: 8\n  default_degree: 9\n"),
            "o.yaml:6:19: 'workload.default_degree' must be at most 8, got 9");
  EXPECT_EQ(overlap_error_of("  trace_config: 288\n"), "o.yaml:5:17: 'workload.trace_config' must be at most 287, got 288");
  EXPECT_EQ(overlap_error_of("  tp: [4]\n  ops: [gemm_rs]\n  trace_config: -1\n"),
            "o.yaml:7:17: 'workload.trace_config' must be at least 0, got -1");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n  micro_batch: 0\n  models: [{name: a, hidden: 2048, heads: 16, layers: 24}]\n"),
            "o.yaml:6:16: 'workload.micro_batch' must be at least 1, got 0");
}

TEST(OverlapWorkload, Shapes) {
  EXPECT_EQ(overlap_error_of("  tp: [3]\n  tokens: [4096]\n"), "o.yaml:5:7: 'workload.tp': tokens 4096 is not divisible by tp 3");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n  tp: [8]\n  models: [{name: a, hidden: 2048, heads: 4, layers: 24}]\n"),
            "o.yaml:6:7: 'workload.tp': model 'a' has 4 heads, not divisible by tp 8");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n  models: [{name: a, hidden: 2048, heads: 24, layers: 24}]\n"),
            "o.yaml:6:43: 'workload.models.0.heads': hidden 2048 is not divisible by heads 24");
}

TEST(OverlapWorkload, KeysOfTheOtherMode) {
  EXPECT_EQ(overlap_error_of("  models: [{name: a, hidden: 2048, heads: 16, layers: 24}]\n"),
            "o.yaml:5:11: 'workload.models' applies to mode end_to_end only");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n  hidden: [2048]\n"), "o.yaml:6:11: 'workload.hidden' applies to mode grid only");
  EXPECT_EQ(overlap_error_of("  mode: end_to_end\n"), "o.yaml:4:3: missing required key 'workload.models'");
}

}  // namespace
}  // namespace parallax
