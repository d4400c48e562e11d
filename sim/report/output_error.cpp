// File: sim/report/output_error.cpp
#include "sim/report/output_error.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>

#include <fmt/format.h>
#include <fmt/std.h>

#include "sim/io/input_file.h"

namespace parallax {

OutputError output_error(std::string_view what, const std::filesystem::path& path, int err) {
  return OutputError(fmt::format("{} {}: {}", what, path, errno_reason(err)));
}

void require_writable_target(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;  // a new path (or one stat cannot see: the open says why)
  if (S_ISREG(st.st_mode)) return;
  throw OutputError(fmt::format("cannot write {}: it is {}; outputs go only to regular files or new paths", path,
                                file_kind_name(st.st_mode)));
}

void flush_standard_output() {
  errno = 0;
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  if (failed) throw OutputError(fmt::format("cannot write the results to standard output: {}", errno_reason(errno)));
}

}  // namespace parallax
