// File: sim/report/output_error.h
// The error of an output that cannot be written (a target that is not a regular file, a full disk,
// a failed rename, standard output that fails): the user's environment, not a fault of parallax,
// so the command line prints "error: ..." and exits with code 2. The message names the path and
// the system's reason in words ("no space left on device").
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace parallax {

class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "WHAT PATH: REASON", REASON being errno_reason(err) (sim/io/input_file.h); err 0 gives
// "input/output error" (a stream that failed without saying why).
OutputError output_error(std::string_view what, const std::filesystem::path& path, int err);

// Throws OutputError unless `path` is missing or a regular file (after links): a directory, FIFO,
// device or socket is never written over. `what` names the option or output ("--out").
void require_writable_target(const std::filesystem::path& path);

// Flushes standard output and throws OutputError when it failed (a closed pipe, a full disk:
// `parallax run > /dev/full`), so that lost results never exit 0.
void flush_standard_output();

}  // namespace parallax
