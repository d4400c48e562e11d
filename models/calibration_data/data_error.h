// File: models/calibration_data/data_error.h
// The located error of the calibration-data readers (measurement CSV, nccl-tests logs, calibration
// YAML): file and 1-based line (0 = unknown), optional column and key. It mirrors
// sim/io/input_error.h without depending on sim/ (models/ is a leaf); the command line
// prints what() ("file:line: message") and exits with code 2, like an InputError.
#pragma once

#include <stdexcept>
#include <string>

namespace parallax::models {

class DataError : public std::runtime_error {
 public:
  DataError(std::string file, int line, std::string message, int column = 0, std::string key = {});
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_ = 0;
  int column_ = 0;
  std::string key_;
  std::string message_;
};

}  // namespace parallax::models
