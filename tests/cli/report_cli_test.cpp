// File: tests/cli/report_cli_test.cpp
// report.html from `parallax run --out` for each workload kind (the quickstart, the compass-288
// overlap grid, overlap end to end, torpor-160 serverless, colocate, multiplex), from `parallax
// sweep --out` and from `parallax report DIR` on a sweep and on a validated measurement folder: the
// page has its sections, every inline <svg> is well-formed XML with positive width and height,
// nothing is fetched from outside (no URL, src, href, script, link or @import). That a second run
// writes the same report.html is tests/cli/determinism_test.py's check (one scenario per workload
// kind, report.html among the files compared); running each shipped scenario here twice doubled this
// test's time, the longest of CI's sanitizer phase.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/report/xml_check.h"

namespace fs = std::filesystem;

namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : fallback;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path temp_dir(const std::string& tag) {
  return fs::temp_directory_path() / ("parallax_report_cli_" + std::to_string(::getpid()) + "_" + tag);
}

int parallax(const std::string& args) {
  const std::string cmd = env_or("PARALLAX_BIN", "parallax") + std::string(" ") + args + " > /dev/null";
  return std::system(cmd.c_str());
}

// Runs `parallax run SCENARIO --out DIR` (an empty scenario: the embedded quickstart); report.html.
std::string run_report(const std::string& scenario, const std::string& tag) {
  const fs::path out = temp_dir(tag);
  fs::remove_all(out);
  const std::string source = env_or("PARALLAX_SOURCE_DIR", ".");
  const std::string cmd = env_or("PARALLAX_BIN", "parallax") + std::string(" run ") +
                          (scenario.empty() ? "" : source + "/" + scenario) + " --out " + out.string() + " > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string html = read_file(out / "report.html");
  fs::remove_all(out);
  return html;
}

void check_page(const std::string& html, size_t min_plots, bool with_scenario = true) {
  ASSERT_FALSE(html.empty());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  for (const char* section : {"id=\"summary\"", "id=\"plots\"", "id=\"provenance\"", "git commit"})
    EXPECT_NE(html.find(section), std::string::npos) << section;
  if (with_scenario) {
    EXPECT_NE(html.find("seed"), std::string::npos);
    EXPECT_NE(html.find("id=\"scenario\""), std::string::npos);
    EXPECT_NE(html.find("<details>"), std::string::npos);
  }
  for (const char* external : {"http:", "https:", "src=", "href=", "<script", "<link", "@import", "url("})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  EXPECT_EQ(html.find("wall_s"), std::string::npos);
  EXPECT_EQ(html.find("No plots for this kind"), std::string::npos);
  const std::regex size(R"re(^<svg width="([0-9.]+)" height="([0-9.]+)")re");
  size_t plots = 0;
  for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) {
    const size_t end = html.find("</svg>", at);
    ASSERT_NE(end, std::string::npos);
    const std::string svg = html.substr(at, end + 6 - at);
    EXPECT_EQ(parallax::xml_shape_error(svg), "") << "plot " << plots;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(svg, m, size)) << svg.substr(0, 80);
    EXPECT_GT(std::stod(m[1]), 0);
    EXPECT_GT(std::stod(m[2]), 0);
    ++plots;
  }
  EXPECT_GE(plots, min_plots);
}

TEST(ReportCli, Quickstart) {
  const std::string html = run_report("", "quickstart");
  check_page(html, 2);  // link utilisation, collective bandwidth
  EXPECT_NE(html.find("&lt;embedded quickstart&gt;"), std::string::npos);
}

TEST(ReportCli, OverlapGrid) {
  const std::string html = run_report("scenarios/overlap/compass-288.yaml", "overlap");
  check_page(html, 3);  // strategy map, time vs d, double vs single ring
  EXPECT_NE(html.find("d* = "), std::string::npos);
}

TEST(ReportCli, Serverless) {
  const std::string html = run_report("scenarios/serverless/torpor-160.yaml", "serverless");
  check_page(html, 7);  // latency CDF, SLO attainment, swaps, loads over PCIe and NVLink, memory, GPUs
  for (const char* title : {"Swaps over time: PCIe", "Swaps over time: NVLink", "GPU memory occupancy over time"})
    EXPECT_NE(html.find(std::string("<b>") + title + ".</b>"), std::string::npos) << title;
}

TEST(ReportCli, OverlapEndToEnd) {
  const std::string html = run_report("scenarios/overlap/end-to-end.yaml", "e2e");
  check_page(html, 3);  // speedup, step times, strategies chosen
  EXPECT_NE(html.find("Speedup per model and TP degree"), std::string::npos);
}

TEST(ReportCli, Colocate) {
  const std::string html = run_report("scenarios/colocate/sgdrc-h200.yaml", "colocate");
  // LS latency, its CDF, LS SLO attainment, BE throughput, utilisation, shares over time per policy (7)
  check_page(html, 12);
  EXPECT_NE(html.find("sgdrc: LS p99"), std::string::npos);
  EXPECT_NE(html.find("<b>LS latency CDF per policy.</b>"), std::string::npos);
  EXPECT_NE(html.find("<b>SM and bandwidth shares over time: sgdrc.</b>"), std::string::npos);
  EXPECT_EQ(html.find("Not plotted yet"), std::string::npos);
}

