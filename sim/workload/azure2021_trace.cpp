// File: sim/workload/azure2021_trace.cpp
#include "sim/workload/azure2021_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "sim/workload/csv_reader.h"

namespace parallax {

TraceArrivals read_azure2021_trace(const std::string& path, size_t max_functions) {
  std::ifstream in = open_trace_file(path);
  return read_azure2021_trace(in, path, max_functions);
}

TraceArrivals read_azure2021_trace(std::istream& in, const std::string& source, size_t max_functions) {
  CsvReader csv(in, source);
  csv.read_header("app,func,end_timestamp,duration");
  csv.require_header_name(0, "app");
  csv.require_header_name(1, "func");
  csv.require_header_name(2, "end_timestamp");
  csv.require_header_name(3, "duration");
  if (csv.header().size() != 4) throw csv.error("", fmt::format("header has {} columns, expected 4", csv.header().size()));

  TraceArrivals out;
  std::unordered_map<std::string, uint32_t> index_of;
  std::string key;
  size_t rows = 0;
  while (csv.next_row()) {
    csv.require_field_count(4);
    ++rows;
    key.assign(csv.parse_nonempty(0));
    key.push_back('/');
    key.append(csv.parse_nonempty(1));
    const Time end = csv.parse_seconds(2);
    const Time duration = csv.parse_seconds(3);
    if (duration > end) {
      throw csv.column_error(3, fmt::format("duration {} s exceeds end_timestamp {} s: the invocation would start "
                                            "before the trace", csv.field(3), csv.field(2)));
    }
    auto it = index_of.find(key);
    if (it == index_of.end()) {
      if (out.function_names.size() >= max_functions) continue;
      it = index_of.emplace(key, static_cast<uint32_t>(out.function_names.size())).first;
      out.function_names.push_back(key);
    }
    out.arrivals.push_back(Arrival{.at = end - duration, .function = it->second, .recorded_duration = duration});
  }
  if (rows == 0) throw csv.error("", "no data rows after the header");
  std::stable_sort(out.arrivals.begin(), out.arrivals.end(),
                   [](const Arrival& a, const Arrival& b) { return a.at < b.at; });
  return out;
}

}  // namespace parallax
