// File: tests/fuzz/fuzz_input.h
// What every fuzz target shares: the bytes libFuzzer hands over, written to a scratch file for the
// readers that take a path, and the rule that bad input may only end in parallax::InputError.
// Any other exception, a crash, a sanitizer report or a hang is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace parallax::fuzz {

// The input as text (it may hold any byte, NULs included).
inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Writes the input to one scratch file per process (under $TMPDIR, removed at exit) and returns
// its path. The trace readers open files by path, so every target that fuzzes one goes through it.
const std::string& write_scratch_file(const uint8_t* data, size_t size);

// Runs `parse`, swallowing InputError (the documented answer to bad input); everything else
// propagates, which libFuzzer reports as a crash ("uncaught exception") with the input saved.
template <class Parse>
void expect_only_input_errors(Parse&& parse);

}  // namespace parallax::fuzz

#include "sim/scenario/input_error.h"

template <class Parse>
void parallax::fuzz::expect_only_input_errors(Parse&& parse) {
  try {
    parse();
  } catch (const parallax::InputError&) {
  }
}
