// File: sim/io/input_file.cpp
#include "sim/io/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace parallax {

namespace {


std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// stat() does not open, so a FIFO is named, not waited on.
struct stat stat_input(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    throw InputFileError(path, errno_reason(err));
  }
  if (!S_ISREG(st.st_mode))
    throw InputFileError(path, "is " + std::string(file_kind_name(st.st_mode)) + ", not a regular file: inputs are read only from regular files");
  return st;
}

}  // namespace

std::string errno_reason(int err) {
  std::string r = std::strerror(err != 0 ? err : EIO);
  if (!r.empty() && r[0] >= 'A' && r[0] <= 'Z') r[0] = static_cast<char>(r[0] - 'A' + 'a');
  return r;
}

std::string_view file_kind_name(unsigned mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "an unknown kind of file";
}

void require_input_file(const std::string& path) { stat_input(path); }

std::ifstream open_input_stream(const std::string& path) {
  stat_input(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw InputFileError(path, errno_reason(err != 0 ? err : EACCES));
  }
  return in;
}

std::string read_input_file(const std::string& path, uint64_t limit) {
  const struct stat st = stat_input(path);
  const auto too_large = [&] {
    return InputFileError(path, "larger than " + mib(limit) + ", the limit for an input file (docs/reliability.md)");
  };
  if (static_cast<uint64_t>(st.st_size) > limit) throw too_large();
  std::ifstream in = open_input_stream(path);
  // Read straight into the string, the size stat() gave, then whatever more there is (a file
  // that grew meanwhile, or one whose size stat() does not know) through a small stack buffer:
  // no zeroed 64 KiB chunk (16 page faults a file on this project's VM).
  std::string text(static_cast<size_t>(st.st_size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  char more[4096];
  while (in) {
    in.read(more, sizeof more);
    const auto got = static_cast<size_t>(in.gcount());
    if (text.size() + got > limit) throw too_large();
    text.append(more, got);
  }
  if (in.bad()) throw InputFileError(path, "read failed");
  return text;
}

LineRead read_bounded_line(std::istream& in, std::string& line, size_t max_bytes) {
  line.clear();
  std::streambuf* buf = in.rdbuf();
  bool any = false;
  for (;;) {
    const int c = buf->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any ? LineRead::line : LineRead::end;
    }
    any = true;
    if (c == '\n') return LineRead::line;
    if (line.size() == max_bytes) {
      line.clear();
      return LineRead::too_long;
    }
    line.push_back(static_cast<char>(c));
  }
}

}  // namespace parallax
