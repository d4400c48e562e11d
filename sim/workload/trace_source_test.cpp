// File: sim/workload/trace_source_test.cpp
#include "sim/workload/trace_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::input_error_of;
using testing_files::scratch_file;
using testing_files::source_path;

bool by_time(const Arrival& a, const Arrival& b) { return a.at < b.at; }

TEST(TraceFormat, NamesRoundTrip) {
  for (auto f : {TraceFormat::torpor, TraceFormat::torpor_rates, TraceFormat::azure2019, TraceFormat::azure2021,
                 TraceFormat::azure_llm}) {
    EXPECT_EQ(parse_trace_format(trace_format_name(f)), f);
  }
  EXPECT_EQ(parse_trace_format("azure2020"), std::nullopt);
}

TEST(LoadTrace, EveryFormatOnTheShippedSamples) {
  struct Case {
    TraceSpec spec;
    size_t arrivals, functions;
  };
  const Case cases[] = {
      {{.format = TraceFormat::torpor, .path = source_path("traces/torpor/samples_derived.csv")}, 61'589, 203},
      {{.format = TraceFormat::torpor, .path = source_path("traces/torpor/samples_derived.csv"), .functions = 1},
       313, 1},
      {{.format = TraceFormat::azure2019, .path = source_path("traces/azure2019_single_function/invocations.csv"),
        .functions = 100, .duration = Time::seconds(120)},
       12'787 + 12'714, 1},
      {{.format = TraceFormat::azure2021, .path = source_path("traces/azure2021/Azure2021_200.csv")}, 199, 31},
      {{.format = TraceFormat::azure_llm,
        .path = source_path("traces/azure_llm/AzureLLMInferenceTrace_code_head1000.csv")},
       1000, 1},
  };
  for (const Case& c : cases) {
    RandomStream rng(3);
    const TraceArrivals t = load_trace(c.spec, rng);
    EXPECT_EQ(t.arrivals.size(), c.arrivals) << c.spec.path;
    EXPECT_EQ(t.function_names.size(), c.functions) << c.spec.path;
    EXPECT_TRUE(std::is_sorted(t.arrivals.begin(), t.arrivals.end(), by_time)) << c.spec.path;
  }
}

TEST(LoadTrace, DurationCutsSortedTraces) {
  RandomStream rng(1);
  // Azure 2021 starts before 16.6 ms (awk, sorted): lines 2, 3, 4, 5 at 0.0015, 0.0039, 0.0055, 0.016541 s;
  // line 6 starts at 0.016824 s.
  const TraceArrivals t = load_trace({.format = TraceFormat::azure2021,
                                      .path = source_path("traces/azure2021/Azure2021_200.csv"),
                                      .duration = Time::us(16'600)},
                                     rng);
  EXPECT_EQ(t.arrivals.size(), 4u);
  EXPECT_LT(t.arrivals.back().at, Time::us(16'600));
}

TEST(LoadTrace, TorporRatesPoissonMix) {
  // 1,336 functions, 15,686.7 req/min in total; 10 minutes → 156,867 expected, sd ≈ 396 (0.25 %).
  const TraceSpec spec{.format = TraceFormat::torpor_rates, .path = source_path("traces/torpor/invoc_pattern.txt"),
                       .duration = Time::seconds(600)};
  RandomStreams s(9);
  const TraceArrivals t = load_trace(spec, s.stream("trace"));
  EXPECT_EQ(t.function_names.size(), 1336u);
  EXPECT_NEAR(static_cast<double>(t.arrivals.size()), 156'867, 156'867 * 0.012);
  // The busiest function (97.9293 req/min, the last) gets its share: ≈ 979, sd ≈ 31.
  const auto last = std::count_if(t.arrivals.begin(), t.arrivals.end(),
                                  [](const Arrival& a) { return a.function == 1335; });
  EXPECT_NEAR(static_cast<double>(last), 979.3, 140);
  RandomStreams again(9);
  EXPECT_EQ(t.arrivals, load_trace(spec, again.stream("trace")).arrivals);
}

TEST(LoadTrace, BadSpecAndBadFile) {
  RandomStream rng(1);
  EXPECT_THROW(load_trace({.format = TraceFormat::torpor_rates, .path = source_path("traces/torpor/invoc_pattern.txt")},
                          rng),
               std::invalid_argument);
  EXPECT_THROW(load_trace({.format = TraceFormat::torpor, .path = "x", .functions = 0}, rng), std::invalid_argument);
  EXPECT_THROW(load_trace({.format = TraceFormat::torpor, .path = "x", .minute_cv = -1}, rng), std::invalid_argument);
  // A file of the wrong format fails on its header, naming the expected column.
  const std::string path = source_path("traces/azure2021/Azure2021_200.csv");
  EXPECT_EQ(input_error_of([&] { load_trace({.format = TraceFormat::azure_llm, .path = path}, rng); }),
            path + ":1: header column 1 is 'app', expected 'TIMESTAMP'");
}

// Regression (tests/fuzz/regressions/trace_source/rate-4e10-per-minute.bin): a count or rate trace
// that would expand past kMaxTraceArrivals is refused before drawing, not expanded until memory
// runs out; the same file with a short enough duration is fine (only the minutes the duration
// reaches are drawn, so minute 2's four billion count only from a duration past 120 s).
TEST(LoadTrace, RefusesExpansionsPastTheLimit) {
  RandomStream rng(1);
  const std::string rates = scratch_file("huge_rates.txt", "43012011201, 7\n");
  EXPECT_EQ(input_error_of([&] {
              load_trace({.format = TraceFormat::torpor_rates, .path = rates, .duration = Time::seconds(60)}, rng);
            }),
            rates + ": the trace expands to 4.3e+10 arrivals, more than the limit of 1e+08; keep fewer functions "
                    "or a shorter duration");
  const std::string counts = scratch_file("huge_counts.csv", "function_index,min_0,min_1,min_2\n0,5,3,4000000000\n");
  EXPECT_NE(input_error_of([&] { load_trace({.format = TraceFormat::torpor, .path = counts}, rng); }).find("4e+09 arrivals"),
            std::string::npos);
  EXPECT_EQ(load_trace({.format = TraceFormat::torpor, .path = counts, .duration = Time::seconds(60)}, rng).arrivals.size(), 5u);
  EXPECT_NE(input_error_of([&] {
              load_trace({.format = TraceFormat::torpor, .path = counts, .duration = Time::seconds(121)}, rng);
            }).find("4e+09 arrivals"),
            std::string::npos);
}

// Regression (tests/fuzz/regressions/trace_source/empty-minute-at-horizon-24GB.bin): an empty
// minute at the horizon let the expander go on to fill the next non-empty minute, however large,
// before it saw an arrival past the duration (24 GB RSS). Minutes past the duration are not drawn.
TEST(LoadTrace, MinutesPastTheDurationAreNeverDrawn) {
  RandomStream rng(1);
  const std::string counts = scratch_file("empty_then_huge.csv", "function_index,min_0,min_1,min_2\n0,5,0,4000000000\n");
  const TraceArrivals got =
      load_trace({.format = TraceFormat::torpor, .path = counts, .duration = Time::seconds(120)}, rng);
  EXPECT_EQ(got.arrivals.size(), 5u);
  for (const Arrival& a : got.arrivals) EXPECT_LT(a.at, Time::seconds(60));
}

// Regression (tests/fuzz/regressions/trace_source/rate-5e-23-per-minute.bin): a rate so small
// that the first gap is past the clock's range (about 1e24 s) is a trace without arrivals in the
// duration, not a TimeRangeError out of the rate mix.
TEST(LoadTrace, ATinyRateDrawsNoArrivalInsteadOfAGapPastTheClock) {
  RandomStream rng(6);
  const std::string rates = scratch_file("tiny_rate.txt", "0.0000000000000000000000536348987\n");
  const TraceArrivals got =
      load_trace({.format = TraceFormat::torpor_rates, .path = rates, .duration = Time::seconds(60)}, rng);
  EXPECT_EQ(got.function_names.size(), 1u);
  EXPECT_TRUE(got.arrivals.empty());
  // Beside a normal rate the tiny one changes nothing but its share of the draws.
  const std::string mixed = scratch_file("tiny_and_normal.txt", "1e-300, 600\n");
  const TraceArrivals two =
      load_trace({.format = TraceFormat::torpor_rates, .path = mixed, .duration = Time::seconds(60)}, rng);
  EXPECT_GT(two.arrivals.size(), 400u);
  for (const Arrival& a : two.arrivals) EXPECT_LT(a.at, Time::seconds(60));
}

}  // namespace
}  // namespace parallax