TEST(ReportCli, Multiplex) {
  // The page's plots, not the capacity search (9 bisection probes per policy): searched off.
  const std::string html =
      run_report("scenarios/multiplex/bursty-h200.yaml --set workload.max_load_search.enabled=false", "multiplex");
  // SLO attainment, p99, goodput, batch fill, and per policy (4) SM and HBM utilisation over time
  check_page(html, 12);
  EXPECT_NE(html.find("SM utilisation over time: elastic"), std::string::npos);
  EXPECT_NE(html.find("HBM bandwidth utilisation over time: mig"), std::string::npos);
  EXPECT_NE(html.find("mig: MIG layout"), std::string::npos);
}

// A 2 x 2 sweep of the ring benchmark with two seeds: the page plots makespan_s over the GPU
// count, one line per message size, and lists the points; `parallax report` rewrites it unchanged.
TEST(ReportCli, Sweep) {
  const fs::path dir = temp_dir("sweep");
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string source = env_or("PARALLAX_SOURCE_DIR", ".");
  {
    std::ofstream f(dir / "ring.yaml");
    f << "base: " << fs::absolute(fs::path(source) / "scenarios/bench/ring.yaml").string() << "\n"
      << "set: {output.activities_csv: false, output.trace: false}\n"
      << "axes:\n  - cartesian: {hardware.gpus: [4, 8]}\n"
      << "  - cartesian: {workload.collectives.0.bytes: [1MiB, 64MiB]}\nseeds: [1, 2]\n";
  }
  ASSERT_EQ(parallax("sweep " + (dir / "ring.yaml").string() + " --out " + (dir / "out").string() + " --quiet -j 1"), 0);
  const std::string html = read_file(dir / "out" / "report.html");
  check_page(html, 1);
  EXPECT_NE(html.find("makespan_s over the swept axes"), std::string::npos);
  EXPECT_NE(html.find("id=\"tables\""), std::string::npos);
  EXPECT_NE(html.find(">bytes=64MiB<"), std::string::npos);  // a line per message size
  EXPECT_NE(html.find("8 of 8 points"), std::string::npos);
  ASSERT_EQ(parallax("report " + (dir / "out").string()), 0);
  EXPECT_EQ(read_file(dir / "out" / "report.html"), html);
  // Chosen metrics and log axes; an unknown metric is bad input.
  ASSERT_EQ(parallax("report " + (dir / "out").string() + " --metric makespan_s --log-x --log-y"), 0);
  const std::string chosen = read_file(dir / "out" / "report.html");
  check_page(chosen, 1);
  EXPECT_NE(chosen.find("x log, y log (as asked)"), std::string::npos);
  EXPECT_NE(chosen.find("chosen with --metric"), std::string::npos);
  EXPECT_EQ(WEXITSTATUS(parallax("report " + (dir / "out").string() + " --metric no_such_column 2> /dev/null")), 2);
  fs::remove_all(dir);
}

// validation.json and validation.csv in the format tools/fit_command.cpp writes (a hand-made
// fixture with two families, one of them without a fitted model): `parallax report DIR`.
TEST(ReportCli, Validation) {
  const fs::path dir = temp_dir("validation");
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream j(dir / "validation.json");
    j << R"({"source": "fixture", "calibration": "fitted on the training rows", "split": "every 5th case held out",
"gpu": "NVIDIA H200", "families": [
{"family": "gemm", "rows": 4, "evaluated": 2, "median_rel_error": 0.05, "p95_rel_error": 0.12,
 "max_rel_error": 0.12, "worst_case": "gemm-4096"},
{"family": "copy", "rows": 1, "evaluated": 0}]})";
    std::ofstream c(dir / "validation.csv");
    c << "family,case,split,measured,predicted,rel_error,unit\n"
         "gemm,gemm-1024,train,0.001,0.00102,0.02,s\n"
         "gemm,gemm-2048,train,0.004,0.0039,0.025,s\n"
         "gemm,gemm-3072,held_out,0.009,0.00945,0.05,s\n"
         "gemm,gemm-4096,held_out,0.016,0.01792,0.12,s\n"
         "copy,h2d-1GiB,held_out,0.02,,,s\n";
  }
  ASSERT_EQ(parallax("report " + dir.string()), 0);
  const std::string html = read_file(dir / "report.html");
  check_page(html, 2, false);  // predicted vs measured, error by family
  EXPECT_NE(html.find("parallax validate"), std::string::npos);
  EXPECT_NE(html.find("calibration used"), std::string::npos);
  EXPECT_NE(html.find("none evaluated"), std::string::npos);
  EXPECT_NE(html.find("gemm gemm-4096: measured 0.016, predicted 0.01792 s (+12.0%)"), std::string::npos);
  // Not a sweep or validation folder: bad input.
  fs::remove(dir / "validation.json");
  EXPECT_EQ(WEXITSTATUS(parallax("report " + dir.string() + " 2> /dev/null")), 2);
  fs::remove_all(dir);
}

}  // namespace
