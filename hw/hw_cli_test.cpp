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

namespace {

const std::string kBinary = std::getenv("PARALLAX_BIN") ? std::getenv("PARALLAX_BIN") : "parallax";

struct Result {
  int code;
  std::string out;  // stdout and stderr together
};

Result run(const std::string& args) {
  FILE* p = popen((kBinary + " " + args + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// The one line `parallax hw` prints when it cannot measure.
const std::regex kUnavailable(
    "(no CUDA GPU found: [^\n]+|this build has no CUDA backend \\(configure with -Dcuda=enabled where nvcc is installed\\))\n");

TEST(HwCli, InfoWithoutAGpuExitsThreeWithOneLine) {
  const Result r = run("hw info");
  if (r.code == 0) GTEST_SKIP() << "a GPU is present:\n" << r.out;
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(std::regex_match(r.out, kUnavailable)) << r.out;
}

TEST(HwCli, CalibrateWithoutAGpuExitsThreeAndWritesNothing) {
  const Result info = run("hw info");
  if (info.code == 0) GTEST_SKIP() << "a GPU is present";
  const std::string dir = testing::TempDir() + "hw_cli_out";
  const Result r = run("hw calibrate --quick --out " + dir);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_TRUE(std::regex_match(r.out, kUnavailable)) << r.out;
  EXPECT_NE(std::system(("test -e " + dir + "/measurements.csv").c_str()), 0);
}

TEST(HwCli, DryRunPrintsThePlanWithoutAGpu) {
  const Result r = run("hw calibrate --dry-run --quick");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("gemm/bf16/1024x1024x1024"), std::string::npos) << r.out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("(\\d+) cases, gemm \\d+.*; estimated (\\d+) s"))) << r.out;
  EXPECT_GT(std::stoi(m[1]), 20);
  EXPECT_LT(std::stoi(m[2]), 60);
}

TEST(HwCli, BadInputExitsTwo) {
  Result r = run("hw calibrate --dry-run --families gemm,bogus");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("unknown family 'bogus'"), std::string::npos) << r.out;
  r = run("hw calibrate --dry-run --families serverless");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("not measured yet"), std::string::npos) << r.out;
  r = run("hw calibrate --quick");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("needs --out DIR"), std::string::npos) << r.out;
}

}  // namespace
