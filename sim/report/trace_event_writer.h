// File: sim/report/trace_event_writer.h
// Streams a Chrome trace event file ({"traceEvents":[...],"displayTimeUnit":"ns"}) one event at a
// time, so a trace of millions of slices never sits in memory as a JSON tree. Timestamps are exact
// decimal microseconds from integer picoseconds ("ts":1.234567). Which events to write, and on
// which process and thread, is chrome_trace.cpp's business.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "sim/engine/sim_time.h"

namespace parallax {

// The "args" object of one event, built key by key: TraceArgs().integer("id", 7).text("src", "gpu0").
class TraceArgs {
 public:
  TraceArgs& integer(std::string_view key, int64_t value);
  // Shortest round-trip text. Throws std::invalid_argument for NaN or infinity.
  TraceArgs& number(std::string_view key, double value);
  // Fixed number of decimals, for values whose noise nobody wants to read (GB/s).
  TraceArgs& fixed(std::string_view key, double value, int decimals);
  TraceArgs& text(std::string_view key, std::string_view value);
  TraceArgs& object(std::string_view key, const TraceArgs& value);

  bool empty() const { return body_.empty(); }
  std::string json() const { return "{" + body_ + "}"; }

 private:
  friend class TraceEventWriter;  // appends body_ in place of json()'s copy
  void key(std::string_view k);
  std::string body_;
};

// A JSON string literal with quotes, escapes and invalid UTF-8 replaced by U+FFFD.
std::string json_string(std::string_view s);

class TraceEventWriter {
 public:
  // Writes the opening of the file.
  explicit TraceEventWriter(std::ostream& out);
  TraceEventWriter(const TraceEventWriter&) = delete;
  TraceEventWriter& operator=(const TraceEventWriter&) = delete;

  // "M" events.
  void process_name(int pid, std::string_view name);
  void process_sort_index(int pid, int index);
  void thread_name(int pid, int tid, std::string_view name);
  void thread_sort_index(int pid, int tid, int index);

  // "X": a slice on one thread; slices on a thread must nest.
  void complete(int pid, int tid, std::string_view cat, std::string_view name, Time start,
                Time duration, const TraceArgs& args);
  // "b"/"e": an async slice, matched by (pid, cat, id); these may overlap freely.
  void async_begin(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id,
                   Time at, const TraceArgs& args);
  void async_end(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id, Time at);
  // "s" / "f": one flow arrow, matched by (cat, name, id). The start binds to the slice enclosing
  // `at` on (pid, tid); the end ("bp":"e") to the slice enclosing its `at` on its thread.
  void flow_start(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id, Time at);
  void flow_end(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id, Time at);
  // "C": Perfetto names the track "<name> <arg key>" for each key of args.
  void counter(int pid, std::string_view name, Time at, const TraceArgs& args);
  // "i" with global scope: a vertical line across the whole timeline.
  void global_instant(std::string_view name, Time at, const TraceArgs& args);

  // Closes the event array, adds "displayTimeUnit":"ns" and, when not empty, a top-level
  // "metadata" object, then flushes. No event may follow.
  void finish(const TraceArgs& metadata);

  uint64_t events_written() const { return events_; }

 private:
  void begin_event(char phase, int pid, int tid, std::string_view name);
  // ,"cat":<cat>,"id":<id>,"ts":<at>: what async and flow events carry.
  void cat_id_ts(std::string_view cat, uint64_t id, Time at);
  void end_event(const TraceArgs* args);
  void flush_if_large();

  std::ostream& out_;
  fmt::memory_buffer buffer_;
  uint64_t events_ = 0;
  bool finished_ = false;
};

}  // namespace parallax
