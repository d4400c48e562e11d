// File: sim/report/trace_event_writer.cpp
#include "sim/report/trace_event_writer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include <fmt/compile.h>
#include <nlohmann/json.hpp>

#include "sim/report/fixed_decimal.h"

namespace parallax {

// The writer appends its text piece by piece: a runtime format string was parsed at every event,
// and its pieces (a quoted name, two timestamps, the args' braces) were strings of their own
// (the quickstart's trace of 1,400 events took 15 M instructions, two thirds of the whole run).
// The bytes are the same.
namespace {

// Printable ASCII with nothing to escape: quoted as it is.
bool plain_json(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
}

// nlohmann escapes quotes, backslashes and control characters and, with `replace`, turns invalid
// UTF-8 into U+FFFD instead of throwing.
std::string escaped_json(std::string_view s) {
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename Out>
void put(Out& out, std::string_view s) {
  out.append(s.data(), s.data() + s.size());
}

// A TraceArgs body as the JSON object it is.
template <typename Out>
void put_object(Out& out, std::string_view body) {
  out.push_back('{');
  put(out, body);
  out.push_back('}');
}

template <typename Out>
void put_json_string(Out& out, std::string_view s) {
  if (!plain_json(s)) return put(out, escaped_json(s));
  out.push_back('"');
  put(out, s);
  out.push_back('"');
}

template <typename Out, typename Int>
void put_integer(Out& out, Int value) {
  char text[24];
  out.append(text, std::to_chars(text, text + sizeof text, value).ptr);
}

template <typename Out>
void put_time_us(Out& out, Time t) {
  char text[kScaledIntegerChars];
  out.append(text, write_scaled_integer(text, t.ps(), 6));
}

}  // namespace

std::string json_string(std::string_view s) {
  std::string quoted;
  put_json_string(quoted, s);
  return quoted;
}

void TraceArgs::key(std::string_view k) {
  if (!body_.empty()) body_.push_back(',');
  put_json_string(body_, k);
  body_.push_back(':');
}

TraceArgs& TraceArgs::integer(std::string_view k, int64_t value) {
  key(k);
  put_integer(body_, value);
  return *this;
}

TraceArgs& TraceArgs::number(std::string_view k, double value) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(fmt::format("trace event argument {} is {}", k, value));
  }
  key(k);
  fmt::format_to(std::back_inserter(body_), FMT_COMPILE("{}"), value);
  return *this;
}

TraceArgs& TraceArgs::fixed(std::string_view k, double value, int decimals) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(fmt::format("trace event argument {} is {}", k, value));
  }
  key(k);
  // Correctly rounded from the double's exact value, as fmt's "{:.Nf}" is (the same text, a
  // third of the instructions); a value too long for the buffer goes through fmt.
  char text[128];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, decimals);
  if (ec == std::errc()) body_.append(text, end);
  else fmt::format_to(std::back_inserter(body_), "{:.{}f}", value, decimals);
  return *this;
}

TraceArgs& TraceArgs::text(std::string_view k, std::string_view value) {
  key(k);
  put_json_string(body_, value);
  return *this;
}

TraceArgs& TraceArgs::object(std::string_view k, const TraceArgs& value) {
  key(k);
  put_object(body_, value.body_);
  return *this;
}

TraceEventWriter::TraceEventWriter(std::ostream& out) : out_(out) { put(buffer_, "{\"traceEvents\":["); }

void TraceEventWriter::begin_event(char phase, int pid, int tid, std::string_view name) {
  if (finished_) throw std::logic_error("TraceEventWriter: event after finish()");
  if (events_ != 0) buffer_.push_back(',');
  put(buffer_, "\n{\"ph\":\"");
  buffer_.push_back(phase);
  put(buffer_, "\",\"pid\":");
  put_integer(buffer_, pid);
  put(buffer_, ",\"tid\":");
  put_integer(buffer_, tid);
  put(buffer_, ",\"name\":");
  put_json_string(buffer_, name);
  ++events_;
}

