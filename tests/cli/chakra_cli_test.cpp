// File: tests/cli/chakra_cli_test.cpp
// `parallax run` of workload kind chakra as a user runs it: the shipped 8-rank sample on DGX A100
// and DGX H100 (H100 faster, summary fields present, every rank's time accounted for, identical
// bytes twice), and a bad trace exits 2 naming the file, the node id and the field.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/cli_harness.h"

namespace fs = std::filesystem;

namespace {

using namespace parallax::cli_test;

const std::string kSample = "scenarios/chakra/gpt-tp2-pp2-dp2.yaml";

nlohmann::json run_sample(const std::string& name, const std::string& extra) {
  const fs::path out = fresh_temp_dir("parallax_chakra_cli", name);
  const Result r = run("run " + (kSource / kSample).string() + " --quiet --out " + out.string() + " " + extra);
  EXPECT_EQ(r.code, 0) << r.output;
  return nlohmann::json::parse(slurp(out / "summary.json"));
}

TEST(ChakraCli, ShippedSampleRunsOnA100AndH100AndH100IsFaster) {
  const auto a100 = run_sample("a100", "--set hardware.preset=dgx-a100");
  const auto h100 = run_sample("h100", "--set hardware.preset=dgx-h100");
  for (const auto* s : {&a100, &h100}) {
    EXPECT_EQ((*s)["workload_kind"], "chakra");
    EXPECT_EQ((*s)["ranks"], 8);
    EXPECT_EQ((*s)["tasks"], 420);
    const double step = (*s)["step_time_s"];
    ASSERT_GT(step, 0);
    ASSERT_TRUE((*s)["tflops_per_gpu"].is_number());
    // tflops_per_gpu is the trace's FLOPs over the step and the ranks.
    EXPECT_NEAR(double((*s)["tflops_per_gpu"]), double((*s)["flops_per_step"]) / step / 8 / 1e12, 1e-9);
    ASSERT_EQ((*s)["per_rank"].size(), 8u);
    for (const auto& r : (*s)["per_rank"]) {
      const double sum = double(r["compute_s"]) + double(r["exposed_comm_s"]) + double(r["host_s"]) + double(r["idle_s"]);
      EXPECT_NEAR(sum, step, 1e-12 + step * 1e-9);
      EXPECT_GT(double(r["compute_s"]), 0);
      EXPECT_GT(double(r["exposed_comm_s"]), 0);  // TP all-reduces on the critical path
      EXPECT_NEAR(double(r["host_s"]), 150e-6, 1e-12);  // the dataloader delay, nothing overlaps it
    }
  }
  EXPECT_LT(double(h100["step_time_s"]), double(a100["step_time_s"]));
  EXPECT_GT(double(h100["tflops_per_gpu"]), double(a100["tflops_per_gpu"]));
}

TEST(ChakraCli, SameScenarioSameBytes) {
  const fs::path one = fresh_temp_dir("parallax_chakra_cli", "det1"), two = fresh_temp_dir("parallax_chakra_cli", "det2");
  ASSERT_EQ(run("run " + (kSource / kSample).string() + " --quiet --out " + one.string()).code, 0);
  ASSERT_EQ(run("run " + (kSource / kSample).string() + " --quiet --out " + two.string()).code, 0);
  EXPECT_EQ(slurp(one / "summary.json"), slurp(two / "summary.json"));
  EXPECT_EQ(slurp(one / "trace.json"), slurp(two / "trace.json"));
}

TEST(ChakraCli, TruncatedEtExitsTwoWithTheFile) {
  const fs::path dir = fresh_temp_dir("parallax_chakra_cli", "truncated");
  const fs::path trace = dir / "trace";
  fs::create_directories(trace);
  for (int r = 0; r < 8; ++r) {
    const auto name = "gpt_tp2_pp2_dp2." + std::to_string(r) + ".et";
    fs::copy_file(kSource / "traces/chakra/gpt_tp2_pp2_dp2" / name, trace / name);
  }
  fs::resize_file(trace / "gpt_tp2_pp2_dp2.3.et", fs::file_size(trace / "gpt_tp2_pp2_dp2.3.et") - 7);
  const Result r = run("run " + (kSource / kSample).string() + " --quiet --out " + (dir / "out").string() +
                       " --set workload.trace=" + trace.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("gpt_tp2_pp2_dp2.3.et: truncated file: node message"), std::string::npos) << r.output;
}

TEST(ChakraCli, MissingRankAndUnmatchedCollectiveExitTwo) {
  const fs::path dir = fresh_temp_dir("parallax_chakra_cli", "missing");
  const fs::path trace = dir / "trace";
  fs::create_directories(trace);
  for (int r = 0; r < 8; ++r) {
    if (r == 5) continue;
    const auto name = "gpt_tp2_pp2_dp2." + std::to_string(r) + ".et";
    fs::copy_file(kSource / "traces/chakra/gpt_tp2_pp2_dp2" / name, trace / name);
  }
  Result r = run("run " + (kSource / kSample).string() + " --quiet --out " + (dir / "out").string() +
                 " --set workload.trace=" + trace.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("missing rank 5: no gpt_tp2_pp2_dp2.5.et"), std::string::npos) << r.output;
  // Rank 5 replaced by rank 4's ET: rank 5's collectives are rank 4's, with rank 4 in pg_ranks.
  fs::copy_file(trace / "gpt_tp2_pp2_dp2.4.et", trace / "gpt_tp2_pp2_dp2.5.et");
  r = run("run " + (kSource / kSample).string() + " --quiet --out " + (dir / "out").string() +
          " --set workload.trace=" + trace.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("gpt_tp2_pp2_dp2.5.et: node id"), std::string::npos) << r.output;
}

TEST(ChakraCli, MoreRanksThanGpusExitsTwo) {
  const Result r = run("run " + (kSource / kSample).string() + " --quiet --out " +
                       fresh_temp_dir("parallax_chakra_cli", "few").string() + " --set hardware.preset=h100x4-nvlink-pairs");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("the trace has 8 ranks, the hardware 'h100x4-nvlink-pairs' has 4 GPUs"), std::string::npos)
      << r.output;
}

}  // namespace
