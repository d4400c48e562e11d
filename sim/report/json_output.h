// File: sim/report/json_output.h
// JSON files for people and scripts (summary.json and the like): 2-space indentation, keys in
// insertion order, a trailing newline, shortest round-trip doubles, written atomically. Deciding
// the fields is left to the caller (docs/metrics.md defines summary.json's).
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace parallax {

// The text that write_json_atomically writes. Throws std::invalid_argument naming the JSON pointer
// of the first NaN or infinite number ("/collectives/0/busbw_GBps is nan"): JSON has no such
// numbers and nlohmann would silently write null. Invalid UTF-8 in a string also throws.
std::string format_json(const nlohmann::ordered_json& value);

// format_json(value) into `path` via write_file_atomically; the file is not touched on error.
void write_json_atomically(const std::filesystem::path& path, const nlohmann::ordered_json& value);

}  // namespace parallax