void TraceEventWriter::cat_id_ts(std::string_view cat, uint64_t id, Time at) {
  put(buffer_, ",\"cat\":");
  put_json_string(buffer_, cat);
  put(buffer_, ",\"id\":");
  put_integer(buffer_, id);
  put(buffer_, ",\"ts\":");
  put_time_us(buffer_, at);
}

void TraceEventWriter::end_event(const TraceArgs* args) {
  if (args != nullptr && !args->empty()) {
    put(buffer_, ",\"args\":");
    put_object(buffer_, args->body_);
  }
  buffer_.push_back('}');
  flush_if_large();
}

void TraceEventWriter::flush_if_large() {
  if (buffer_.size() < (1u << 16)) return;
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void TraceEventWriter::process_name(int pid, std::string_view name) {
  begin_event('M', pid, 0, "process_name");
  const TraceArgs args = TraceArgs().text("name", name);
  end_event(&args);
}

void TraceEventWriter::process_sort_index(int pid, int index) {
  begin_event('M', pid, 0, "process_sort_index");
  const TraceArgs args = TraceArgs().integer("sort_index", index);
  end_event(&args);
}

void TraceEventWriter::thread_name(int pid, int tid, std::string_view name) {
  begin_event('M', pid, tid, "thread_name");
  const TraceArgs args = TraceArgs().text("name", name);
  end_event(&args);
}

void TraceEventWriter::thread_sort_index(int pid, int tid, int index) {
  begin_event('M', pid, tid, "thread_sort_index");
  const TraceArgs args = TraceArgs().integer("sort_index", index);
  end_event(&args);
}

void TraceEventWriter::complete(int pid, int tid, std::string_view cat, std::string_view name,
                                Time start, Time duration, const TraceArgs& args) {
  begin_event('X', pid, tid, name);
  put(buffer_, ",\"cat\":");
  put_json_string(buffer_, cat);
  put(buffer_, ",\"ts\":");
  put_time_us(buffer_, start);
  put(buffer_, ",\"dur\":");
  put_time_us(buffer_, duration);
  end_event(&args);
}

void TraceEventWriter::async_begin(int pid, int tid, std::string_view cat, std::string_view name,
                                   uint64_t id, Time at, const TraceArgs& args) {
  begin_event('b', pid, tid, name);
  cat_id_ts(cat, id, at);
  end_event(&args);
}

void TraceEventWriter::async_end(int pid, int tid, std::string_view cat, std::string_view name,
                                 uint64_t id, Time at) {
  begin_event('e', pid, tid, name);
  cat_id_ts(cat, id, at);
  end_event(nullptr);
}

void TraceEventWriter::flow_start(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id,
                                  Time at) {
  begin_event('s', pid, tid, name);
  cat_id_ts(cat, id, at);
  end_event(nullptr);
}

void TraceEventWriter::flow_end(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id,
                                Time at) {
  begin_event('f', pid, tid, name);
  cat_id_ts(cat, id, at);
  put(buffer_, ",\"bp\":\"e\"");
  end_event(nullptr);
}

void TraceEventWriter::counter(int pid, std::string_view name, Time at, const TraceArgs& args) {
  begin_event('C', pid, 0, name);
  put(buffer_, ",\"ts\":");
  put_time_us(buffer_, at);
  end_event(&args);
}

void TraceEventWriter::global_instant(std::string_view name, Time at, const TraceArgs& args) {
  begin_event('i', 0, 0, name);
  put(buffer_, ",\"s\":\"g\",\"ts\":");
  put_time_us(buffer_, at);
  end_event(&args);
}

void TraceEventWriter::finish(const TraceArgs& metadata) {
  if (finished_) throw std::logic_error("TraceEventWriter: finish() called twice");
  finished_ = true;
  put(buffer_, "\n],\n\"displayTimeUnit\":\"ns\"");
  if (!metadata.empty()) {
    put(buffer_, ",\n\"metadata\":");
    put_object(buffer_, metadata.body_);
  }
  put(buffer_, "\n}\n");
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  out_.flush();
}

}  // namespace parallax
