// File: sim/workload/scaled_trace_process_test.cpp
#include "sim/workload/scaled_trace_process.h"

#include <gtest/gtest.h>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

TEST(ScaledTraceProcess, KeepsTheGapPatternAtTheChosenRate) {
  // 4 arrivals over 2 s: recorded rate 2/s; at 8/s every time shrinks by 4.
  ScaledTraceProcess p({Time::seconds(10), Time::seconds(10.5), Time::seconds(11.5), Time::seconds(12)}, 8,
                       Time::seconds(1));
  EXPECT_DOUBLE_EQ(p.time_scale(), 0.25);
  EXPECT_EQ(p.next(), Time::seconds(1));
  EXPECT_EQ(p.next(), Time::seconds(1.125));
  EXPECT_EQ(p.next(), Time::seconds(1.375));
  EXPECT_EQ(p.next(), Time::seconds(1.5));
  EXPECT_EQ(p.next(), Time::max());
  EXPECT_DOUBLE_EQ(p.mean_rate_per_s(), 8);
}

TEST(ScaledTraceProcess, RefusesTracesWithoutARate) {
  EXPECT_THROW(ScaledTraceProcess({Time::seconds(1)}, 5), std::invalid_argument);
  EXPECT_THROW(ScaledTraceProcess({Time::seconds(1), Time::seconds(1)}, 5), std::invalid_argument);
  EXPECT_THROW(ScaledTraceProcess({Time::seconds(2), Time::seconds(1)}, 5), std::invalid_argument);
  EXPECT_THROW(ScaledTraceProcess({Time::seconds(1), Time::seconds(2)}, 0), std::invalid_argument);
}

// The shipped head of the code trace: 1,000 rows, so at 20,000 req/s the last arrival is at
// exactly 1000/20000 s (rounded to the picosecond).
TEST(ScaledTraceProcess, AzureLlmHeadAtAChosenRate) {
  auto p = make_azure_llm_process(
      testing_files::source_path("traces/azure_llm/AzureLLMInferenceTrace_code_head1000.csv"), 20000);
  const std::vector<Time> all = arrivals_until(*p, Time::seconds(1));
  ASSERT_EQ(all.size(), 1000u);
  EXPECT_EQ(all.front(), Time::zero());
  EXPECT_NEAR(all.back().to_seconds(), 0.05, 1e-12);
  ArrivalProcessSpec spec;
  spec.kind = "azure_llm";
  spec.path = testing_files::source_path("traces/azure_llm/AzureLLMInferenceTrace_code_head1000.csv");
  spec.rate_per_s = 20000;
  RandomStreams streams(1);
  auto q = make_arrival_process(spec, streams.stream("unused"));
  EXPECT_EQ(arrivals_until(*q, Time::seconds(1)), all);
}

}  // namespace
}  // namespace parallax
