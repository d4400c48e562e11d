// File: sim/workload/azure2019_trace_test.cpp
#include "sim/workload/azure2019_trace.h"

#include <gtest/gtest.h>

#include <fstream>
#include <numeric>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::input_error_of;
using testing_files::scratch_file;
using testing_files::source_path;

const std::string kDir = "traces/azure2019_single_function/";
constexpr std::string_view kOwner = "ffdd3d1c6a84caf0b741293bfac9d0d9c6445b53dfc29417d196981d0bb1192a";

// Expected values were read off the shipped files with awk.
TEST(Azure2019Invocations, ShippedSample) {
  std::ifstream in = open_trace_file(source_path(kDir + "invocations.csv"));
  Azure2019InvocationReader reader(in, "invocations.csv");
  EXPECT_EQ(reader.minutes(), 1440u);
  Azure2019InvocationRow row;
  ASSERT_TRUE(reader.next(row));
  EXPECT_EQ(row.owner, kOwner);
  EXPECT_EQ(row.trigger, "event");
  EXPECT_EQ(row.per_minute[0], 12787u);
  EXPECT_EQ(row.per_minute[1], 12714u);
  EXPECT_EQ(row.per_minute[1439], 15001u);
  EXPECT_EQ(std::accumulate(row.per_minute.begin(), row.per_minute.end(), uint64_t{0}), 20'820'188u);
  EXPECT_FALSE(reader.next(row));

  const MinuteCounts c = read_azure2019_invocations(source_path(kDir + "invocations.csv"), 100);
  ASSERT_EQ(c.functions.size(), 1u);
  EXPECT_EQ(c.minutes(), 1440u);
  EXPECT_TRUE(c.functions[0].name.starts_with(std::string(kOwner) + "/228ef3c9"));
}

TEST(Azure2019Durations, ShippedSample) {
  const auto rows = read_azure2019_durations(source_path(kDir + "durations.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].average_ms, 4);
  EXPECT_EQ(rows[0].count, 21'757'953u);
  EXPECT_EQ(rows[0].minimum_ms, 1.0);
  EXPECT_EQ(rows[0].maximum_ms, 12929.0);
  EXPECT_EQ(rows[0].percentile_ms, (std::array<double, 7>{2, 2, 3, 4, 5, 11, 453}));
}

TEST(Azure2019Memory, ShippedSampleWithFunctionColumn) {
  const auto rows = read_azure2019_memory(source_path(kDir + "memory.csv"));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].function.empty());
  EXPECT_EQ(rows[0].sample_count, 419'751u);
  EXPECT_EQ(rows[0].average_allocated_mb, 213);
  EXPECT_EQ(rows[0].percentile_mb, (std::array<double, 8>{144, 186, 213, 217, 221, 227, 232, 297}));
}

TEST(Azure2019Memory, PublishedPerAppLayout) {
  const auto path = scratch_file("mem.csv",
                                 "HashOwner,HashApp,SampleCount,AverageAllocatedMb,AverageAllocatedMb_pct1,"
                                 "AverageAllocatedMb_pct5,AverageAllocatedMb_pct25,AverageAllocatedMb_pct50,"
                                 "AverageAllocatedMb_pct75,AverageAllocatedMb_pct95,AverageAllocatedMb_pct99,"
                                 "AverageAllocatedMb_pct100\r\no,a,10,100,1,2,3,4,5,6,7,8\r\n");
  const auto rows = read_azure2019_memory(path);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].function.empty());
  EXPECT_EQ(rows[0].percentile_mb[7], 8);
}

constexpr std::string_view kHeader3 = "HashOwner,HashApp,HashFunction,Trigger,1,2,3\r\n";

TEST(Azure2019Invocations, CrlfBomSeveralRows) {
  const auto path = scratch_file("inv.csv", std::string("\xEF\xBB\xBF") + std::string(kHeader3) +
                                                "o,a,f1,http,1,2,3\r\no,a,f2,timer,0,0,9\r\n");
  const MinuteCounts c = read_azure2019_invocations(path);
  ASSERT_EQ(c.functions.size(), 2u);
  EXPECT_EQ(c.minutes(), 3u);
  EXPECT_EQ(c.functions[1].name, "o/a/f2");
  EXPECT_EQ(c.functions[1].per_minute[2], 9u);
  EXPECT_EQ(read_azure2019_invocations(path, 1).functions.size(), 1u);
}

TEST(Azure2019Invocations, Malformed) {
  auto message = [](std::string_view name, std::string_view rows) {
    const auto path = scratch_file(name, std::string(kHeader3) + std::string(rows));
    return input_error_of([&] { read_azure2019_invocations(path); }).substr(path.size());
  };
  EXPECT_EQ(message("b1.csv", "o,a,f,http,1,2,3\no,a,f,http,1,2.5,3\n"),
            ":3: column '2': expected a non-negative integer, got '2.5'");
  EXPECT_EQ(message("b2.csv", "o,a,f,webhook,1,2,3\n"),
            ":2: column 'Trigger': unknown trigger 'webhook' (expected http, timer, event, queue, storage, "
            "orchestration or others)");
  EXPECT_EQ(message("b3.csv", "o,a,f,http,1,2\n"), ":2: expected 7 fields, found 6");
  EXPECT_EQ(message("b4.csv", "o,,f,http,1,2,3\n"), ":2: column 'HashApp': empty value");
  EXPECT_EQ(message("b5.csv", ""), ":1: no data rows after the header");

  const auto hdr = scratch_file("b6.csv", "HashOwner,HashApp,HashFunction,Trigger,1,3\n");
  EXPECT_EQ(input_error_of([&] {
              std::ifstream in = open_trace_file(hdr);
              Azure2019InvocationReader r(in, hdr);
            }),
            hdr + ":1: header column 6 is '3', expected '2'");
  const auto empty = scratch_file("b7.csv", "");
  EXPECT_EQ(input_error_of([&] {
              std::ifstream in = open_trace_file(empty);
              Azure2019InvocationReader r(in, empty);
            }),
            empty + ": empty file; expected a header line 'HashOwner,HashApp,HashFunction,Trigger,1,...,1440'");
}

TEST(Azure2019Durations, Malformed) {
  const auto path = scratch_file("d.csv",
                                 "HashOwner,HashApp,HashFunction,Average,Count,Minimum,Maximum,percentile_Average_0,"
                                 "percentile_Average_1,percentile_Average_25,percentile_Average_50,"
                                 "percentile_Average_75,percentile_Average_99,percentile_Average_100\n"
                                 "o,a,f,4,10,1,9,1,2,3,4,5,6,7\n"
                                 "o,a,g,4,10,1,9,1,2,3,four,5,6,7\n");
  EXPECT_EQ(input_error_of([&] { read_azure2019_durations(path); }),
            path + ":3: column 'percentile_Average_50': expected a number, got 'four'");
}

}  // namespace
}  // namespace parallax
