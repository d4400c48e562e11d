// File: sim/workload/workload_test_files.h
// Test support for sim/workload: the path of a shipped sample under the source tree (from
// PARALLAX_SOURCE_DIR, set by meson test), a scratch file with given bytes, and the what() text of
// the InputError a call throws. Included by the *_test.cpp files only.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "sim/io/input_error.h"

namespace parallax::testing_files {

inline std::string source_path(std::string_view relative) {
  const char* root = std::getenv("PARALLAX_SOURCE_DIR");
  return (std::filesystem::path(root ? root : ".") / relative).string();
}

// Writes `bytes` verbatim (binary: CRLF and BOM survive) to a file unique to this process.
inline std::string scratch_file(std::string_view name, std::string_view bytes) {
  const auto path = std::filesystem::path(::testing::TempDir()) /
                    ("parallax_workload_" + std::to_string(::getpid()) + "_" + std::string(name));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path.string();
}

// The message of the InputError `f` throws, or a note that it threw none.
template <typename F>
std::string input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError thrown)";
}

}  // namespace parallax::testing_files
