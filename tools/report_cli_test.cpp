// File: tools/report_cli_test.cpp
// report.html from `parallax run --out` for each workload kind with plots (the quickstart, the
// compass-288 overlap grid, torpor-160 serverless): the page has its four sections, every inline
// <svg> is well-formed XML with positive width and height, nothing is fetched from outside (no
// URL, src, href, script, link or @import), and a second run writes the same bytes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
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

// Runs `parallax run SCENARIO --out DIR` (an empty scenario: the embedded quickstart); report.html.
std::string run_report(const std::string& scenario, const std::string& tag) {
  const fs::path out = fs::temp_directory_path() / ("parallax_report_cli_" + std::to_string(::getpid()) + "_" + tag);
  fs::remove_all(out);
  const std::string source = env_or("PARALLAX_SOURCE_DIR", ".");
  const std::string cmd = env_or("PARALLAX_BIN", "parallax") + std::string(" run ") +
                          (scenario.empty() ? "" : source + "/" + scenario) + " --out " + out.string() + " > /dev/null";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::string html = read_file(out / "report.html");
  fs::remove_all(out);
  return html;
}

void check_page(const std::string& html, size_t min_plots) {
  ASSERT_FALSE(html.empty());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* section : {"id=\"summary\"", "id=\"plots\"", "id=\"scenario\"", "id=\"provenance\"", "<details>",
                              "git commit", "seed"})
    EXPECT_NE(html.find(section), std::string::npos) << section;
  for (const char* external : {"http:", "https:", "src=", "href=", "<script", "<link", "@import", "url("})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  EXPECT_EQ(html.find("wall_s"), std::string::npos);
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
  EXPECT_EQ(html, run_report("", "quickstart2"));
}

TEST(ReportCli, OverlapGrid) {
  const std::string html = run_report("scenarios/overlap/compass-288.yaml", "overlap");
  check_page(html, 3);  // strategy map, time vs d, double vs single ring
  EXPECT_NE(html.find("d* = "), std::string::npos);
  EXPECT_EQ(html, run_report("scenarios/overlap/compass-288.yaml", "overlap2"));
}

TEST(ReportCli, Serverless) {
  const std::string html = run_report("scenarios/serverless/torpor-160.yaml", "serverless");
  check_page(html, 4);  // latency CDF, SLO attainment, swaps, GPUs
  EXPECT_EQ(html, run_report("scenarios/serverless/torpor-160.yaml", "serverless2"));
}

}  // namespace
