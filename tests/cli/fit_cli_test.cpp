// File: tests/cli/fit_cli_test.cpp
// `parallax fit`, `parallax validate` and `parallax predict collective --calibration` end to end:
// the real nccl-tests logs of tests/data/nccl-tests, bad input (exit 2 with file:line), and the
// files validate writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/cli_harness.h"

namespace {

namespace fs = std::filesystem;

using namespace parallax::cli_test;

std::string source(const std::string& rel) { return (kSource / rel).string(); }

fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("parallax-fit-cli-" + std::to_string(getpid())) / name;
  fs::create_directories(d);
  return d;
}


TEST(FitCli, NcclTestsFitThenPredictReproducesTheLog) {
  const fs::path cal = scratch("nccl") / "k80.yaml";
  const Result fit = run("fit --nccl-tests " + source("tests/data/nccl-tests/k80x4-all_reduce_perf-old.log") +
                         " --hardware dgx-h100 --out " + cal.string());
  ASSERT_EQ(fit.code, 0) << fit.output;
  EXPECT_NE(slurp(cal).find("op: all_reduce"), std::string::npos);
  // The log's 1 GiB row: 631353 us out of place.
  const Result p = run("predict collective --hardware dgx-h100 --op all_reduce --gpus 4 --bytes 1073741824 --calibration " +
                       cal.string());
  ASSERT_EQ(p.code, 0) << p.output;
  const auto j = nlohmann::json::parse(p.output);
  EXPECT_EQ(j["algorithm"], "ring");
  EXPECT_EQ(j["protocol"], "Simple");
  EXPECT_NEAR(j["time_s"].get<double>(), 0.631353, 0.631353 * 0.01);
  // No fit for 8 GPUs in that file: exit 2 naming what it has.
  const Result missing = run("predict collective --hardware dgx-h100 --op all_reduce --gpus 8 --bytes 1GiB --calibration " +
                             cal.string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.output.find("all_reduce x4"), std::string::npos) << missing.output;
}

// Logs of several node counts: nccl-tests' rank lines name the hosts, each fit is kept per
// (op, ranks, nodes) and answers only for its own node count.
TEST(FitCli, NcclTestsLogsKeepTheirNodeCounts) {
  const fs::path cal = scratch("nodes") / "hopper.yaml";
  const Result fit = run("fit --nccl-tests " + source("tests/data/nccl-tests/h200x16-all_gather_perf.log") + " " +
                         source("tests/data/nccl-tests/k80x4-all_reduce_perf-old.log") + " --hardware dgx-h100 --out " +
                         cal.string());
  ASSERT_EQ(fit.code, 0) << fit.output;
  EXPECT_NE(fit.output.find("all_gather, 16 ranks on 2 nodes"), std::string::npos) << fit.output;
  EXPECT_NE(fit.output.find("all_reduce, 4 ranks on 1 node,"), std::string::npos) << fit.output;
  EXPECT_NE(fit.output.find("held out (every 4th size"), std::string::npos) << fit.output;
  // The two-node log also gets its network fitted in NCCL's structure; the one-node log does not.
  EXPECT_EQ(fit.output.find("network in NCCL's structure (8 NICs per node): NIC "), fit.output.rfind("network in NCCL's structure"))
      << fit.output;
  EXPECT_NE(fit.output.find("network in NCCL's structure (8 NICs per node): NIC "), std::string::npos) << fit.output;
  const std::string yaml = slurp(cal);
  EXPECT_NE(yaml.find("    nodes: 2\n"), std::string::npos) << yaml;
  EXPECT_EQ(yaml.find("    nodes: 1\n"), std::string::npos) << yaml;  // one node is the default, not written
  EXPECT_NE(yaml.find("    network: {nics_per_node: 8, nic_Bps: "), std::string::npos) << yaml;
  // dgx-h100 is one box: the two-node fit does not answer for it, and the message says what the file has.
  const Result one_box = run("predict collective --hardware dgx-h100 --op all_gather --gpus 16 --bytes 1GiB --calibration " +
                             cal.string());
  EXPECT_EQ(one_box.code, 2);
  EXPECT_NE(one_box.output.find("all_gather x16 on 2 nodes"), std::string::npos) << one_box.output;
  const Result uneven = run("fit --nccl-tests " + source("tests/data/nccl-tests/h200x16-all_gather_perf.log") +
                            " --hardware dgx-h100 --nodes 3 --out " + (scratch("nodes") / "x.yaml").string());
  EXPECT_EQ(uneven.code, 2);
  EXPECT_NE(uneven.output.find("do not spread evenly over 3 nodes"), std::string::npos) << uneven.output;
}

