// File: sim/report/trace_event_writer.cpp
#include "sim/report/trace_event_writer.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "sim/report/fixed_decimal.h"

namespace parallax {

std::string json_string(std::string_view s) {
  // Fast path for the common case: printable ASCII with nothing to escape.
  const bool plain = std::all_of(s.begin(), s.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x80 && c != '"' && c != '\\';
  });
  if (plain) {
    std::string quoted;
    quoted.reserve(s.size() + 2);
    quoted.push_back('"');
    quoted.append(s);
    quoted.push_back('"');
    return quoted;
  }
  // nlohmann escapes quotes, backslashes and control characters and, with `replace`, turns invalid
  // UTF-8 into U+FFFD instead of throwing.
  return nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void TraceArgs::key(std::string_view k) {
  if (!body_.empty()) body_.push_back(',');
  body_ += json_string(k);
  body_.push_back(':');
}

TraceArgs& TraceArgs::integer(std::string_view k, int64_t value) {
  key(k);
  fmt::format_to(std::back_inserter(body_), "{}", value);
  return *this;
}

TraceArgs& TraceArgs::number(std::string_view k, double value) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(fmt::format("trace event argument {} is {}", k, value));
  }
  key(k);
  fmt::format_to(std::back_inserter(body_), "{}", value);
  return *this;
}

TraceArgs& TraceArgs::fixed(std::string_view k, double value, int decimals) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument(fmt::format("trace event argument {} is {}", k, value));
  }
  key(k);
  fmt::format_to(std::back_inserter(body_), "{:.{}f}", value, decimals);
  return *this;
}

TraceArgs& TraceArgs::text(std::string_view k, std::string_view value) {
  key(k);
  body_ += json_string(value);
  return *this;
}

TraceArgs& TraceArgs::object(std::string_view k, const TraceArgs& value) {
  key(k);
  body_ += value.json();
  return *this;
}

TraceEventWriter::TraceEventWriter(std::ostream& out) : out_(out) {
  fmt::format_to(std::back_inserter(buffer_), "{{\"traceEvents\":[");
}

void TraceEventWriter::begin_event(char phase, int pid, int tid, std::string_view name) {
  if (finished_) throw std::logic_error("TraceEventWriter: event after finish()");
  fmt::format_to(std::back_inserter(buffer_), "{}\n{{\"ph\":\"{}\",\"pid\":{},\"tid\":{},\"name\":{}",
                 events_ == 0 ? "" : ",", phase, pid, tid, json_string(name));
  ++events_;
}

void TraceEventWriter::end_event(const TraceArgs* args) {
  if (args != nullptr && !args->empty()) {
    fmt::format_to(std::back_inserter(buffer_), ",\"args\":{}", args->json());
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
  fmt::format_to(std::back_inserter(buffer_), ",\"cat\":{},\"ts\":{},\"dur\":{}", json_string(cat),
                 format_time_us(start), format_time_us(duration));
  end_event(&args);
}

void TraceEventWriter::async_begin(int pid, int tid, std::string_view cat, std::string_view name,
                                   uint64_t id, Time at, const TraceArgs& args) {
  begin_event('b', pid, tid, name);
  fmt::format_to(std::back_inserter(buffer_), ",\"cat\":{},\"id\":{},\"ts\":{}", json_string(cat), id,
                 format_time_us(at));
  end_event(&args);
}

void TraceEventWriter::async_end(int pid, int tid, std::string_view cat, std::string_view name,
                                 uint64_t id, Time at) {
  begin_event('e', pid, tid, name);
  fmt::format_to(std::back_inserter(buffer_), ",\"cat\":{},\"id\":{},\"ts\":{}", json_string(cat), id,
                 format_time_us(at));
  end_event(nullptr);
}

void TraceEventWriter::flow_start(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id,
                                  Time at) {
  begin_event('s', pid, tid, name);
  fmt::format_to(std::back_inserter(buffer_), ",\"cat\":{},\"id\":{},\"ts\":{}", json_string(cat), id,
                 format_time_us(at));
  end_event(nullptr);
}

void TraceEventWriter::flow_end(int pid, int tid, std::string_view cat, std::string_view name, uint64_t id,
                                Time at) {
  begin_event('f', pid, tid, name);
  fmt::format_to(std::back_inserter(buffer_), ",\"cat\":{},\"id\":{},\"ts\":{},\"bp\":\"e\"",
                 json_string(cat), id, format_time_us(at));
  end_event(nullptr);
}

void TraceEventWriter::counter(int pid, std::string_view name, Time at, const TraceArgs& args) {
  begin_event('C', pid, 0, name);
  fmt::format_to(std::back_inserter(buffer_), ",\"ts\":{}", format_time_us(at));
  end_event(&args);
}

void TraceEventWriter::global_instant(std::string_view name, Time at, const TraceArgs& args) {
  begin_event('i', 0, 0, name);
  fmt::format_to(std::back_inserter(buffer_), ",\"s\":\"g\",\"ts\":{}", format_time_us(at));
  end_event(&args);
}

void TraceEventWriter::finish(const TraceArgs& metadata) {
  if (finished_) throw std::logic_error("TraceEventWriter: finish() called twice");
  finished_ = true;
  fmt::format_to(std::back_inserter(buffer_), "\n],\n\"displayTimeUnit\":\"ns\"");
  if (!metadata.empty()) fmt::format_to(std::back_inserter(buffer_), ",\n\"metadata\":{}", metadata.json());
  fmt::format_to(std::back_inserter(buffer_), "\n}}\n");
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
  out_.flush();
}

}  // namespace parallax
