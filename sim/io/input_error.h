// File: sim/io/input_error.h
// The one error type for bad user input (scenario YAML, presets, trace and CSV rows, command-line
// overrides). It carries the place — file, line, column (1-based; 0 = unknown) — and, for YAML, the
// dotted key. what() is the full "file:line:col: message" text; the command line prints it and
// exits with code 2.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>

namespace parallax {

struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based; 0 = unknown
  int column = 0;  // 1-based; 0 = unknown
};

class InputError : public std::runtime_error {
 public:
  InputError(SourceLocation where, std::string key, std::string message);
  const SourceLocation& where() const { return where_; }
  const std::string& key() const { return key_; }        // dotted path, may be empty
  const std::string& message() const { return message_; }

 private:
  SourceLocation where_;
  std::string key_;
  std::string message_;
};

// An input file read whole, or opened for a line reader, through the bounded reader
// (sim/io/input_file.h): a FIFO, device, directory, missing file or one over the limit is an
// InputError at the file ("PATH: cannot read a FIFO (pipe); inputs must be regular files").
std::string read_input_text(const std::string& path);
std::ifstream open_input(const std::string& path);

}  // namespace parallax
