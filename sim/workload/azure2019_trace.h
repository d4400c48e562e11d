// File: sim/workload/azure2019_trace.h
// Readers for the Azure Functions 2019 trace (Azure/AzurePublicDataset:AzureFunctionsDataset2019.md,
// REFERENCE.md §9.1): per-minute invocation counts `HashOwner,HashApp,HashFunction,Trigger,1..1440`,
// per-function duration percentiles (ms) and per-app memory percentiles (MB). Each reader streams one
// row at a time (a daily file has ~50k rows of 1,444 columns); read_azure2019_invocations keeps the
// first N functions as MinuteCounts for minute_expansion.h. The readers take a stream (the file's
// text; `source` names it in errors); the read_* functions have a path overload that opens the file.
#pragma once

#include <array>
#include <cstdint>
#include <istream>
#include <limits>
#include <string>
#include <vector>

#include "sim/workload/csv_reader.h"
#include "sim/workload/minute_counts.h"

namespace parallax {

struct Azure2019InvocationRow {
  std::string owner, app, function;  // hashes
  std::string trigger;               // http, timer, event, queue, storage, orchestration, others
  std::vector<uint32_t> per_minute;  // invocations in minute 1..N of the day (index 0 = column "1")
};

class Azure2019InvocationReader {
 public:
  // Reads and checks the header: four named columns, then "1", "2", ... "N" (N >= 1; 1,440 per day).
  Azure2019InvocationReader(std::istream& in, std::string source);
  size_t minutes() const { return minutes_; }
  bool next(Azure2019InvocationRow& row);  // false at end of file
  const std::string& path() const { return csv_.path(); }

 private:
  CsvReader csv_;
  size_t minutes_ = 0;
};

// The first `max_functions` rows as MinuteCounts, each named "owner/app/function".
MinuteCounts read_azure2019_invocations(const std::string& path,
                                        size_t max_functions = std::numeric_limits<size_t>::max());
MinuteCounts read_azure2019_invocations(std::istream& in, const std::string& source,
                                        size_t max_functions = std::numeric_limits<size_t>::max());

// function_durations_percentiles: `HashOwner,HashApp,HashFunction,Average,Count,Minimum,Maximum,
// percentile_Average_{0,1,25,50,75,99,100}`, all times in ms.
struct Azure2019DurationRow {
  std::string owner, app, function;
  double average_ms = 0;
  uint64_t count = 0;
  double minimum_ms = 0, maximum_ms = 0;
  std::array<double, 7> percentile_ms{};  // at kAzure2019DurationPercentiles
};
inline constexpr std::array<int, 7> kAzure2019DurationPercentiles = {0, 1, 25, 50, 75, 99, 100};

class Azure2019DurationReader {
 public:
  Azure2019DurationReader(std::istream& in, std::string source);
  bool next(Azure2019DurationRow& row);

 private:
  CsvReader csv_;
};
std::vector<Azure2019DurationRow> read_azure2019_durations(const std::string& path);
std::vector<Azure2019DurationRow> read_azure2019_durations(std::istream& in, const std::string& source);

// app_memory_percentiles: `HashOwner,HashApp,SampleCount,AverageAllocatedMb,
// AverageAllocatedMb_pct{1,5,25,50,75,95,99,100}`; vHive's per-function copies add HashFunction
// after HashApp, which is accepted (function stays empty when the column is absent).
struct Azure2019MemoryRow {
  std::string owner, app, function;
  uint64_t sample_count = 0;
  double average_allocated_mb = 0;
  std::array<double, 8> percentile_mb{};  // at kAzure2019MemoryPercentiles
};
inline constexpr std::array<int, 8> kAzure2019MemoryPercentiles = {1, 5, 25, 50, 75, 95, 99, 100};

class Azure2019MemoryReader {
 public:
  Azure2019MemoryReader(std::istream& in, std::string source);
  bool next(Azure2019MemoryRow& row);

 private:
  CsvReader csv_;
  bool has_function_ = false;
};
std::vector<Azure2019MemoryRow> read_azure2019_memory(const std::string& path);
std::vector<Azure2019MemoryRow> read_azure2019_memory(std::istream& in, const std::string& source);

}  // namespace parallax
