// File: hw/hw_cli_test.cpp
// `parallax hw` as a user runs it on a machine without a GPU (CI, this project's build machine):
// the documented exit code 3 and one-line message, the dry-run plan, bad input. On a machine with
// a GPU the no-GPU checks skip (the device script covers that case).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <sys/wait.h>

#include "tests/support/cli_harness.h"

namespace {

using namespace parallax::cli_test;

// The one line `parallax hw` prints when it cannot measure.
const std::regex kUnavailable(
    "(no CUDA GPU found: [^\n]+|this build has no CUDA backend \\(configure with -Dcuda=enabled where nvcc is installed\\))\n");

TEST(HwCli, InfoWithoutAGpuExitsThreeWithOneLine) {
  const Result r = run("hw info");
  if (r.code == 0) GTEST_SKIP() << "a GPU is present:\n" << r.output;
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_TRUE(std::regex_match(r.output, kUnavailable)) << r.output;
}

TEST(HwCli, CalibrateWithoutAGpuExitsThreeAndWritesNothing) {
  const Result info = run("hw info");
  if (info.code == 0) GTEST_SKIP() << "a GPU is present";
  const std::string dir = testing::TempDir() + "hw_cli_out";
  const Result r = run("hw calibrate --quick --out " + dir);
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_TRUE(std::regex_match(r.output, kUnavailable)) << r.output;
  EXPECT_NE(std::system(("test -e " + dir + "/measurements.csv").c_str()), 0);
}

TEST(HwCli, DryRunPrintsThePlanWithoutAGpu) {
  const Result r = run("hw calibrate --dry-run --quick");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("gemm/bf16/1024x1024x1024"), std::string::npos) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.output, m, std::regex("(\\d+) cases, gemm \\d+.*; estimated (\\d+) s"))) << r.output;
  EXPECT_GT(std::stoi(m[1]), 20);
  EXPECT_LT(std::stoi(m[2]), 60);
}

TEST(HwCli, DryRunShowsTheRealtimeTrialsAndTheirRows) {
  const Result r = run("hw calibrate --dry-run --families colocate,serverless");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("colocate/static_split/load0.5"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("serverless/torpor/10s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("rows: ls_p50_latency_s (s), ls_p99_latency_s (s), ls_slo_attainment (fraction), be_throughput (1/s)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("sgdrc"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("11 cases, colocate 10, serverless 1;"), std::string::npos) << r.output;
}

// Issue 16's bar: the hardware plan lists all four systems (overlap's task graphs as interdecom
// and intrafusion, serverless, colocate, multiplex) and the sm_scaling family, within 8 minutes.
TEST(HwCli, DryRunListsAllFourSystems) {
  const Result r = run("hw calibrate --dry-run");
  ASSERT_EQ(r.code, 0) << r.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      r.output, m,
      std::regex("\\d+ cases, .*sm_scaling \\d+.*interdecom \\d+, intrafusion \\d+, colocate \\d+, serverless \\d+, "
                 "multiplex \\d+; estimated (\\d+) s")))
      << r.output;
  EXPECT_LT(std::stoi(m[1]), 8 * 60);
  EXPECT_NE(r.output.find("strategy=interdecom"), std::string::npos);
  EXPECT_NE(r.output.find("strategy=sequential"), std::string::npos);
  EXPECT_NE(r.output.find("multiplex/elastic/load0.3"), std::string::npos);
  const Result overlap = run("hw calibrate --dry-run --quick --families overlap");
  ASSERT_EQ(overlap.code, 0) << overlap.output;
  EXPECT_NE(overlap.output.find("cases, interdecom 3, intrafusion 2;"), std::string::npos) << overlap.output;
}

TEST(HwCli, BadInputExitsTwo) {
  Result r = run("hw calibrate --dry-run --families gemm,bogus");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown family 'bogus'"), std::string::npos) << r.output;
  r = run("hw calibrate --quick");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("needs --out DIR"), std::string::npos) << r.output;
}

}  // namespace
