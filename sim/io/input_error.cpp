// File: sim/io/input_error.cpp
#include "sim/io/input_error.h"

#include <fmt/format.h>

#include "sim/io/input_file.h"

namespace parallax {

namespace {
std::string format_error(const SourceLocation& w, const std::string& message) {
  if (w.line > 0 && w.column > 0) return fmt::format("{}:{}:{}: {}", w.file, w.line, w.column, message);
  if (w.line > 0) return fmt::format("{}:{}: {}", w.file, w.line, message);
  if (!w.file.empty()) return fmt::format("{}: {}", w.file, message);
  return message;
}
}  // namespace

InputError::InputError(SourceLocation where, std::string key, std::string message)
    : std::runtime_error(format_error(where, message)),
      where_(std::move(where)),
      key_(std::move(key)),
      message_(std::move(message)) {}

std::string read_input_text(const std::string& path) {
  try {
    return read_input_file(path);
  } catch (const InputFileError& e) {
    throw InputError({path, 0, 0}, "", e.reason());
  }
}

std::ifstream open_input(const std::string& path) {
  try {
    return open_input_stream(path);
  } catch (const InputFileError& e) {
    throw InputError({path, 0, 0}, "", e.reason());
  }
}

}  // namespace parallax
