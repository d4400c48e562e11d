// File: sim/report/activities_csv.h
// activities.csv: one row per ActivityRecord, in log order, with the unit in every column name
// (docs/metrics.md defines each column). Times are exact to the picosecond; the same log always
// gives the same bytes. Choosing which activities to record is left to the platform.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "sim/platform/activity_record.h"

namespace parallax {

// id,parent,kind,name,src,dst,partition,issued_s,start_s,end_s,duration_s,bytes,flops,
// throughput_GBps,route
const std::vector<std::string>& activities_csv_header();

// Writes the header and one row per record. Throws std::invalid_argument from check_activity_log
// (activity_log_check.h) before writing anything if the log is inconsistent.
void write_activities_csv(std::ostream& out, const ActivityLog& log);

// The same, into `path` through AtomicFileWriter.
void write_activities_csv_file(const std::filesystem::path& path, const ActivityLog& log);

}  // namespace parallax
