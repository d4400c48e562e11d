// File: tests/fuzz/fuzz_input.h
// What every fuzz target shares: the bytes libFuzzer hands over (as text, as an in-memory stream for
// the trace readers, or written to a scratch file for load_trace, which takes a path), and the rule
// that bad input may only end in parallax::InputError.
// Any other exception, a crash, a sanitizer report or a hang is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

namespace parallax::fuzz {

// The input as text (it may hold any byte, NULs included).
inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input as a stream, for the trace readers' stream overloads: the same parser as for a file,
// without a file written and opened per input (several times faster; docs/reliability.md).
inline std::istringstream as_stream(const uint8_t* data, size_t size) {
  return std::istringstream(std::string(as_text(data, size)), std::ios::binary);
}

// Writes the input to one scratch file per process (under $TMPDIR, removed at exit) and returns
// its path, for load_trace, whose TraceSpec names a file.
const std::string& write_scratch_file(const uint8_t* data, size_t size);

// Runs `parse`, swallowing InputError (the documented answer to bad input); everything else
// propagates, which libFuzzer reports as a crash ("uncaught exception") with the input saved.
template <class Parse>
void expect_only_input_errors(Parse&& parse);

}  // namespace parallax::fuzz

#include "sim/io/input_error.h"

template <class Parse>
void parallax::fuzz::expect_only_input_errors(Parse&& parse) {
  try {
    parse();
  } catch (const parallax::InputError&) {
  }
}
