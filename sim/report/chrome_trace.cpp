// File: sim/report/chrome_trace.cpp
#include "sim/report/chrome_trace.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "sim/report/activity_log_check.h"
#include "sim/report/atomic_file.h"
#include "sim/report/link_activity.h"
#include "sim/report/trace_event_writer.h"
#include "sim/report/trace_tracks.h"

namespace parallax {
namespace {

// The first max_records records by (start, id, position in the log).
std::vector<const ActivityRecord*> select_records(const ActivityLog& log, size_t max_records) {
  std::vector<const ActivityRecord*> selected;
  selected.reserve(log.records.size());
  for (const ActivityRecord& r : log.records) selected.push_back(&r);
  const auto by_start = [](const ActivityRecord* a, const ActivityRecord* b) {
    return std::tie(a->start, a->id) < std::tie(b->start, b->id);
  };
  std::stable_sort(selected.begin(), selected.end(), by_start);
  if (selected.size() > max_records) selected.resize(max_records);
  return selected;
}

// The slice's details pane; names and units as in activities.csv.
TraceArgs record_args(const ActivityRecord& r, size_t group_size) {
  TraceArgs args;
  args.integer("id", static_cast<int64_t>(r.id));
  if (r.parent != 0) args.integer("parent", static_cast<int64_t>(r.parent));
  const int64_t duration_ps = (r.end - r.start).ps();
  const double GBps = duration_ps > 0 ? r.bytes * 1e3 / static_cast<double>(duration_ps) : 0;
  switch (r.kind) {
    case ActivityKind::kernel:
      args.number("flops", r.flops);
      if (!r.partition.empty()) args.text("partition", r.partition);
      break;
    case ActivityKind::copy:
      args.number("bytes", r.bytes).text("src", r.src).text("dst", r.dst);
      if (duration_ps > 0) args.number("throughput_GBps", GBps);
      break;
    case ActivityKind::collective:
      args.number("bytes", r.bytes).integer("gpus", static_cast<int64_t>(group_size));
      if (duration_ps > 0) args.number("algbw_GBps", GBps);
      break;
  }
  return args;
}

void write_metadata(TraceEventWriter& w, const TraceTracks& tracks) {
  for (size_t p = 0; p < tracks.processes.size(); ++p) {
    const TraceProcess& process = tracks.processes[p];
    w.process_name(process.pid, process.name);
    w.process_sort_index(process.pid, static_cast<int>(p));
    for (size_t t = 0; t < process.threads.size(); ++t) {
      w.thread_name(process.pid, process.threads[t].tid, process.threads[t].name);
      w.thread_sort_index(process.pid, process.threads[t].tid, static_cast<int>(t));
    }
  }
}

void write_record(TraceEventWriter& w, const ActivityRecord& r, const std::vector<TracePlace>& places,
                  const TraceTracks& tracks) {
  const TraceArgs args = record_args(r, places.size());
  const char* cat = to_string(r.kind);
  if (r.kind == ActivityKind::collective) {
    for (const TracePlace& p : places) {
      w.async_begin(p.pid, p.tid, cat, r.name, r.id, r.start, args);
      w.async_end(p.pid, p.tid, cat, r.name, r.id, r.end);
    }
    return;
  }
  for (const TracePlace& p : places) w.complete(p.pid, p.tid, cat, r.name, r.start, r.end - r.start, args);
  if (r.kind == ActivityKind::kernel) return;
  for (size_t hop = 0; hop < r.links.size(); ++hop) {
    const int pid = tracks.link_pid[static_cast<size_t>(r.links[hop])];
    // Only what tells the flows apart: the details are on the GPU slices.
    const TraceArgs link_args = TraceArgs().integer("id", static_cast<int64_t>(r.id))
                                    .integer("hop", static_cast<int64_t>(hop));
    w.async_begin(pid, tracks.link_tid, cat, r.name, r.id, r.start, link_args);
    w.async_end(pid, tracks.link_tid, cat, r.name, r.id, r.end);
  }
}

// docs/metrics.md#link-counters
void write_link_counters(TraceEventWriter& w, const std::vector<LinkActivity>& activity,
                         const TraceTracks& tracks) {
  for (size_t link = 0; link < activity.size(); ++link) {
    const int pid = tracks.link_pid[link];
    if (pid == 0) continue;
    for (const LinkSample& s : activity[link].samples) {
      w.counter(pid, "active", s.at, TraceArgs().integer("flows", s.flows));
      w.counter(pid, "utilisation", s.at, TraceArgs().fixed("GB/s", s.rate_Bps * 1e-9, 3));
    }
  }
}

}  // namespace

ChromeTraceStats write_chrome_trace(std::ostream& out, const ActivityLog& log,
                                    const ChromeTraceOptions& options) {
  check_activity_log(log);
  const std::vector<const ActivityRecord*> records = select_records(log, options.max_records);
  const TraceTracks tracks = layout_trace_tracks(log, records);

  ChromeTraceStats stats;
  stats.records_total = log.records.size();
  stats.records_written = records.size();
  stats.truncated = records.size() < log.records.size();

  TraceEventWriter w(out);
  write_metadata(w, tracks);
  for (size_t i = 0; i < records.size(); ++i) write_record(w, *records[i], tracks.places[i], tracks);
  write_link_counters(w, link_activity(log, records), tracks);

  TraceArgs metadata;
  if (stats.truncated) {
    const std::string note = fmt::format(
        "trace truncated: only the first {} of {} activities by start time are shown (the "
        "max_records limit); activities.csv has all of them",
        stats.records_written, stats.records_total);
    w.global_instant(note, records.empty() ? Time::zero() : records.back()->start,
                     TraceArgs().integer("records_written", static_cast<int64_t>(stats.records_written))
                         .integer("records_total", static_cast<int64_t>(stats.records_total)));
    metadata.object("parallax", TraceArgs()
                                    .text("note", note)
                                    .integer("records_written", static_cast<int64_t>(stats.records_written))
                                    .integer("records_total", static_cast<int64_t>(stats.records_total)));
  }
  stats.events_written = w.events_written();
  w.finish(metadata);
  if (!out) throw std::runtime_error("trace.json: write failed");
  return stats;
}

ChromeTraceStats write_chrome_trace_file(const std::filesystem::path& path, const ActivityLog& log,
                                         const ChromeTraceOptions& options) {
  AtomicFileWriter file(path);
  const ChromeTraceStats stats = write_chrome_trace(file.stream(), log, options);
  file.commit();
  return stats;
}

}  // namespace parallax
