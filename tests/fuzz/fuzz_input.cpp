// File: tests/fuzz/fuzz_input.cpp
#include "tests/fuzz/fuzz_input.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace parallax::fuzz {

namespace {

// Owns the scratch file's name; the file goes when the process ends normally.
struct ScratchFile {
  std::string path;
  ScratchFile() {
    path = (std::filesystem::temp_directory_path() / ("parallax-fuzz-" + std::to_string(::getpid()))).string();
  }
  ~ScratchFile() { std::remove(path.c_str()); }
};

}  // namespace

const std::string& write_scratch_file(const uint8_t* data, size_t size) {
  static const ScratchFile scratch;
  std::FILE* f = std::fopen(scratch.path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot create " + scratch.path);
  const bool ok = std::fwrite(data, 1, size, f) == size;
  if (std::fclose(f) != 0 || !ok) throw std::runtime_error("cannot write " + scratch.path);
  return scratch.path;
}

}  // namespace parallax::fuzz
