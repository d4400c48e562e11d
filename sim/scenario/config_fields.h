// File: sim/scenario/config_fields.h
// Strict, located reading of a ConfigNode: a mapping whose keys are checked against the allowed
// list (unknown key -> error with "did you mean"), required and optional fields, and typed values
// (string, number, integer, bool, byte count) with range checks. Every failure throws InputError
// at the offending node, naming its dotted key ("hardware.links.2.GBps").
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/config_tree.h"
#include "sim/scenario/input_limits.h"

namespace parallax {

// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c"; "a" + 3 -> "a.3".
std::string join_path(std::string_view parent, std::string_view key);
std::string join_path(std::string_view parent, size_t index);

// Throws InputError located at `node`, for the dotted key `path`.
[[noreturn]] void fail_at(const ConfigNode& node, const std::string& path, const std::string& message);

// Typed values. Messages: "'k' must be a string, got a list", "'k' must be a number, got 'x'",
// "'k' must be a finite number, got '.nan'", "'k' must be an integer, got '2.5'",
// "'k' must be true or false, got 'x'".
std::string read_string(const ConfigNode& node, const std::string& path);
double read_number(const ConfigNode& node, const std::string& path);  // finite
int64_t read_integer(const ConfigNode& node, const std::string& path);
uint64_t read_unsigned(const ConfigNode& node, const std::string& path);
bool read_bool(const ConfigNode& node, const std::string& path);
int64_t read_byte_count(const ConfigNode& node, const std::string& path);  // >= 0, units allowed
std::vector<std::string> read_string_list(const ConfigNode& node, const std::string& path);

// Range checks: "'k' must be greater than 0, got 0", "'k' must not be negative, got -1",
// "'k' must be at least 1, got 0", "'k' must be at most 4096, got 5000".
double read_positive(const ConfigNode& node, const std::string& path);
double read_non_negative(const ConfigNode& node, const std::string& path);
int64_t read_integer_in(const ConfigNode& node, const std::string& path, int64_t min, int64_t max);
// A number in `range` (input_limits.h) once multiplied by `scale` (1e-6 for a key in microseconds
// against a range in seconds); returns value x scale. The message gives the limit in the key's own
// unit and why it exists: "'k' must be at most 1e+06, got 1e13 (a single delay is at most 1 s ...)".
double read_number_in(const ConfigNode& node, const std::string& path, const NumberRange& range, double scale = 1);

// One of `choices`: "'k' must be one of full, half; got 'fulll' (did you mean 'full'?)".
std::string read_choice(const ConfigNode& node, const std::string& path,
                        std::initializer_list<std::string_view> choices);

// A mapping with a fixed set of allowed keys, checked on construction:
// "unknown key 'hardware.gpuz' (did you mean 'gpus'?)", located at the key.
class MapFields {
 public:
  MapFields(const ConfigNode& node, std::string path, std::span<const std::string_view> allowed);
  MapFields(const ConfigNode& node, std::string path, std::initializer_list<std::string_view> allowed)
      : MapFields(node, std::move(path), std::span<const std::string_view>(allowed.begin(), allowed.size())) {}

  const ConfigNode& node() const { return node_; }
  const std::string& path() const { return path_; }
  std::string path_of(std::string_view key) const { return join_path(path_, key); }

  const ConfigNode* optional(std::string_view key) const;  // nullptr when absent
  // "missing required key 'workload.kind'", located at the mapping.
  const ConfigNode& required(std::string_view key) const;

 private:
  const ConfigNode& node_;
  std::string path_;
};

// Throws unless `node` is a mapping: "'hardware' must be a mapping, got a list".
void expect_map(const ConfigNode& node, const std::string& path);

}  // namespace parallax
