// File: sim/workload/azure_llm_trace_test.cpp
#include "sim/workload/azure_llm_trace.h"

#include <gtest/gtest.h>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::input_error_of;
using testing_files::scratch_file;
using testing_files::source_path;

TEST(CivilTimestamp, ParsesFieldByField) {
  CivilTimestamp t;
  ASSERT_TRUE(parse_civil_timestamp("1970-01-01 00:00:00", t));
  EXPECT_EQ(t.seconds, 0);
  ASSERT_TRUE(parse_civil_timestamp("2023-11-16 18:15:46.6805900", t));
  EXPECT_EQ(t.seconds, 1'700'158'546);  // date -u -d '2023-11-16 18:15:46' +%s
  EXPECT_EQ(t.subsecond_ps, 680'590'000'000);
  ASSERT_TRUE(parse_civil_timestamp("2024-02-29 23:59:59.5", t));
  EXPECT_EQ(t.subsecond_ps, 500'000'000'000);
  for (std::string_view bad : {"2023-02-29 00:00:00", "2023-11-16 24:00:00", "2023-11-16 18:15:46.", "2023-11-16T18:15:46",
                               "2023-11-16 18:15:46.1234567890123", "2023-11-16 18:15:4", "2023-11-16 18:15:46 ",
                               "23-11-16 18:15:46", ""}) {
    EXPECT_FALSE(parse_civil_timestamp(bad, t)) << "'" << bad << "'";
  }
}

// Expected values were read off the shipped heads with sed/awk.
TEST(AzureLlm, ShippedCodeHead) {
  const TraceArrivals t = read_azure_llm_trace(source_path("traces/azure_llm/AzureLLMInferenceTrace_code_head1000.csv"));
  ASSERT_EQ(t.arrivals.size(), 1000u);
  EXPECT_EQ(t.function_names, std::vector<std::string>{"llm"});
  EXPECT_EQ(t.arrivals[0].at, Time::zero());
  EXPECT_EQ(t.arrivals[0].input_tokens, 4808u);
  EXPECT_EQ(t.arrivals[0].output_tokens, 10u);
  EXPECT_EQ(t.arrivals[1].at, Time::ms(52));  // 18:17:04.0319600 − 18:17:03.9799600
  EXPECT_EQ(t.arrivals[999].at, Time::ps(521'588'576'000'000));  // 18:25:45.5685360
  uint64_t context = 0, generated = 0;
  for (const auto& a : t.arrivals) {
    context += a.input_tokens;
    generated += a.output_tokens;
  }
  EXPECT_EQ(context, 2'122'354u);
  EXPECT_EQ(generated, 27'621u);
}

TEST(AzureLlm, ShippedConvHead) {
  const TraceArrivals t = read_azure_llm_trace(source_path("traces/azure_llm/AzureLLMInferenceTrace_conv_head1000.csv"));
  ASSERT_EQ(t.arrivals.size(), 1000u);
  EXPECT_EQ(t.arrivals[0].input_tokens, 374u);
  EXPECT_EQ(t.arrivals[999].at, Time::ps(216'027'393'000'000));  // 18:19:22.7079830 − 18:15:46.6805900
}

TEST(AzureLlm, CrossesMidnightAndMonthEnd) {
  const auto path = scratch_file("mid.csv",
                                 "\xEF\xBB\xBF" "TIMESTAMP,ContextTokens,GeneratedTokens\r\n"
                                 "2023-11-30 23:59:59.9000000,1,2\r\n"
                                 "2023-12-01 00:00:00.1,3,4\r\n"
                                 "2023-12-01 00:00:00.1,5,6\r\n");
  const TraceArrivals t = read_azure_llm_trace(path);
  ASSERT_EQ(t.arrivals.size(), 3u);
  EXPECT_EQ(t.arrivals[1].at, Time::ms(200));
  EXPECT_EQ(t.arrivals[2].at, Time::ms(200));
  EXPECT_EQ(t.arrivals[2].output_tokens, 6u);
}

TEST(AzureLlm, Malformed) {
  auto message = [](std::string_view name, std::string_view rows) {
    const auto path = scratch_file(name, "TIMESTAMP,ContextTokens,GeneratedTokens\n" + std::string(rows));
    return input_error_of([&] { read_azure_llm_trace(path); }).substr(path.size());
  };
  EXPECT_EQ(message("l1.csv", "2023-11-16 18:17:03.9799600,4808,10\n2023-11-16 18:17:04.0319600,abc,8\n"),
            ":3: column 'ContextTokens': expected a non-negative integer, got 'abc'");
  EXPECT_EQ(message("l2.csv",
                    "2023-11-16 18:17:03.9799600,4808,10\n"
                    "2023-11-16 18:17:04.0319600,1,8\n"
                    "2023-11-16 18:17:04.0319599,1,8\n"),
            ":4: column 'TIMESTAMP': timestamp 2023-11-16 18:17:04.0319599 is earlier than the one on line 3; rows "
            "must be in time order");
  EXPECT_EQ(message("l3.csv", "2023/11/16 18:17:03,1,2\n"),
            ":2: column 'TIMESTAMP': expected 'YYYY-MM-DD HH:MM:SS[.fraction]', got '2023/11/16 18:17:03'");
  EXPECT_EQ(message("l4.csv", "2023-11-16 18:17:03,1\n"), ":2: expected 3 fields, found 2");
  EXPECT_EQ(message("l5.csv", ""), ":1: no data rows after the header");
  const auto empty = scratch_file("l6.csv", "");
  EXPECT_EQ(input_error_of([&] { read_azure_llm_trace(empty); }),
            empty + ": empty file; expected a header line 'TIMESTAMP,ContextTokens,GeneratedTokens'");
}

}  // namespace
}  // namespace parallax
