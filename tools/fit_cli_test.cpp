// File: tools/fit_cli_test.cpp
// `parallax fit`, `parallax validate` and `parallax predict collective --calibration` end to end:
// the real nccl-tests logs of tests/data/nccl-tests, bad input (exit 2 with file:line), and the
// files validate writes.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

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
  EXPECT_EQ(j["algo"], "calibrated_ring");
  EXPECT_NEAR(j["time_s"].get<double>(), 0.631353, 0.631353 * 0.01);
  // No fit for 8 GPUs in that file: exit 2 naming what it has.
  const Result missing = run("predict collective --hardware dgx-h100 --op all_reduce --gpus 8 --bytes 1GiB --calibration " +
                             cal.string());
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.output.find("all_reduce x4"), std::string::npos) << missing.output;
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
  EXPECT_EQ(j["families"].size(), 9u);  // one row of every family
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
  EXPECT_NE(bad.output.find("measurements.csv:12: gemm row lacks config key 'n'"), std::string::npos) << bad.output;
}

}  // namespace
