// File: sim/workload/torpor_trace_test.cpp
#include "sim/workload/torpor_trace.h"

#include <gtest/gtest.h>

#include <numeric>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::input_error_of;
using testing_files::scratch_file;
using testing_files::source_path;

// Expected values below were read off the shipped files with awk (see traces/README.md).
TEST(TorporSamples, ShippedSample) {
  const MinuteCounts c = read_torpor_samples(source_path("traces/torpor/samples_derived.csv"));
  ASSERT_EQ(c.functions.size(), 203u);
  EXPECT_EQ(c.minutes(), 31u);
  EXPECT_EQ(c.functions[0].name, "f0");
  EXPECT_EQ(c.functions[0].per_minute[0], 11u);
  EXPECT_EQ(c.functions[0].per_minute[30], 0u);
  EXPECT_EQ(c.functions[1].per_minute[1], 14u);
  EXPECT_EQ(c.functions[202].per_minute[0], 8u);
  EXPECT_EQ(std::accumulate(c.functions[0].per_minute.begin(), c.functions[0].per_minute.end(), 0u), 313u);
  uint64_t total = 0;
  for (const auto& f : c.functions) total += std::accumulate(f.per_minute.begin(), f.per_minute.end(), uint64_t{0});
  EXPECT_EQ(total, 61'589u);
}

TEST(TorporSamples, FirstNFunctions) {
  const MinuteCounts c = read_torpor_samples(source_path("traces/torpor/samples_derived.csv"), 5);
  EXPECT_EQ(c.functions.size(), 5u);
}

TEST(TorporSamples, CrlfAndBom) {
  const auto path = scratch_file("t.csv", "\xEF\xBB\xBF" "function_index,min_0,min_1\r\n0,3,4\r\n1,0,7\r\n");
  const MinuteCounts c = read_torpor_samples(path);
  ASSERT_EQ(c.functions.size(), 2u);
  EXPECT_EQ(c.functions[1].per_minute[1], 7u);
}

TEST(TorporSamples, Malformed) {
  auto bad = [](std::string_view name, std::string_view text) {
    const auto path = scratch_file(name, text);
    return std::make_pair(path, input_error_of([&] { read_torpor_samples(path); }));
  };
  {
    const auto [p, m] = bad("neg.csv", "function_index,min_0,min_1\n0,3,4\n1,-2,7\n");
    EXPECT_EQ(m, p + ":3: column 'min_0': expected a non-negative integer, got '-2'");
  }
  {
    const auto [p, m] = bad("seq.csv", "function_index,min_0\n0,3\n2,4\n");
    EXPECT_EQ(m, p + ":3: column 'function_index': function_index 2 out of sequence, expected 1");
  }
  {
    const auto [p, m] = bad("short.csv", "function_index,min_0,min_1\n0,3\n");
    EXPECT_EQ(m, p + ":2: expected 3 fields, found 2");
  }
  {
    const auto [p, m] = bad("hdr.csv", "function_index,min_0,min_2\n0,3,4\n");
    EXPECT_EQ(m, p + ":1: header column 3 is 'min_2', expected 'min_1'");
  }
  {
    const auto [p, m] = bad("empty.csv", "");
    EXPECT_EQ(m, p + ": empty file; expected a header line 'function_index,min_0,...,min_N'");
  }
  {
    const auto [p, m] = bad("norows.csv", "function_index,min_0\n");
    EXPECT_EQ(m, p + ":1: no data rows after the header");
  }
}

TEST(TorporRates, ShippedPattern) {
  const std::vector<double> r = read_torpor_rates(source_path("traces/torpor/invoc_pattern.txt"));
  ASSERT_EQ(r.size(), 1336u);
  EXPECT_EQ(r.front(), 1.0);
  EXPECT_EQ(r[499], 2.0736);
  EXPECT_EQ(r.back(), 97.9293);
  EXPECT_NEAR(std::accumulate(r.begin(), r.end(), 0.0), 15686.7, 0.05);
}

TEST(TorporRates, SeveralLinesCrlfBom) {
  const auto path = scratch_file("rates.txt", "\xEF\xBB\xBF" "1.5, 2\r\n,3.25\r\n");
  EXPECT_EQ(read_torpor_rates(path), (std::vector<double>{1.5, 2, 3.25}));
}

TEST(TorporRates, Malformed) {
  const auto p1 = scratch_file("r1.txt", "1.0, 2.0, x3, 4.0");
  EXPECT_EQ(input_error_of([&] { read_torpor_rates(p1); }),
            p1 + ":1:11: rate 2: expected a positive number (req/min), got 'x3'");
  const auto p2 = scratch_file("r2.txt", "1.0,\n0, 4.0");
  EXPECT_EQ(input_error_of([&] { read_torpor_rates(p2); }),
            p2 + ":2:1: rate 1: expected a positive number (req/min), got '0'");
  const auto p3 = scratch_file("r3.txt", "1.0,, 2");
  EXPECT_EQ(input_error_of([&] { read_torpor_rates(p3); }), p3 + ":1:5: empty value before ','");
  const auto p4 = scratch_file("r4.txt", "1.0 2.0");
  EXPECT_EQ(input_error_of([&] { read_torpor_rates(p4); }), p4 + ":1:5: missing ',' before '2.0'");
  const auto p5 = scratch_file("r5.txt", "");
  EXPECT_EQ(input_error_of([&] { read_torpor_rates(p5); }),
            p5 + ": empty file; expected comma-separated rates (req/min)");
}

}  // namespace
}  // namespace parallax
