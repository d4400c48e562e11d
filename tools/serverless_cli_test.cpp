// File: tools/serverless_cli_test.cpp
// `parallax run` on serverless scenarios as a user runs it: the golden summary of
// scenarios/serverless/small.yaml, byte-identical outputs (summary.json, function_latency.csv,
// trace.json) for the same seed on one node and on two behind the router, trace.json's tracks,
// and a malformed Azure Functions row reached through a scenario (exit 2, file:line).
//
// Golden file: tests/golden/serverless_small_summary.json. After a deliberate change in
// behaviour, refresh it with PARALLAX_UPDATE_GOLDEN=1 meson test -C build serverless_cli, and
// review the diff.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/cli_harness.h"

namespace fs = std::filesystem;

namespace {

using namespace parallax::cli_test;

fs::path fresh_dir(const std::string& name) { return fresh_temp_dir("parallax_serverless_cli", name); }

std::string scenario(const std::string& name) { return (kSource / "scenarios/serverless" / name).string(); }

TEST(ServerlessCli, GoldenSmallSummary) {
  const fs::path out = fresh_dir("golden");
  const Result r = run("run --quiet " + scenario("small.yaml") + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  nlohmann::json got = nlohmann::json::parse(slurp(out / "summary.json"));
  got.erase("parallax_version");
  const fs::path golden = kSource / "tests/golden/serverless_small_summary.json";
  if (std::getenv("PARALLAX_UPDATE_GOLDEN")) {
    std::ofstream(golden) << got.dump(2) << "\n";
    GTEST_SKIP() << "golden file rewritten: " << golden;
  }
  ASSERT_TRUE(fs::exists(golden)) << "missing " << golden;
  EXPECT_EQ(got, nlohmann::json::parse(slurp(golden))) << "diff the run in " << out << " against " << golden;
  // The keys docs/serverless.md promises, per policy.
  for (const char* policy : {"torpor", "native", "naive"})
    for (const char* key : {"functions", "slo_attainment", "p99_latency_s", "gpus_used", "swaps_pcie", "swaps_nvlink",
                            "mean_queue_s", "gpu_seconds", "pcie_utilisation", "nvlink_utilisation"})
      EXPECT_TRUE(got["policies"][policy].contains(key)) << policy << "." << key;
  EXPECT_TRUE(got["policies"]["torpor"].contains("gpus_reduction_vs_native"));
  fs::remove_all(out);
}

class SameSeed : public ::testing::TestWithParam<std::string> {};

TEST_P(SameSeed, IdenticalBytes) {
  const fs::path a = fresh_dir("det_a"), b = fresh_dir("det_b");
  ASSERT_EQ(run("run --quiet " + scenario(GetParam()) + " --out " + a.string()).code, 0);
  ASSERT_EQ(run("run --quiet " + scenario(GetParam()) + " --out " + b.string()).code, 0);
  for (const char* file : {"summary.json", "function_latency.csv", "trace.json"}) {
    ASSERT_TRUE(fs::exists(a / file)) << file;
    EXPECT_EQ(slurp(a / file), slurp(b / file)) << file;
  }
  fs::remove_all(a);
  fs::remove_all(b);
}

INSTANTIATE_TEST_SUITE_P(Serverless, SameSeed, ::testing::Values("small.yaml", "small-2nodes.yaml"));

TEST(ServerlessCli, TraceHasLoadsKernelsAndMemoryPerGpu) {
  const fs::path out = fresh_dir("trace");
  ASSERT_EQ(run("run --quiet " + scenario("small-2nodes.yaml") + " --out " + out.string()).code, 0);
  const nlohmann::json t = nlohmann::json::parse(slurp(out / "trace.json"));
  const nlohmann::json s = nlohmann::json::parse(slurp(out / "summary.json"));
  size_t loads = 0, runs = 0, memory = 0;
  std::set<std::string> gpus;
  for (const auto& e : t["traceEvents"]) {
    const std::string name = e.value("name", "");
    if (e.value("ph", "") == "X" && name.rfind("load ", 0) == 0) ++loads;
    if (e.value("ph", "") == "X" && name.find(" resnet152 ") != std::string::npos) ++runs;
    if (e.value("ph", "") == "C" && name.find("model memory") != std::string::npos) ++memory;
    if (e.value("ph", "") == "M" && e.value("name", "") == "process_name") gpus.insert(e["args"].value("name", ""));
  }
  // One load per swap of the traced (first) policy, each shown on its source's and its
  // destination's process; both nodes' GPUs have tracks.
  EXPECT_EQ(loads, 2 * (s["policies"]["torpor"]["swaps_pcie"].get<size_t>() + s["policies"]["torpor"]["swaps_nvlink"].get<size_t>()));
  EXPECT_GT(runs, 0u);
  EXPECT_GT(memory, 0u);
  bool gpu7 = false;
  for (const std::string& g : gpus) gpu7 = gpu7 || g.rfind("GPU 7 ", 0) == 0;
  EXPECT_TRUE(gpu7) << "no track for node 1's last GPU";
  fs::remove_all(out);
}

TEST(ServerlessCli, MalformedAzureRowExitsTwoWithFileAndLine) {
  const fs::path d = fresh_dir("bad_azure");
  std::ofstream(d / "invocations.csv") << "HashOwner,HashApp,HashFunction,Trigger,1,2,3\n"
                                       << "o1,a1,f1,http,1,2,3\n"
                                       << "o2,a2,f2,http,4,x5,6\n";
  std::ofstream(d / "bad.yaml") << "name: bad\nhardware: v100x4-gn6e\nworkload:\n  kind: serverless\n  functions: 2\n"
                                << "  models: [resnet50]\n  trace: {format: azure2019, path: invocations.csv}\n";
  const Result r = run("run --quiet " + (d / "bad.yaml").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("invocations.csv:3"), std::string::npos) << r.output;
  fs::remove_all(d);
}

TEST(ServerlessCli, SeveralNodesRefuseSingleNodeBaselines) {
  const fs::path d = fresh_dir("nodes_native");
  std::ofstream(d / "n.yaml") << "name: n\nhardware: v100x4-gn6e\nworkload:\n  kind: serverless\n  functions: 2\n"
                              << "  models: [resnet50]\n  trace: {format: torpor, path: "
                              << (kSource / "traces/torpor/samples_derived.csv").string() << "}\n"
                              << "  policies: [torpor, native]\n  nodes: 2\n";
  const Result r = run("run --quiet " + (d / "n.yaml").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("n.yaml:8"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("native"), std::string::npos) << r.output;
  fs::remove_all(d);
}

}  // namespace