// Every op answers with NCCL's choice and nccl-tests' bandwidths (busbw = algbw · factor).
TEST(FitCli, PredictCollectiveAnswersEveryOp) {
  const std::pair<const char*, double> ops[] = {{"all_reduce", 1.75},     {"all_gather", 0.875}, {"reduce_scatter", 0.875},
                                                {"all_to_all", 0.875},    {"broadcast", 1.0},    {"reduce", 1.0},
                                                {"send_recv", 1.0}};
  for (const auto& [op, factor] : ops) {
    const Result r = run(std::string("predict collective --hardware dgx-h100 --gpus 8 --bytes 1GiB --op ") + op);
    ASSERT_EQ(r.code, 0) << op << r.output;
    const auto j = nlohmann::json::parse(r.output);
    EXPECT_EQ(j["op"], op);
    EXPECT_EQ(j["protocol"], "Simple") << op;  // 1 GiB: bandwidth-bound
    // DGX H100 reduces in its NVSwitch: NVLS all-reduce (2 × 0.85 of the NVLink plan) beats the
    // ring; NVLS all-gather / reduce-scatter (× 7/8 twice) does not (models/nccl_scaleout.h).
    const std::string o = op;
    const char* expected = o == "all_to_all" || o == "send_recv" ? "p2p" : o == "all_reduce" ? "nvls" : "ring";
    EXPECT_EQ(j["algorithm"], expected) << op;
    EXPECT_GT(j["channels"].get<int>(), 0);
    EXPECT_NEAR(j["algbw"].get<double>(), 1073741824.0 / j["time_s"].get<double>(), 1.0);
    EXPECT_NEAR(j["busbw"].get<double>(), j["algbw"].get<double>() * factor, 1.0) << op;
  }
  const Result small = run("predict collective --hardware dgx-h100 --gpus 8 --bytes 1KiB --op all_reduce");
  EXPECT_EQ(nlohmann::json::parse(small.output)["protocol"], "LL");
  const Result pinned = run("predict collective --hardware dgx-h100 --gpus 8 --bytes 1KiB --op all_reduce --protocol Simple");
  EXPECT_EQ(nlohmann::json::parse(pinned.output)["protocol"], "Simple");
  EXPECT_EQ(run("predict collective --hardware dgx-h100 --gpus 8 --bytes 1KiB --op all_gather --algo tree").code, 2);
  // PAT: all-gather / reduce-scatter with one GPU per node (models/nccl_scaleout.h); pinned, it
  // answers as pat, and is refused where NCCL would not run it.
  const Result pat = run("predict collective --hardware dgx-h100 --nodes 4 --gpus 4 --bytes 1MiB --op all_gather --algo pat");
  ASSERT_EQ(pat.code, 0) << pat.output;
  EXPECT_EQ(nlohmann::json::parse(pat.output)["algorithm"], "pat");
  EXPECT_EQ(run("predict collective --hardware dgx-h100 --nodes 2 --gpus 16 --bytes 1MiB --op all_gather --algo pat").code, 2);
  EXPECT_EQ(run("predict collective --hardware dgx-h100 --nodes 4 --gpus 4 --bytes 1MiB --op all_reduce --algo pat").code, 2);
  EXPECT_EQ(run("predict collective --hardware dgx-h100 --gpus 8 --bytes 1KiB --op all_reduce --protocol fast").code, 2);
  EXPECT_EQ(run("predict collective --hardware dgx-h100 --gpus 8 --bytes 1KiB --op alltoall").code, 2);
}

