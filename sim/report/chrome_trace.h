// File: sim/report/chrome_trace.h
// trace.json: an ActivityLog as a Chrome trace event file that Perfetto (ui.perfetto.dev) and
// chrome://tracing open. One process per GPU, per other node and per link direction; slices for
// kernels and copies, async slices for collectives and for flows on links, and two counters per
// link. docs/metrics.md lists every track; trace_tracks.h has the thread layout and lane rule.
// Deciding which activities are recorded is left to the platform.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <ostream>

#include "sim/platform/activity_record.h"

namespace parallax {

struct ChromeTraceOptions {
  // Above this many records, only the first max_records by (start, id) are written, and the file
  // says so (a global instant event and the top-level "metadata"); the returned stats too.
  size_t max_records = 2'000'000;
};

struct ChromeTraceStats {
  size_t records_total = 0;
  size_t records_written = 0;
  bool truncated = false;
  uint64_t events_written = 0;
};

// Throws std::invalid_argument (check_activity_log) before writing anything if the log is
// inconsistent. The same log and options always give the same bytes.
ChromeTraceStats write_chrome_trace(std::ostream& out, const ActivityLog& log,
                                    const ChromeTraceOptions& options = {});

// The same, into `path` through AtomicFileWriter.
ChromeTraceStats write_chrome_trace_file(const std::filesystem::path& path, const ActivityLog& log,
                                         const ChromeTraceOptions& options = {});

}  // namespace parallax
