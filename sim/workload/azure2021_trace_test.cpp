// File: sim/workload/azure2021_trace_test.cpp
#include "sim/workload/azure2021_trace.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::input_error_of;
using testing_files::scratch_file;
using testing_files::source_path;

// Expected values were computed with awk from traces/azure2021/Azure2021_200.csv; the exact
// picosecond values by hand from the decimal text (start = end − duration).
TEST(Azure2021, ShippedSample) {
  const TraceArrivals t = read_azure2021_trace(source_path("traces/azure2021/Azure2021_200.csv"));
  ASSERT_EQ(t.arrivals.size(), 199u);
  EXPECT_EQ(t.function_names.size(), 31u);
  EXPECT_TRUE(std::is_sorted(t.arrivals.begin(), t.arrivals.end(),
                             [](const Arrival& a, const Arrival& b) { return a.at < b.at; }));
  // Line 2: end 0.07949090003967285 (→ 79,490,900,040 ps), duration 0.078.
  EXPECT_EQ(t.arrivals[0].at, Time::ps(1'490'900'040));
  EXPECT_EQ(t.arrivals[0].recorded_duration, Time::ps(78'000'000'000));
  EXPECT_EQ(t.arrivals[0].function, 0u);
  EXPECT_EQ(t.function_names[0].substr(0, 8), "7b2c43a2");
  // Line 3: end 57.15786004066467, duration 57.154.
  EXPECT_EQ(t.arrivals[1].at, Time::ps(3'860'040'665));
  EXPECT_EQ(t.arrivals[1].function, 1u);
  // Latest start: line 200, end 1260.0557980537415, duration 60.041.
  EXPECT_EQ(t.arrivals.back().at, Time::ps(1'200'014'798'053'742));
  EXPECT_EQ(t.arrivals.back().recorded_duration, Time::seconds(60.041));
}

TEST(Azure2021, SortIsStableAndFunctionsFollowFirstAppearance) {
  const auto path = scratch_file("s.csv",
                                 "\xEF\xBB\xBF" "app,func,end_timestamp,duration\r\n"
                                 "a,x,10,2\r\n"    // start 8, function 0
                                 "b,y,9,1\r\n"     // start 8, function 1 (tie: file order)
                                 "a,x,3.5,0.5\r\n" // start 3
                                 "c,z,8,8\r\n");   // start 0, function 2
  const TraceArrivals t = read_azure2021_trace(path);
  ASSERT_EQ(t.arrivals.size(), 4u);
  EXPECT_EQ(t.function_names, (std::vector<std::string>{"a/x", "b/y", "c/z"}));
  EXPECT_EQ(t.arrivals[0].at, Time::zero());
  EXPECT_EQ(t.arrivals[0].function, 2u);
  EXPECT_EQ(t.arrivals[1].at, Time::seconds(3));
  EXPECT_EQ(t.arrivals[2].at, Time::seconds(8));
  EXPECT_EQ(t.arrivals[2].function, 0u);
  EXPECT_EQ(t.arrivals[3].at, Time::seconds(8));
  EXPECT_EQ(t.arrivals[3].function, 1u);

  const TraceArrivals two = read_azure2021_trace(path, 2);
  EXPECT_EQ(two.function_names.size(), 2u);
  EXPECT_EQ(two.arrivals.size(), 3u);
}

TEST(Azure2021, Malformed) {
  auto message = [](std::string_view name, std::string_view rows) {
    const auto path = scratch_file(name, "app,func,end_timestamp,duration\n" + std::string(rows));
    return input_error_of([&] { read_azure2021_trace(path); }).substr(path.size());
  };
  EXPECT_EQ(message("m1.csv", "a,x,10,2\na,x,1O,2\n"),
            ":3: column 'end_timestamp': expected non-negative decimal seconds, got '1O'");
  EXPECT_EQ(message("m2.csv", "a,x,10,-2\n"), ":2: column 'duration': expected non-negative decimal seconds, got '-2'");
  EXPECT_EQ(message("m3.csv", "a,x,1.5,2.25\n"),
            ":2: column 'duration': duration 2.25 s exceeds end_timestamp 1.5 s: the invocation would start before "
            "the trace");
  EXPECT_EQ(message("m4.csv", "a,x,10\n"), ":2: expected 4 fields, found 3");
  EXPECT_EQ(message("m5.csv", ",x,10,1\n"), ":2: column 'app': empty value");
  EXPECT_EQ(message("m6.csv", ""), ":1: no data rows after the header");
  const auto empty = scratch_file("m7.csv", "");
  EXPECT_EQ(input_error_of([&] { read_azure2021_trace(empty); }),
            empty + ": empty file; expected a header line 'app,func,end_timestamp,duration'");
}

}  // namespace
}  // namespace parallax
