// File: sim/report/report_plots_test.cpp
// What makes the plots readable (issue 20): value labels on bars, shared axes across the policies'
// plots, capacity lines, bars sorted by load; the sweep page's chosen metrics and log axes; and
// `parallax compare`'s metric table and page (run_comparison.h).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "sim/report/csv_table.h"
#include "sim/report/report_pages.h"
#include "sim/report/run_comparison.h"
#include "sim/report/svg_bar_chart.h"
#include "sim/report/svg_xy_plot.h"
#include "sim/report/xml_check.h"

namespace parallax {
namespace {

bool has_text(const std::string& svg, const std::string& text) { return svg.find(">" + text + "</text>") != std::string::npos; }

TEST(SvgBarChart, BarsCarryTheirValues) {
  BarChart c{.title = "t", .y_label = "y"};
  c.categories = {"a", "b", "c"};
  c.groups.push_back({.name = "g", .values = {12.5, 1234, -3.3}});
  const std::string svg = render_bar_chart(c);
  EXPECT_EQ(xml_shape_error(svg), "");
  EXPECT_TRUE(has_text(svg, "12.5"));
  EXPECT_TRUE(has_text(svg, "1.23k"));
  EXPECT_TRUE(has_text(svg, "-3.3"));
  c.value_labels = false;
  const std::string bare = render_bar_chart(c);
  EXPECT_FALSE(has_text(bare, "12.5"));
  EXPECT_FALSE(has_text(bare, "1.23k"));
  EXPECT_FALSE(has_text(bare, "-3.3"));
}

TEST(SvgBarChart, NarrowBarsTurnTheirLabelsUpright) {
  BarChart c{.title = "t", .y_label = "y"};
  BarGroup g{.name = "g", .values = {}};
  for (int i = 0; i < 40; ++i) {
    c.categories.push_back(fmt::format("c{}", i));
    g.values.push_back(123456.0 + i);
  }
  c.groups.push_back(g);
  const std::string svg = render_bar_chart(c);
  EXPECT_TRUE(has_text(svg, "123k"));
  EXPECT_NE(svg.find("rotate(-90"), std::string::npos);
}

TEST(SvgXyPlot, IncludedValuesAndLevelsWidenTheAxes) {
  XyPlot p{.title = "t", .x_label = "x", .y_label = "y", .y_from_zero = true};
  p.series.push_back({.name = "s", .style = SeriesStyle::step, .x = {0, 1}, .y = {10, 20}});
  EXPECT_FALSE(has_text(render_xy_plot(p), "150"));
  p.y_include = {0, 150};
  p.x_include = {0, 4};
  p.levels.push_back({100, "whole GPU"});
  const std::string svg = render_xy_plot(p);
  EXPECT_TRUE(has_text(svg, "150"));
  EXPECT_TRUE(has_text(svg, "4"));
  EXPECT_TRUE(has_text(svg, "whole GPU"));
  EXPECT_EQ(xml_shape_error(svg), "");
}

// The share plots of every policy have one y range (the largest share of any policy, here a
// made-up 150 % to see it move off the 100 % line every plot has) and one x range (the latest bin
// of any policy).
TEST(ColocatePage, SharePlotsShareTheirAxes) {
  const nlohmann::ordered_json summary = {
      {"scenario", "s"}, {"ls_slo_s", 0.001}, {"slo_target", 0.99},
      {"policies", {{"calm", {{"ls_slo_attainment", 1.0}}}, {"mps", {{"ls_slo_attainment", 0.9}}}}}};
  const CsvTable timeline = parse_csv(
      "policy,start_s,end_s,ls_sm_share,be_sm_share,ls_bandwidth_share,be_bandwidth_share\n"
      "calm,0,0.5,0.1,0.2,0.1,0.1\ncalm,0.5,1,0.3,0.2,0.1,0.1\n"
      "mps,0,0.5,1.5,0.5,0.2,0.2\nmps,0.5,1,1.0,0.5,0.2,0.2\nmps,1,1.5,0.4,0.5,0.2,0.2\nmps,1.5,2,0.2,0.5,0.2,0.2\n");
  const HtmlReport page = colocate_report_page(summary, timeline, CsvTable{});
  std::vector<std::string> shares;
  for (const ReportFigure& f : page.figures)
    if (f.title.starts_with("SM and bandwidth shares over time")) shares.push_back(f.svg);
  ASSERT_EQ(shares.size(), 2u);
  for (const std::string& svg : shares) {
    EXPECT_TRUE(has_text(svg, "150")) << "y reaches mps's 150 %\n" << svg;
    EXPECT_TRUE(has_text(svg, "2k")) << "x reaches mps's 2000 ms";
    EXPECT_TRUE(has_text(svg, "whole GPU"));
  }
  for (const ReportFigure& f : page.figures) {
    if (f.title == "LS SLO attainment per policy") {
      EXPECT_TRUE(has_text(f.svg, "target 99%"));
    }
  }
}

TEST(TransfersPage, LinksAreSortedBusiestFirstAgainstTheirCapacity) {
  const nlohmann::ordered_json summary = {
      {"scenario", "q"},
      {"links", {{{"name", "quiet"}, {"bytes", 1}, {"mean_utilisation", 0.2}},
                 {{"name", "busy"}, {"bytes", 1}, {"mean_utilisation", 0.9}},
                 {{"name", "idle"}, {"bytes", 0}, {"mean_utilisation", 0.0}},
                 {{"name", "middle"}, {"bytes", 1}, {"mean_utilisation", 0.5}}}}};
  const HtmlReport page = transfers_report_page(summary);
  ASSERT_FALSE(page.figures.empty());
  const std::string& svg = page.figures.front().svg;
  const size_t busy = svg.find(">busy<"), middle = svg.find(">middle<"), quiet = svg.find(">quiet<");
  ASSERT_NE(quiet, std::string::npos);
  EXPECT_LT(busy, middle);
  EXPECT_LT(middle, quiet);
  EXPECT_EQ(svg.find(">idle<"), std::string::npos);
  EXPECT_TRUE(has_text(svg, "capacity"));
  EXPECT_TRUE(has_text(svg, "90"));  // the busiest bar's label
}

TEST(ServerlessPage, CapacityLinesWhereTheLimitIsKnown) {
  const nlohmann::ordered_json summary = {{"scenario", "s"},
                                          {"policies", {{"torpor", {{"gpus_used", 3}}}, {"native", {{"gpus_used", 8}}}}}};
  const CsvTable latency = parse_csv("policy,function,p98_s,slo_s,finished\ntorpor,f0,0.1,1,1\nnative,f0,0.1,1,1\n");
  const CsvTable timeline = parse_csv(
      "policy,start_s,end_s,swap_bytes_pcie,swap_bytes_nvlink,gpu_memory_used_bytes\n"
      "torpor,0,1,4000000000,1000000000,3000000000\nnative,0,1,0,0,1000000000\n");
  const HtmlReport page = serverless_report_page(summary, latency, timeline, {8, 8 * 25 * 1073741824.0});
  std::string gpus, memory, pcie, nvlink;
  for (const ReportFigure& f : page.figures) {
    if (f.title == "GPUs used per policy") gpus = f.svg;
    if (f.title == "GPU memory occupancy over time") memory = f.svg;
    if (f.title == "Swaps over time: PCIe") pcie = f.svg;
    if (f.title == "Swaps over time: NVLink") nvlink = f.svg;
  }
  EXPECT_TRUE(has_text(gpus, "8 GPUs in the cluster"));
  EXPECT_TRUE(has_text(memory, "swap pools 200 GiB"));
  EXPECT_TRUE(has_text(nvlink, "4")) << "the NVLink plot reaches PCIe's 4 GB/s";
  EXPECT_TRUE(has_text(pcie, "4"));
}

CsvTable sweep_results() {
  return parse_csv(
      "point,hash,seed,workload.bytes,makespan_s,busbw_GBps\n"
      "0,a,1,1,0.001,10\n1,b,1,10,0.01,100\n2,c,1,100,0.1,300\n");
}

TEST(SweepPage, ChosenMetricsAndLogAxes) {
  const nlohmann::ordered_json sweep = {{"base", "b.yaml"}, {"axis_keys", {"workload.bytes"}}};
  const HtmlReport auto_page = sweep_report_page(sweep, sweep_results());
  ASSERT_EQ(auto_page.figures.size(), 1u);
  EXPECT_EQ(auto_page.figures[0].title, "makespan_s over the swept axes");
  EXPECT_NE(auto_page.figures[0].caption.find("x log, y log."), std::string::npos) << auto_page.figures[0].caption;
  const HtmlReport page = sweep_report_page(sweep, sweep_results(), {.metrics = {"busbw_GBps", "makespan_s"}, .log_x = false, .log_y = true});
  ASSERT_EQ(page.figures.size(), 2u);
  EXPECT_EQ(page.figures[0].title, "busbw_GBps over the swept axes");
  EXPECT_NE(page.figures[0].caption.find("y log (as asked)"), std::string::npos) << page.figures[0].caption;
  EXPECT_NE(page.figures[0].caption.find("chosen with --metric"), std::string::npos);
  EXPECT_EQ(page.tables.front().header, (std::vector<std::string>{"point", "workload.bytes", "busbw_GBps", "makespan_s"}));
}

RunFolder run_folder_fixture(const std::string& label, double p99, double slo, double wall) {
  RunFolder f;
  f.label = label;
  f.summary = {{"scenario", label == "a" ? "x" : "y"},
               {"seed", 1},
               {"wall_s", wall},
               {"makespan_s", 2.0},
               {"policies", {{"sgdrc", {{"p99_s", p99}, {"ok", true}}}, {"mps", {{"p99_s", 2 * p99}, {"ok", false}}}}}};
  f.timing = nlohmann::ordered_json{{"wall_s", wall}};
  f.tables["latency.csv"] = parse_csv(fmt::format("policy,function,p98_s\nsgdrc,f0,{}\nsgdrc,f1,0.5\n", slo));
  f.tables["timeline.csv"] = parse_csv(fmt::format("policy,start_s,share\nsgdrc,0,0.5\nsgdrc,1,{}\n", slo));
  return f;
}

TEST(RunComparison, MetricByMetricWithTimingApart) {
  const RunComparison c = compare_runs({run_folder_fixture("a", 0.001, 0.25, 1.5), run_folder_fixture("b", 0.002, 0.25, 9.0)});
  std::map<std::string, const ComparedMetric*> by_key;
  for (const ComparedMetric& m : c.metrics) by_key[m.key] = &m;
  EXPECT_FALSE(by_key.contains("wall_s"));  // wall clock: timing.json only
  ASSERT_EQ(c.timing.size(), 1u);
  EXPECT_EQ(c.timing[0].key, "wall_s");
  EXPECT_EQ(*c.timing[0].absolute(1), 7.5);

  const ComparedMetric& p99 = *by_key.at("policies.sgdrc.p99_s");
  EXPECT_TRUE(p99.differs());
  EXPECT_DOUBLE_EQ(*p99.absolute(1), 0.001);
  EXPECT_DOUBLE_EQ(*p99.relative(1), 1.0);
  EXPECT_FALSE(by_key.at("makespan_s")->differs());
  EXPECT_EQ(*by_key.at("policies.mps.ok")->values[0], 0.0);  // booleans as 0/1
  // Unique text keys: row by row; repeated keys (a time series): the mean per key and the row count.
  EXPECT_FALSE(by_key.at("latency.csv[sgdrc/f0].p98_s")->differs());
  EXPECT_EQ(*by_key.at("timeline.csv[sgdrc].mean(share)")->values[0], 0.375);
  EXPECT_EQ(*by_key.at("timeline.csv[sgdrc].rows")->values[1], 2.0);
  ASSERT_EQ(c.texts.size(), 1u);
  EXPECT_EQ(c.texts[0].key, "scenario");
  EXPECT_THROW(compare_runs({run_folder_fixture("a", 1, 1, 1)}), std::invalid_argument);

  ComparedMetric zero{"z", "summary.json", {0.0, 0.0}};
  EXPECT_EQ(*zero.relative(1), 0.0);
  zero.values[1] = 1.0;
  EXPECT_FALSE(zero.relative(1).has_value());
  ComparedMetric missing{"m", "summary.json", {1.0, std::nullopt}};
  EXPECT_TRUE(missing.differs());

  const std::string csv = comparison_csv(c);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "metric,source,value_0,value_1,abs_1,rel_1");
  EXPECT_NE(csv.find("policies.sgdrc.p99_s,summary.json,0.001,0.002,0.001,1\n"), std::string::npos) << csv;
}

TEST(ComparePage, PolicyMetricsSideBySideOnOneAxis) {
  const RunComparison c = compare_runs({run_folder_fixture("a", 0.001, 0.25, 1), run_folder_fixture("b", 0.002, 0.5, 2)});
  const HtmlReport page = compare_report_page(c);
  ASSERT_FALSE(page.figures.empty());
  EXPECT_EQ(page.figures[0].title, "policies.*.p99_s");
  const std::string& svg = page.figures[0].svg;
  EXPECT_EQ(xml_shape_error(svg), "");
  EXPECT_TRUE(has_text(svg, "a"));  // one legend entry per run
  EXPECT_TRUE(has_text(svg, "b"));
  EXPECT_TRUE(has_text(svg, "sgdrc"));
  EXPECT_TRUE(has_text(svg, "mps"));
  ASSERT_FALSE(page.tables.empty());
  EXPECT_EQ(page.tables[0].title, "Metrics that differ");
  bool timing = false;
  for (const ReportTable& t : page.tables) timing = timing || t.title == "Timing (timing.json)";
  EXPECT_TRUE(timing);
  for (const auto& row : page.tables[0].rows) EXPECT_NE(row[0], "wall_s");
}

}  // namespace
}  // namespace parallax
