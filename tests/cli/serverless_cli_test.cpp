// File: tests/cli/serverless_cli_test.cpp
// `parallax run` on serverless scenarios as a user runs it: the golden summary of
// scenarios/serverless/small.yaml, byte-identical outputs (summary.json, function_latency.csv,
// trace.json) for the same seed on one node and on two behind the router, trace.json's tracks,
// a malformed Azure Functions row reached through a scenario (exit 2, file:line), and every
// arrival trace format through its shipped example scenario (scenarios/serverless/*.yaml) with
// the request count its sample gives (counted from the file, not by the reader under test).
//
// Golden file: tests/golden/serverless_small_summary.json. After a deliberate change in
// behaviour, refresh it with PARALLAX_UPDATE_GOLDEN=1 meson test -C build serverless_cli, and
// review the diff.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

nlohmann::json run_summary(const std::string& file, const std::string& name) {
  const fs::path out = fresh_dir(name);
  const Result r = run("run --quiet " + scenario(file) + " --out " + out.string());
  EXPECT_EQ(r.code, 0) << r.output;
  if (r.code != 0) return nlohmann::json::object();
  nlohmann::json j = nlohmann::json::parse(slurp(out / "summary.json"));
  fs::remove_all(out);
  return j;
}

std::vector<std::string> lines_of(const fs::path& p) {
  std::vector<std::string> out;
  std::istringstream in(slurp(p));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Every invocation of the Azure 2021 sample arrives (one per data row), for each policy.
TEST(ServerlessTraceFormats, Azure2021EveryRowArrives) {
  const size_t rows = lines_of(kSource / "traces/azure2021/Azure2021_200.csv").size() - 1;
  const nlohmann::json j = run_summary("azure2021.yaml", "azure2021");
  ASSERT_EQ(rows, 199u);
  for (const char* policy : {"torpor", "native", "naive"}) {
    EXPECT_EQ(j["policies"][policy]["requests_arrived"], rows) << policy;
    EXPECT_EQ(j["policies"][policy]["requests_finished"], rows) << policy;
  }
  EXPECT_EQ(j["functions_hosted"], 31);  // the sample's (app, func) pairs
}

// The LLM requests of the first 60 s: the rows whose clock time is within 60 s of the first row's
// (the head spans one day, 18:17:03 to 18:25:45, so the clock time alone orders them).
TEST(ServerlessTraceFormats, AzureLlmFirstMinute) {
  const std::vector<std::string> lines = lines_of(kSource / "traces/azure_llm/AzureLLMInferenceTrace_code_head1000.csv");
  const auto clock_s = [](const std::string& row) {  // "2023-11-16 18:17:03.9799600,..."
    return std::stod(row.substr(11, 2)) * 3600 + std::stod(row.substr(14, 2)) * 60 + std::stod(row.substr(17, 10));
  };
  size_t within = 0;
  for (size_t i = 1; i < lines.size(); ++i) within += clock_s(lines[i]) - clock_s(lines[1]) < 60 ? 1 : 0;
  const nlohmann::json j = run_summary("azure-llm.yaml", "azure_llm");
  EXPECT_EQ(within, 63u);
  EXPECT_EQ(j["policies"]["torpor"]["requests_arrived"], within);
  EXPECT_EQ(j["policies"]["native"]["requests_finished"], within);
}

// Count traces are expanded at random: the first 10 s of minute 1 draw each of its n invocations
// with probability 1/6, so the count is within 5 standard deviations of n/6.
TEST(ServerlessTraceFormats, Azure2019FirstTenSeconds) {
  const std::vector<std::string> lines = lines_of(kSource / "traces/azure2019_single_function/invocations.csv");
  std::istringstream row(lines.at(1));
  std::string field;
  for (int i = 0; i < 5; ++i) std::getline(row, field, ',');  // owner, app, function, trigger, minute 1
  const double n = std::stod(field), mean = n / 6, sd = std::sqrt(n * (1.0 / 6) * (5.0 / 6));
  const nlohmann::json j = run_summary("azure2019.yaml", "azure2019");
  const double got = j["requests_arrived"].get<double>();
  EXPECT_EQ(n, 12787);
  EXPECT_NEAR(got, mean, 5 * sd);
  EXPECT_EQ(j["policies"]["naive"]["requests_arrived"], j["requests_arrived"]);  // one set of arrivals for all
}

// Mean rates: 64 Poisson processes for 2 minutes; the count is within 5 standard deviations of
// the sum of the first 64 rates x 2 (a Poisson count's variance is its mean).
TEST(ServerlessTraceFormats, TorporRatesFirst64Functions) {
  std::istringstream in(slurp(kSource / "traces/torpor/invoc_pattern.txt"));
  double expected = 0;
  std::string rate;
  for (int i = 0; i < 64 && std::getline(in, rate, ','); ++i) expected += 2 * std::stod(rate);
  const nlohmann::json j = run_summary("torpor-rates.yaml", "torpor_rates");
  EXPECT_NEAR(j["requests_arrived"].get<double>(), expected, 5 * std::sqrt(expected));
  EXPECT_EQ(j["requests_finished"], j["requests_arrived"]);
}

TEST(ServerlessTraceFormats, TorporRatesWithoutDurationAndUnknownFormatsExitTwo) {
  const fs::path d = fresh_dir("formats_bad");
  const std::string head = "name: f\nhardware: v100x4-gn6e\nworkload:\n  kind: serverless\n  functions: 2\n"
                           "  models: [resnet50]\n  trace: {format: ";
  std::ofstream(d / "rates.yaml") << head << "torpor_rates, path: " << (kSource / "traces/torpor/invoc_pattern.txt").string()
                                  << "}\n";
  Result r = run("run --quiet " + (d / "rates.yaml").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("rates.yaml:7:19: 'workload.trace.format: torpor_rates' needs 'workload.duration_s'"),
            std::string::npos)
      << r.output;
  std::ofstream(d / "alibaba.yaml") << head << "alibaba, path: " << (kSource / "traces/torpor/invoc_pattern.txt").string()
                                    << "}\n";
  r = run("run --quiet " + (d / "alibaba.yaml").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("must be one of torpor, torpor_rates, azure2019, azure2021, azure_llm; got 'alibaba'"),
            std::string::npos)
      << r.output;
  fs::remove_all(d);
}

}  // namespace
