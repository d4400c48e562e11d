// File: sim/report/chrome_trace.cpp
#include "sim/report/chrome_trace.h"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <fmt/format.h>

#include "sim/report/activity_log_check.h"
#include "sim/report/atomic_file.h"
#include "sim/report/link_activity.h"
#include "sim/report/trace_event_writer.h"
#include "sim/report/trace_tracks.h"

namespace parallax {
namespace {

// The first max_records records by (start, id, position in the log); 0 = all.
std::vector<const ActivityRecord*> select_records(const ActivityLog& log, size_t max_records) {
  std::vector<const ActivityRecord*> selected;
  selected.reserve(log.records.size());
  for (const ActivityRecord& r : log.records) selected.push_back(&r);
  const auto by_start = [](const ActivityRecord* a, const ActivityRecord* b) {
    return std::tie(a->start, a->id) < std::tie(b->start, b->id);
  };
  std::stable_sort(selected.begin(), selected.end(), by_start);
  if (max_records > 0 && selected.size() > max_records) selected.resize(max_records);
  return selected;
}

// The annotations a cut trace keeps: counter samples and requests before `cut` (the start of the
// first activity left out), so that the limit bounds the whole file, not just the slices; and the
// args of the activities written (only those are ever looked up: a colocation run's 175,000
// copied for a trace of 20,000 were 35 MB).
TraceAnnotations annotations_before(const TraceAnnotations& a, Time cut, std::span<const ActivityRecord* const> written) {
  TraceAnnotations kept;
  std::unordered_set<uint64_t> ids;
  ids.reserve(written.size());
  for (const ActivityRecord* r : written) ids.insert(r->id);
  for (const TraceActivityArgs& x : a.activity_args)
    if (ids.contains(x.activity)) kept.activity_args.push_back(x);
  kept.phases = a.phases;
  for (const TraceCounter& c : a.counters) {
    TraceCounter k{c.node, c.name, c.unit, {}};
    for (const TraceCounterSample& x : c.samples)
      if (x.at < cut) k.samples.push_back(x);
    kept.counters.push_back(std::move(k));
  }
  for (const TraceRequest& q : a.requests)
    if (q.arrival < cut) kept.requests.push_back(q);
  return kept;
}

// A copy's arrow from its slice on the source ("copies out") to its slice on the destination
// ("copies in"), both at its start; ids are the record's, in their own category.
void write_copy_flow(TraceEventWriter& w, const ActivityRecord& r, const std::vector<TracePlace>& places) {
  w.flow_start(places[0].pid, places[0].tid, "copy", r.name, r.id, r.start);
  w.flow_end(places[1].pid, places[1].tid, "copy", r.name, r.id, r.start);
}

void write_phases(TraceEventWriter& w, const TraceAnnotations& a, const TraceTracks& tracks) {
  for (size_t i = 0; i < a.phases.size(); ++i) {
    const TracePhase& p = a.phases[i];
    w.complete(tracks.phase_places[i].pid, tracks.phase_places[i].tid, "phase", p.name, p.start, p.end - p.start,
               TraceArgs().number("duration_s", (p.end - p.start).to_seconds()));
  }
}

// The slice's details pane; names and units as in activities.csv, then the annotations' numbers.
TraceArgs record_args(const ActivityRecord& r, size_t group_size, const TraceActivityArgs* extra) {
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
  if (extra != nullptr)
    for (const auto& [key, value] : extra->numbers) args.number(key, value);
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
                  const TraceTracks& tracks, const TraceActivityArgs* extra) {
  const TraceArgs args = record_args(r, places.size(), extra);
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
void write_link_counters(TraceEventWriter& w, const ActivityLog& log, const std::vector<LinkActivity>& activity,
                         const TraceTracks& tracks) {
  for (size_t link = 0; link < activity.size(); ++link) {
    const int pid = tracks.link_pid[link];
    if (pid == 0) continue;
    const double capacity = log.link_directions[link].bandwidth_Bps;
    for (const LinkSample& s : activity[link].samples) {
      w.counter(pid, "active", s.at, TraceArgs().integer("flows", s.flows));
      TraceArgs rate = TraceArgs().fixed("GB/s", s.rate_Bps * 1e-9, 3);
      if (capacity > 0) rate.fixed("%", 100 * s.rate_Bps / capacity, 2);
      w.counter(pid, "utilisation", s.at, rate);
    }
  }
}

void check_annotations(const TraceAnnotations& a) {
  for (const TraceCounter& c : a.counters) {
    if (c.unit.empty()) throw std::invalid_argument("trace counter '" + c.name + "': empty unit");
    for (size_t i = 1; i < c.samples.size(); ++i)
      if (c.samples[i].at < c.samples[i - 1].at)
        throw std::invalid_argument("trace counter '" + c.name + "': samples out of time order");
  }
  for (const TraceRequest& q : a.requests)
    if (q.finish < q.arrival) throw std::invalid_argument("trace request '" + q.name + "': finish before arrival");
  for (const TracePhase& p : a.phases)
    if (p.end < p.start) throw std::invalid_argument("trace phase '" + p.name + "': end before start");
  std::unordered_map<uint64_t, int> seen;
  for (const TraceActivityArgs& x : a.activity_args)
    if (++seen[x.activity] > 1)
      throw std::invalid_argument(fmt::format("trace activity args: activity {} listed twice", x.activity));
}

// Request slices, then one arrow per (request, written activity): from the request's slice at its
// arrival to the activity's first slice at its start. Arrow ids count from 1 in request order.
uint64_t write_requests(TraceEventWriter& w, const TraceAnnotations& a, const TraceTracks& tracks,
                        std::span<const ActivityRecord* const> records) {
  std::unordered_map<uint64_t, size_t> written;  // activity id -> position in records
  for (size_t i = 0; i < records.size(); ++i) written.emplace(records[i]->id, i);
  uint64_t arrows = 0;
  for (size_t i = 0; i < a.requests.size(); ++i) {
    const TraceRequest& q = a.requests[i];
    const TracePlace& at = tracks.request_places[i];
    w.complete(at.pid, at.tid, "request", q.name, q.arrival, q.finish - q.arrival,
               TraceArgs().integer("activities", static_cast<int64_t>(q.activities.size())));
    for (uint64_t id : q.activities) {
      const auto it = written.find(id);
      if (it == written.end() || tracks.places[it->second].empty()) continue;
      const ActivityRecord& r = *records[it->second];
      const TracePlace& to = tracks.places[it->second].front();
      ++arrows;
      w.flow_start(at.pid, at.tid, "request", q.name, arrows, q.arrival);
      w.flow_end(to.pid, to.tid, "request", q.name, arrows, r.start);
    }
  }
  return arrows;
}

void write_annotation_counters(TraceEventWriter& w, const TraceAnnotations& a, const TraceTracks& tracks) {
  for (const TraceCounter& c : a.counters) {
    const int pid = tracks.node_pid.at(c.node);
    for (const TraceCounterSample& s : c.samples) w.counter(pid, c.name, s.at, TraceArgs().number(c.unit, s.value));
  }
}

}  // namespace

ChromeTraceStats write_chrome_trace(std::ostream& out, const ActivityLog& log,
                                    const ChromeTraceOptions& options, const TraceAnnotations& all_annotations) {
  check_activity_log(log);
  check_annotations(all_annotations);
  const std::vector<const ActivityRecord*> records = select_records(log, options.max_records);

  ChromeTraceStats stats;
  stats.records_total = log.records.size();
  stats.records_written = records.size();
  stats.truncated = records.size() < log.records.size();
  // The first activity left out (by start, as select_records orders them) marks the cut.
  Time cut;
  if (stats.truncated) {
    cut = Time::max();
    for (const ActivityRecord& r : log.records)
      if (std::tie(r.start, r.id) > std::tie(records.back()->start, records.back()->id)) cut = std::min(cut, r.start);
  }
  const TraceAnnotations cut_notes = stats.truncated ? annotations_before(all_annotations, cut, records) : TraceAnnotations{};
  const TraceAnnotations& annotations = stats.truncated ? cut_notes : all_annotations;
  const TraceTracks tracks = layout_trace_tracks(log, records, annotations);

  TraceEventWriter w(out);
  write_metadata(w, tracks);
  write_phases(w, annotations, tracks);
  std::unordered_map<uint64_t, const TraceActivityArgs*> extra;
  for (const TraceActivityArgs& x : annotations.activity_args) extra.emplace(x.activity, &x);
  for (size_t i = 0; i < records.size(); ++i) {
    const auto it = extra.find(records[i]->id);
    write_record(w, *records[i], tracks.places[i], tracks, it == extra.end() ? nullptr : it->second);
    if (records[i]->kind == ActivityKind::copy && tracks.places[i].size() == 2 && records[i]->end > records[i]->start) {
      write_copy_flow(w, *records[i], tracks.places[i]);
      ++stats.copy_flows_written;
    }
  }
  write_link_counters(w, log, link_activity(log, records), tracks);
  stats.flows_written = write_requests(w, annotations, tracks, records);
  write_annotation_counters(w, annotations, tracks);

  TraceArgs metadata;
  if (stats.truncated) {
    const std::string note = fmt::format(
        "trace truncated at {:.9g} s: only the first {} of {} activities by start time, and the counters and "
        "requests before that time, are shown (output.trace_limit; 0 = no limit); the CSV tables (activities.csv, kernels.csv) are never cut",
        cut.to_seconds(), stats.records_written, stats.records_total);
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
                                         const ChromeTraceOptions& options, const TraceAnnotations& annotations) {
  AtomicFileWriter file(path);
  const ChromeTraceStats stats = write_chrome_trace(file.stream(), log, options, annotations);
  file.commit();
  return stats;
}

}  // namespace parallax
