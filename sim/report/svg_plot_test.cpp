// File: sim/report/svg_plot_test.cpp
// The SVG plot writer and report.html: number text, ticks, well-formed and deterministic output,
// escaping, and a page with the expected sections and nothing fetched from outside.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <fmt/format.h>

#include "sim/report/csv_table.h"
#include "sim/report/html_report.h"
#include "sim/report/report_pages.h"
#include "sim/report/svg_axis.h"
#include "sim/report/svg_bar_chart.h"
#include "sim/report/svg_document.h"
#include "sim/report/svg_xy_plot.h"
#include "sim/report/xml_check.h"

namespace parallax {
namespace {

TEST(SvgNumber, TwoDecimalsWithoutTrailingZeros) {
  EXPECT_EQ(svg_number(1.5), "1.5");
  EXPECT_EQ(svg_number(2.0), "2");
  EXPECT_EQ(svg_number(-0.001), "0");
  EXPECT_EQ(svg_number(0.125), "0.12");  // round-half-even of the binary value 0.125
  EXPECT_EQ(svg_number(std::numeric_limits<double>::quiet_NaN()), "0");
}

// svg_number rounds by integer arithmetic on the double's bits; fmt's "{:.2f}" (exact, ties to
// even) is the rule it must match, digit for digit: on exact ties (multiples of 1/8 and 1/1024),
// on decimals that are not exact in binary, on pixel-sized and tiny and huge values, both signs.
TEST(SvgNumber, MatchesFmtFixedTwoDecimals) {
  const auto reference = [](double v) {
    std::string s = fmt::format("{:.2f}", v);
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? std::string("0") : s;
  };
  std::mt19937_64 rng(11);
  std::vector<double> values{0.0, -0.0, 0.005, 0.015, 0.025, 1.005, 2.675, 1e-300, 5e-324, 999999999999999.9, 1e15, 3e17, 1e300};
  for (int k = -4000; k <= 4000; ++k) values.insert(values.end(), {k / 8.0, k / 1024.0, k / 200.0, k * 0.01, k * 1.1});
  std::uniform_real_distribution<double> unit(0, 1);
  for (int k = 0; k < 20000; ++k) values.push_back(std::ldexp(unit(rng), static_cast<int>(rng() % 60) - 20));
  for (const double v : values) {
    EXPECT_EQ(svg_number(v), reference(v)) << fmt::format("{:.17g}", v);
    EXPECT_EQ(svg_number(-v), reference(-v)) << fmt::format("{:.17g}", -v);
  }
}

TEST(SvgAxis, LinearTicksAreOneTwoFiveSteps) {
  // [0.3, 7.9] -> span 7.6, step 2 (7.6 / 6 = 1.27 -> 2): range [0, 8], ticks 0 2 4 6 8.
  const std::vector<double> v{0.3, 7.9};
  const AxisScale s = fit_axis_scale(v, false, false);
  EXPECT_DOUBLE_EQ(s.lo, 0);
  EXPECT_DOUBLE_EQ(s.hi, 8);
  EXPECT_EQ(s.ticks(), (std::vector<double>{0, 2, 4, 6, 8}));
}

TEST(SvgAxis, LogAxisSpansWholeDecades) {
  const std::vector<double> v{0.03, 0, -1, 450};  // non-positive values are skipped
  AxisScale s = fit_axis_scale(v, true, false);
  EXPECT_DOUBLE_EQ(s.lo, 0.01);
  EXPECT_DOUBLE_EQ(s.hi, 1000);
  EXPECT_EQ(s.ticks().size(), 6u);  // 0.01 0.1 1 10 100 1000
  s.pixel_lo = 0;
  s.pixel_hi = 500;
  EXPECT_NEAR(s.to_pixel(1), 200, 1e-9);
}

// Two decades or less: the ends are the 1-2-5 values around the data.
TEST(SvgAxis, NarrowLogAxisEndsAroundTheData) {
  const std::vector<double> v{0.21, 1.7};
  const AxisScale s = fit_axis_scale(v, true, false);
  EXPECT_DOUBLE_EQ(s.lo, 0.2);
  EXPECT_DOUBLE_EQ(s.hi, 2);
  EXPECT_EQ(s.ticks(), (std::vector<double>{0.2, 0.5, 1, 2}));
  const std::vector<double> w{3, 40};
  const AxisScale t = fit_axis_scale(w, true, false);
  EXPECT_DOUBLE_EQ(t.lo, 2);
  EXPECT_DOUBLE_EQ(t.hi, 50);
}

// A makespan a hair past a step does not cost a whole extra step.
TEST(SvgAxis, LinearAxisIsFittedToTheData) {
  const std::vector<double> v{0, 2000.04};
  const AxisScale s = fit_axis_scale(v, false, false);
  EXPECT_DOUBLE_EQ(s.hi, 2000);
  const std::vector<double> w{0, 2100};
  EXPECT_DOUBLE_EQ(fit_axis_scale(w, false, false).hi, 2500);
}

TEST(SvgAxis, TickLabels) {
  EXPECT_EQ(format_tick(0), "0");
  EXPECT_EQ(format_tick(0.25), "0.25");
  EXPECT_EQ(format_tick(1500), "1.5k");
  EXPECT_EQ(format_tick(2e6), "2M");
}

XyPlot sample_plot() {
  XyPlot p{.title = "A <title> & more", .x_label = "x", .y_label = "y", .x_log = true};
  p.series.push_back({.name = "steps", .style = SeriesStyle::step, .x = {0.5, 1, 4}, .y = {0.2, 0.6, 1}});
  p.series.push_back({.name = "dots", .style = SeriesStyle::scatter, .x = {2, -1}, .y = {0.5, 0.5}, .tips = {"a\"b"}});
  p.markers.push_back({1.0, "SLO"});
  return p;
}

TEST(SvgXyPlot, WellFormedDeterministicAndEscaped) {
  const std::string a = render_xy_plot(sample_plot());
  EXPECT_EQ(a, render_xy_plot(sample_plot()));
  EXPECT_EQ(xml_shape_error(a), "") << a;
  EXPECT_NE(a.find("A &lt;title&gt; &amp; more"), std::string::npos);
  EXPECT_NE(a.find("<title>a&quot;b</title>"), std::string::npos);
  EXPECT_EQ(a.find("cx=\"-"), std::string::npos);  // x = -1 is off a log axis: not drawn
  EXPECT_NE(a.find(">SLO</text>"), std::string::npos);
}

TEST(SvgBarChart, ManyCategoriesWidenAndRotate) {
  BarChart c{.title = "links", .y_label = "%"};
  BarGroup g{.name = "u", .values = {}};
  for (int i = 0; i < 120; ++i) {
    c.categories.push_back("gpu" + std::to_string(i) + "->nvswitch");
    g.values.push_back(i);
  }
  c.groups.push_back(g);
  const std::string svg = render_bar_chart(c);
  EXPECT_EQ(xml_shape_error(svg), "");
  EXPECT_NE(svg.find("rotate(-45"), std::string::npos);
  EXPECT_EQ(svg.find("width=\"640\""), std::string::npos);  // wider than the minimum
  EXPECT_EQ(svg.find("width=\"-"), std::string::npos);
}

TEST(XmlCheck, CatchesWhatBrowsersWouldRepair) {
  EXPECT_EQ(xml_shape_error("<svg><g></g><line x=\"1\"/></svg>"), "");
  EXPECT_NE(xml_shape_error("<svg><g></svg>"), "");
  EXPECT_NE(xml_shape_error("<svg a=1></svg>"), "");
  EXPECT_NE(xml_shape_error("<svg>a & b</svg>"), "");
  EXPECT_NE(xml_shape_error("<svg>"), "");
}

TEST(CsvTable, ReadsQuotedFieldsAndNumbers) {
  const CsvTable t = parse_csv("a,b,c\n1,\"x,\"\"y\"\"\",2.5\n3,,\n");
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.cell(0, "b"), "x,\"y\"");
  EXPECT_DOUBLE_EQ(t.number(0, "c"), 2.5);
  EXPECT_TRUE(std::isnan(t.number(1, "c")));
  EXPECT_THROW(t.column("d"), std::out_of_range);
}

TEST(HtmlReport, SectionsInlineAndNoWallClock) {
  nlohmann::ordered_json summary = {{"scenario", "s<1>"}, {"policies", {{"torpor", {{"slo_attainment", 1.0}}},
                                                                         {"native", {{"slo_attainment", 0.5}}}}},
                                    {"wall_s", 0.123}, {"configs", 3}};
  const CsvTable csv = parse_csv(
      "policy,function,model,arrived,finished,dropped,cold_starts,p50_s,p98_s,p99_s,mean_queue_s,slo_s,compliant\n"
      "torpor,f0,m,3,3,0,0,0.01,0.02,0.02,0,0.1,1\nnative,f0,m,3,3,0,0,0.3,0.4,0.5,0,0.1,0\n");
  const CsvTable timeline = parse_csv(
      "policy,start_s,end_s,swaps_pcie,swaps_nvlink,swap_bytes_pcie,swap_bytes_nvlink,gpu_memory_used_bytes\n"
      "torpor,0,1,2,1,2000000000,1000000000,3000000000\ntorpor,1,2,0,0,0,0,3000000000\n"
      "native,0,1,1,0,1000000000,0,1000000000\nnative,1,2,0,0,0,0,1000000000\n");
  EXPECT_EQ(serverless_report_page(summary, csv, CsvTable{}).figures.size(), 4u);  // no timeline: no time plots
  HtmlReport page = serverless_report_page(summary, csv, timeline);
  page.scenario = {"s<1>", "a.yaml", "name: s<1>\n"};
  page.provenance = {{"seed", "7"}};
  const std::string html = render_html_report(page);
  for (const char* id : {"id=\"summary\"", "id=\"plots\"", "id=\"scenario\"", "id=\"provenance\"", "<details>"})
    EXPECT_NE(html.find(id), std::string::npos) << id;
  EXPECT_EQ(html.find("wall_s"), std::string::npos);
  EXPECT_EQ(html.find("http"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("name: s&lt;1&gt;"), std::string::npos);
  size_t svgs = 0;
  for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) {
    const size_t end = html.find("</svg>", at) + 6;
    EXPECT_EQ(xml_shape_error(std::string_view(html).substr(at, end - at)), "");
    ++svgs;
  }
  EXPECT_EQ(svgs, 7u);  // CDF, attainment, swaps, PCIe and NVLink loads over time, memory over time, GPUs
  EXPECT_NE(html.find("GPU memory occupancy over time"), std::string::npos);
  EXPECT_EQ(html, render_html_report(page));
}

}  // namespace
}  // namespace parallax
