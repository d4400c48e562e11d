// File: sim/report/activities_csv.cpp
#include "sim/report/activities_csv.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include "sim/report/activity_log_check.h"
#include "sim/report/atomic_file.h"
#include "sim/report/csv_row.h"
#include "sim/report/fixed_decimal.h"

namespace parallax {
namespace {

// Shortest text that reads back to the same double; integral values print without ".0".
std::string format_count(double v) { return fmt::format(FMT_COMPILE("{}"), v); }

// docs/metrics.md#throughput_gbps: bytes / duration_s / 1e9, empty for kernels and zero durations.
std::string format_throughput(const ActivityRecord& r) {
  const int64_t duration_ps = (r.end - r.start).ps();
  if (r.kind == ActivityKind::kernel || duration_ps <= 0) return {};
  // bytes / (ps * 1e-12 s) / 1e9 = bytes * 1e3 / ps
  return fmt::format(FMT_COMPILE("{}"), r.bytes * 1e3 / static_cast<double>(duration_ps));
}

std::string format_route(const ActivityRecord& r, const ActivityLog& log) {
  std::string route;
  for (int link : r.links) {
    if (!route.empty()) route.push_back(' ');
    route += log.link_directions[static_cast<size_t>(link)].name;
  }
  return route;
}

}  // namespace

const std::vector<std::string>& activities_csv_header() {
  static const std::vector<std::string> header = {
      "id",      "parent",  "kind",  "name",       "src",   "dst",   "partition",       "issued_s",
      "start_s", "end_s",   "duration_s", "bytes", "flops", "throughput_GBps", "route"};
  return header;
}

void write_activities_csv(std::ostream& out, const ActivityLog& log) {
  check_activity_log(log);
  write_csv_row(out, activities_csv_header());
  std::vector<std::string> row;
  for (const ActivityRecord& r : log.records) {
    row.clear();
    row.push_back(fmt::format(FMT_COMPILE("{}"), r.id));
    row.push_back(fmt::format(FMT_COMPILE("{}"), r.parent));
    row.emplace_back(to_string(r.kind));
    row.push_back(r.name);
    row.push_back(r.src);
    row.push_back(r.dst);
    row.push_back(r.partition);
    row.push_back(format_time_s(r.issued));
    row.push_back(format_time_s(r.start));
    row.push_back(format_time_s(r.end));
    row.push_back(format_time_s(r.end - r.start));
    row.push_back(format_count(r.bytes));
    row.push_back(format_count(r.flops));
    row.push_back(format_throughput(r));
    row.push_back(format_route(r, log));
    write_csv_row(out, row);
  }
}

void write_activities_csv_file(const std::filesystem::path& path, const ActivityLog& log) {
  AtomicFileWriter file(path);
  write_activities_csv(file.stream(), log);
  file.commit();
}

}  // namespace parallax
