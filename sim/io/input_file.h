// File: sim/io/input_file.h
// The one way parallax opens an input file: scenario, sweep and calibration YAML, trace and
// transfer CSVs, measurement CSVs, nccl-tests logs, summary.json and the sweep manifest. Only
// regular files are read (after links): a FIFO would block the open forever, /dev/zero would be
// read without end and a directory has no text, so each is refused with a message that says what
// it is. Whole-file reads stop at kMaxInputFileBytes and streamed lines at kMaxInputLineBytes, so
// memory stays bounded by these limits whatever the file holds (docs/reliability.md "Bounded
// inputs"). Depends on nothing else in parallax, so models/ may use it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <istream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace parallax {

// The largest file read whole (YAML, measurement CSVs, nccl-tests logs, JSON, the sweep manifest).
inline constexpr uint64_t kMaxInputFileBytes = uint64_t{256} << 20;
// The longest line a streamed CSV reader (traces, transfers) takes.
inline constexpr size_t kMaxInputLineBytes = size_t{1} << 20;

// A file that cannot be read as input: what() is "PATH: REASON". The command line prints it and
// exits 2; readers that know where the path was given cite it there with reason().
class InputFileError : public std::runtime_error {
 public:
  InputFileError(const std::string& path, std::string reason)
      : std::runtime_error(path + ": " + reason), reason_(std::move(reason)) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// strerror(err) with a lower-case first letter, to end a sentence: ENOSPC gives "no space left on
// device"; 0 gives EIO's text (a stream that failed without saying why).
std::string errno_reason(int err);

// What stat()'s st_mode says a path is, for messages: "a directory", "a FIFO (pipe)", "a character
// device", ... (the output writers use it too).
std::string_view file_kind_name(unsigned mode);

// Throws InputFileError unless `path` is a regular file that can be opened for reading.
void require_input_file(const std::string& path);

// The whole file. Throws InputFileError when it is not a regular file, cannot be read or is over
// `limit` bytes (checked before reading and while reading, for a file that grows).
std::string read_input_file(const std::string& path, uint64_t limit = kMaxInputFileBytes);

// A stream over a regular file, for the line readers (require_input_file, then an ifstream).
std::ifstream open_input_stream(const std::string& path);

enum class LineRead : uint8_t { line, end, too_long };

// One line without its '\n', like std::getline, but at most `max_bytes`: a longer line gives
// too_long after reading max_bytes + 1 bytes of it (the rest is not read; `line` is cleared).
// `end` when nothing is left.
LineRead read_bounded_line(std::istream& in, std::string& line, size_t max_bytes = kMaxInputLineBytes);

}  // namespace parallax