TEST(FitCli, MalformedLogRowExitsTwoWithFileAndLine) {
  const fs::path log = scratch("bad") / "all_reduce_perf.log";
  std::ofstream(log) << "#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"
                     << "   1024  256 float sum -1 28.5 0.04 0.07 0 28.2 0.04 0.07 0\n"
                     << "   2048  512 float sum -1 oops 0.04 0.07 0 28.2 0.04 0.07 0\n";
  const Result r = run("fit --nccl-tests " + log.string() + " --hardware dgx-h100 --gpus 8 --out " +
                       (log.parent_path() / "c.yaml").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find(log.string() + ":3: time 'oops'"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(log.parent_path() / "c.yaml"));
}

TEST(FitCli, ValidateWritesTableCsvJsonAndReport) {
  const fs::path dir = scratch("validate");
  fs::copy_file(source("tests/fuzz/corpus/measurement_csv/every-family.csv"), dir / "measurements.csv",
                fs::copy_options::overwrite_existing);
  const Result fit = run("fit " + dir.string() + " --out " + (dir / "cal.yaml").string());
  ASSERT_EQ(fit.code, 0) << fit.output;
  const Result v = run("validate " + dir.string());
  ASSERT_EQ(v.code, 0) << v.output;
  EXPECT_NE(v.output.find("gemm"), std::string::npos);
  const auto j = nlohmann::json::parse(slurp(dir / "validation.json"));
  EXPECT_EQ(j["families"].size(), 11u);  // every family
  const std::string csv = slurp(dir / "validation.csv");
  EXPECT_EQ(csv.rfind("family,case,split,measured,predicted,rel_error,unit\n", 0), 0u);
  // validate writes report.html itself (the page `parallax report DIR` writes).
  const std::string html = slurp(dir / "report.html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("parallax validate"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  ASSERT_EQ(run("report " + dir.string()).code, 0);
  EXPECT_EQ(slurp(dir / "report.html"), html);
  // A bad measurement row: exit 2, file:line.
  std::ofstream(dir / "measurements.csv", std::ios::app) << "gemm,x,dtype=bf16;m=1,1e-3,s,1,0,NVIDIA H200,132,,,,,,\n";
  const Result bad = run("validate " + dir.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.output.find("measurements.csv:15: gemm row lacks config key 'n'"), std::string::npos) << bad.output;
}

// colocate and serverless rows written by the sweep's trials (hw/trial_config.h keys) are
// predicted by replaying the trial on SimPlatform; every one is evaluated (nothing is fitted on
// them); a row without the trial's keys is reported as having no model; a trial config that
// cannot run exits 2 at its line.
TEST(FitCli, ValidateReplaysColocateAndServerlessTrialsOnSimPlatform) {
  const fs::path dir = scratch("validate-realtime");
  const std::string prov = ",1,0,NVIDIA H200,132,580.65,13.0,,,2026-11-30T00:00:00Z,x\n";
  const std::string colo =
      "policy=static_split;ls_model=resnet50;ls_batch=8;be_model=resnet152;be_batch=32;ls_load=0.5;ls_slo_x_solo=5;"
      "duration_s=0.5;seed=1;static_ls_sms=64;sms=132;green_min_sms=8;green_multiple_sms=8;flops_per_s=66900000000000;"
      "hbm_Bps=4800000000000;launch_s=5e-06;metric=";
  const std::string srv =
      "policy=torpor;models=resnet50+resnet152+bert_qa;rate_per_s=20;duration_s=2;seed=1;pool_bytes=1610612736;"
      "gpu_kind=H200;flops_per_s=66900000000000;launch_s=5e-06;host_link_Bps=55000000000;metric=";
  std::string csv = "family,case,config,value,unit,reps,stdev,gpu_name,sm_count,driver,cuda,sm_clock_mhz,mem_clock_mhz,date,git_commit\n";
  csv += "colocate,c/p50," + colo + "ls_p50_latency_s,0.004,s" + prov;
  csv += "colocate,c/p99," + colo + "ls_p99_latency_s,0.012,s" + prov;
  csv += "colocate,c/slo," + colo + "ls_slo_attainment,0.9,fraction" + prov;
  csv += "colocate,c/be," + colo + "be_throughput,20,1/s" + prov;
  csv += "colocate,c/other,policy=mps;metric=ls_p99_latency_s;load=0.7,0.021,s" + prov;
  csv += "serverless,s/p50," + srv + "p50_latency_s,0.01,s" + prov;
  csv += "serverless,s/p99," + srv + "p99_latency_s,0.05,s" + prov;
  csv += "serverless,s/slo," + srv + "slo_attainment,0.95,fraction" + prov;
  csv += "serverless,s/swaps," + srv + "swaps,12,count" + prov;
  std::ofstream(dir / "measurements.csv") << csv;
  const Result v = run("validate " + dir.string() + " --hardware h200x1");
  ASSERT_EQ(v.code, 0) << v.output;
  const auto j = nlohmann::json::parse(slurp(dir / "validation.json"));
  std::map<std::string, std::pair<int, int>> counts;
  for (const auto& f : j["families"]) counts[f["family"]] = {f["rows"].get<int>(), f["evaluated"].get<int>()};
  EXPECT_EQ(counts["colocate"], std::make_pair(5, 4));
  EXPECT_EQ(counts["serverless"], std::make_pair(4, 4));
  // Each evaluated row: its prediction, held out, and rel_error = |predicted - measured| / measured.
  std::istringstream lines(slurp(dir / "validation.csv"));
  std::string line;
  std::map<std::string, double> predicted;
  std::getline(lines, line);
  while (std::getline(lines, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() < 7 || f[1] == "c/other") continue;
    EXPECT_EQ(f[2], "held_out") << line;
    const double meas = std::stod(f[3]), pred = std::stod(f[4]);
    EXPECT_NEAR(std::stod(f[5]), std::abs(pred - meas) / meas, 1e-9) << line;
    predicted[f[1]] = pred;
  }
  ASSERT_EQ(predicted.size(), 8u);
  EXPECT_GE(predicted["c/p99"], predicted["c/p50"]);
  EXPECT_GT(predicted["c/be"], 0);
  EXPECT_GE(predicted["s/p99"], predicted["s/p50"]);
  EXPECT_GT(predicted["s/swaps"], 3);  // 1.68 GB of models in a 1.5 GiB pool
  // A trial that cannot run: exit 2 at its line.
  std::ofstream(dir / "measurements.csv", std::ios::app)
      << "colocate,c/bad," << colo.substr(0, colo.find("ls_load=")) << "ls_load=0" << colo.substr(colo.find(";ls_slo"))
      << "ls_p50_latency_s,0.004,s" << prov;
  const Result bad = run("validate " + dir.string() + " --hardware h200x1");
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("measurements.csv:11:"), std::string::npos) << bad.output;
}

// The other systems' hardware paths (issue 16): overlap rows (the policy's task graph on one GPU)
// and multiplex rows are predicted by running the same graph / trial on SimPlatform, every one
// held out; sm_scaling rows are fitted (bandwidth per SM) and their held-out rows predicted by the
// fit, which `parallax fit` writes into the calibration file.
TEST(FitCli, ValidateReplaysOverlapAndMultiplexAndFitsSmScaling) {
  const fs::path dir = scratch("validate-systems");
  const std::string prov = ",1,0,NVIDIA H200,132,580.65,13.0,,,2026-11-30T00:00:00Z,x\n";
  const std::string tail =
      ";op=gemm_rs;tp=8;comm_sms=16;sms=132;green_min_sms=8;green_multiple_sms=8;flops_per_s=66900000000000;"
      "hbm_Bps=4800000000000;launch_s=5e-06";
  const std::string mux =
      "policy=mps;models=resnet50+bert_qa;rates_per_s=859+21;max_batch=8;timeout_s=0.002;slo_x_solo=4;duration_s=0.5;"
      "seed=1;sms=132;green_min_sms=8;green_multiple_sms=8;flops_per_s=66900000000000;hbm_Bps=4800000000000;"
      "launch_s=5e-06;metric=";
  std::string csv = "family,case,config,value,unit,reps,stdev,gpu_name,sm_count,driver,cuda,sm_clock_mhz,mem_clock_mhz,date,git_commit\n";
  csv += "interdecom,o/d4,dtype=bf16;m=16384;n=8192;k=2048;d=4;copy_sms=16;copy_bytes=234881024;strategy=interdecom" + tail +
         ",0.004,s" + prov;
  csv += "intrafusion,o/seq,dtype=bf16;m=16384;n=8192;k=2048;stolen_sms=0;copy_bytes=234881024;strategy=sequential" + tail +
         ",0.004,s" + prov;
  csv += "intrafusion,o/if,dtype=bf16;m=16384;n=8192;k=2048;stolen_sms=16;copy_bytes=234881024;strategy=intrafusion" + tail +
         ",0.004,s" + prov;
  csv += "multiplex,m/good," + mux + "goodput_rps,700,1/s" + prov;
  csv += "multiplex,m/slo," + mux + "slo_attainment,0.9,fraction" + prov;
  csv += "multiplex,m/p99," + mux + "p99_latency_s,0.004,s" + prov;
  // Streaming rows from min(4 TB/s, s x 50 GB/s), FMA rows from s x 0.5 TFLOP/s.
  for (int sms : {8, 16, 32, 64, 132}) {
    const double bw = std::min(4e12, sms * 50e9);
    char line[256];
    std::snprintf(line, sizeof line, "sm_scaling,sm/stream/%03d,kernel=stream;sms=%d;flops=0;dram_bytes=1000000000,%.9g,s", sms,
                  sms, 1e9 / bw);
    csv += line + prov;
    std::snprintf(line, sizeof line, "sm_scaling,sm/fma/%03d,kernel=fma;sms=%d;flops=1000000000000;dram_bytes=0,%.9g,s", sms,
                  sms, 1e12 / (sms * 0.5e12));
    csv += line + prov;
  }
  std::ofstream(dir / "measurements.csv") << csv;
  const Result v = run("validate " + dir.string() + " --hardware h200x1");
  ASSERT_EQ(v.code, 0) << v.output;
  const auto j = nlohmann::json::parse(slurp(dir / "validation.json"));
  std::map<std::string, std::pair<int, int>> counts;
  for (const auto& f : j["families"]) counts[f["family"]] = {f["rows"].get<int>(), f["evaluated"].get<int>()};
  EXPECT_EQ(counts["interdecom"], std::make_pair(1, 1));
  EXPECT_EQ(counts["intrafusion"], std::make_pair(2, 2));
  EXPECT_EQ(counts["multiplex"], std::make_pair(3, 3));
  EXPECT_EQ(counts["sm_scaling"], std::make_pair(10, 2));  // every 4th held out
  std::istringstream lines(slurp(dir / "validation.csv"));
  std::string line;
  std::getline(lines, line);
  int predicted = 0;
  while (std::getline(lines, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_GE(f.size(), 5u) << line;
    if (f[0] != "sm_scaling") {
      EXPECT_EQ(f[2], "held_out") << line;
    }
    if (f[2] != "held_out") continue;
    ASSERT_GE(f.size(), 6u) << line;  // a prediction
    ++predicted;
    EXPECT_GT(std::stod(f[4]), 0) << line;
    if (f[0] == "sm_scaling") {
      EXPECT_LT(std::stod(f[5]), 1e-6) << line;  // the fit reproduces noiseless rows
    }
  }
  EXPECT_EQ(predicted, 8);
  const Result fit = run("fit " + dir.string() + " --hardware h200x1 --out " + (dir / "cal.yaml").string());
  ASSERT_EQ(fit.code, 0) << fit.output;
  const std::string cal = slurp(dir / "cal.yaml");
  EXPECT_NE(cal.find("sm_scaling:\n  bw_per_sm_Bps: 50000000000\n"), std::string::npos) << cal;
  EXPECT_NE(cal.find("  flops_per_sm: 500000000000\n"), std::string::npos) << cal;
}

}  // namespace
