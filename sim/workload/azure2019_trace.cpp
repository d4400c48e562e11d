// File: sim/workload/azure2019_trace.cpp
#include "sim/workload/azure2019_trace.h"

#include <fmt/format.h>

#include <algorithm>

namespace parallax {

namespace {

constexpr std::array<std::string_view, 7> kTriggers = {"http",    "timer",         "event", "queue",
                                                       "storage", "orchestration", "others"};

void require_hash_columns(const CsvReader& csv, bool with_function) {
  csv.require_header_name(0, "HashOwner");
  csv.require_header_name(1, "HashApp");
  if (with_function) csv.require_header_name(2, "HashFunction");
}

// Collects every row; a file with a header and no rows is an error, as for every trace here.
template <typename Row, typename Reader>
std::vector<Row> read_all(Reader& reader, const std::string& path) {
  std::vector<Row> rows;
  Row row;
  while (reader.next(row)) rows.push_back(row);
  if (rows.empty()) throw InputError({path, 1, 0}, "", "no data rows after the header");
  return rows;
}

}  // namespace

Azure2019InvocationReader::Azure2019InvocationReader(std::istream& in, std::string source)
    : csv_(in, std::move(source)) {
  csv_.read_header("HashOwner,HashApp,HashFunction,Trigger,1,...,1440");
  require_hash_columns(csv_, true);
  csv_.require_header_name(3, "Trigger");
  const size_t columns = csv_.header().size();
  if (columns < 5) throw csv_.error("", "header has no per-minute columns 1..N");
  for (size_t k = 4; k < columns; ++k) csv_.require_header_name(k, fmt::format("{}", k - 3));
  minutes_ = columns - 4;
}

bool Azure2019InvocationReader::next(Azure2019InvocationRow& row) {
  if (!csv_.next_row()) return false;
  csv_.require_field_count(minutes_ + 4);
  row.owner = csv_.parse_nonempty(0);
  row.app = csv_.parse_nonempty(1);
  row.function = csv_.parse_nonempty(2);
  const std::string_view trigger = csv_.field(3);
  if (std::find(kTriggers.begin(), kTriggers.end(), trigger) == kTriggers.end()) {
    throw csv_.column_error(3, fmt::format("unknown trigger '{}' (expected http, timer, event, queue, storage, "
                                           "orchestration or others)", trigger));
  }
  row.trigger = trigger;
  row.per_minute.resize(minutes_);
  for (size_t m = 0; m < minutes_; ++m) {
    const uint64_t c = csv_.parse_uint(m + 4);
    if (c > UINT32_MAX) throw csv_.column_error(m + 4, fmt::format("count {} too large", c));
    row.per_minute[m] = static_cast<uint32_t>(c);
  }
  return true;
}

MinuteCounts read_azure2019_invocations(const std::string& path, size_t max_functions) {
  std::ifstream in = open_trace_file(path);
  return read_azure2019_invocations(in, path, max_functions);
}

MinuteCounts read_azure2019_invocations(std::istream& in, const std::string& source, size_t max_functions) {
  Azure2019InvocationReader reader(in, source);
  MinuteCounts out;
  Azure2019InvocationRow row;
  while (out.functions.size() < max_functions && reader.next(row)) {
    out.functions.push_back({fmt::format("{}/{}/{}", row.owner, row.app, row.function), std::move(row.per_minute)});
  }
  if (out.functions.empty()) throw InputError({source, 1, 0}, "", "no data rows after the header");
  return out;
}

Azure2019DurationReader::Azure2019DurationReader(std::istream& in, std::string source)
    : csv_(in, std::move(source)) {
  csv_.read_header("HashOwner,HashApp,HashFunction,Average,Count,Minimum,Maximum,percentile_Average_0,...");
  require_hash_columns(csv_, true);
  csv_.require_header_name(3, "Average");
  csv_.require_header_name(4, "Count");
  csv_.require_header_name(5, "Minimum");
  csv_.require_header_name(6, "Maximum");
  for (size_t k = 0; k < kAzure2019DurationPercentiles.size(); ++k) {
    csv_.require_header_name(7 + k, fmt::format("percentile_Average_{}", kAzure2019DurationPercentiles[k]));
  }
  if (csv_.header().size() != 14) throw csv_.error("", fmt::format("header has {} columns, expected 14", csv_.header().size()));
}

bool Azure2019DurationReader::next(Azure2019DurationRow& row) {
  if (!csv_.next_row()) return false;
  csv_.require_field_count(14);
  row.owner = csv_.parse_nonempty(0);
  row.app = csv_.parse_nonempty(1);
  row.function = csv_.parse_nonempty(2);
  row.average_ms = csv_.parse_nonnegative_double(3);
  row.count = csv_.parse_uint(4);
  row.minimum_ms = csv_.parse_nonnegative_double(5);
  row.maximum_ms = csv_.parse_nonnegative_double(6);
  for (size_t k = 0; k < row.percentile_ms.size(); ++k) row.percentile_ms[k] = csv_.parse_nonnegative_double(7 + k);
  return true;
}

std::vector<Azure2019DurationRow> read_azure2019_durations(const std::string& path) {
  std::ifstream in = open_trace_file(path);
  return read_azure2019_durations(in, path);
}

std::vector<Azure2019DurationRow> read_azure2019_durations(std::istream& in, const std::string& source) {
  Azure2019DurationReader reader(in, source);
  return read_all<Azure2019DurationRow>(reader, source);
}

Azure2019MemoryReader::Azure2019MemoryReader(std::istream& in, std::string source)
    : csv_(in, std::move(source)) {
  csv_.read_header("HashOwner,HashApp,[HashFunction,]SampleCount,AverageAllocatedMb,AverageAllocatedMb_pct1,...");
  has_function_ = csv_.header().size() > 2 && csv_.header()[2] == "HashFunction";
  require_hash_columns(csv_, has_function_);
  const size_t base = has_function_ ? 3 : 2;
  csv_.require_header_name(base, "SampleCount");
  csv_.require_header_name(base + 1, "AverageAllocatedMb");
  for (size_t k = 0; k < kAzure2019MemoryPercentiles.size(); ++k) {
    csv_.require_header_name(base + 2 + k, fmt::format("AverageAllocatedMb_pct{}", kAzure2019MemoryPercentiles[k]));
  }
  if (csv_.header().size() != base + 10) {
    throw csv_.error("", fmt::format("header has {} columns, expected {}", csv_.header().size(), base + 10));
  }
}

bool Azure2019MemoryReader::next(Azure2019MemoryRow& row) {
  if (!csv_.next_row()) return false;
  const size_t base = has_function_ ? 3 : 2;
  csv_.require_field_count(base + 10);
  row.owner = csv_.parse_nonempty(0);
  row.app = csv_.parse_nonempty(1);
  row.function = has_function_ ? std::string(csv_.parse_nonempty(2)) : std::string();
  row.sample_count = csv_.parse_uint(base);
  row.average_allocated_mb = csv_.parse_nonnegative_double(base + 1);
  for (size_t k = 0; k < row.percentile_mb.size(); ++k) {
    row.percentile_mb[k] = csv_.parse_nonnegative_double(base + 2 + k);
  }
  return true;
}

std::vector<Azure2019MemoryRow> read_azure2019_memory(const std::string& path) {
  std::ifstream in = open_trace_file(path);
  return read_azure2019_memory(in, path);
}

std::vector<Azure2019MemoryRow> read_azure2019_memory(std::istream& in, const std::string& source) {
  Azure2019MemoryReader reader(in, source);
  return read_all<Azure2019MemoryRow>(reader, source);
}

}  // namespace parallax
