// File: models/calibration_data/data_error.cpp
#include "models/calibration_data/data_error.h"

#include <fmt/format.h>

namespace parallax::models {

namespace {
std::string located(const std::string& file, int line, int column, const std::string& message) {
  if (line > 0 && column > 0) return fmt::format("{}:{}:{}: {}", file, line, column, message);
  if (line > 0) return fmt::format("{}:{}: {}", file, line, message);
  if (!file.empty()) return fmt::format("{}: {}", file, message);
  return message;
}
}  // namespace

DataError::DataError(std::string file, int line, std::string message, int column, std::string key)
    : std::runtime_error(located(file, line, column, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      key_(std::move(key)),
      message_(std::move(message)) {}

}  // namespace parallax::models
