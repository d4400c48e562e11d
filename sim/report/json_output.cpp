// File: sim/report/json_output.cpp
#include "sim/report/json_output.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/report/atomic_file.h"

namespace parallax {
namespace {

// RFC 6901: '~' -> "~0", '/' -> "~1".
std::string pointer_token(const std::string& key) {
  std::string token;
  for (char c : key) {
    if (c == '~') token += "~0";
    else if (c == '/') token += "~1";
    else token.push_back(c);
  }
  return token;
}

bool all_finite(const nlohmann::ordered_json& value) {
  if (value.is_number_float()) return std::isfinite(value.get<double>());
  if (value.is_structured())
    for (const auto& child : value)
      if (!all_finite(child)) return false;
  return true;
}

// Only called when all_finite() found a culprit: building every value's JSON pointer up front
// cost as much as the dump.
void reject_non_finite(const nlohmann::ordered_json& value, const std::string& pointer) {
  if (value.is_number_float()) {
    const double v = value.get<double>();
    if (!std::isfinite(v)) {
      throw std::invalid_argument(fmt::format(
          "JSON output: {} is {}; JSON has no NaN or infinity", pointer.empty() ? "/" : pointer, v));
    }
  } else if (value.is_object()) {
    for (const auto& [key, child] : value.items()) reject_non_finite(child, pointer + "/" + pointer_token(key));
  } else if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) reject_non_finite(value[i], fmt::format("{}/{}", pointer, i));
  }
}

}  // namespace

std::string format_json(const nlohmann::ordered_json& value) {
  if (!all_finite(value)) reject_non_finite(value, "");
  std::string text;
  try {
    text = value.dump(2);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(fmt::format("JSON output: {}", e.what()));
  }
  text.push_back('\n');
  return text;
}

void write_json_atomically(const std::filesystem::path& path, const nlohmann::ordered_json& value) {
  std::string text;
  try {
    text = format_json(value);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(fmt::format("{}: {}", path.string(), e.what()));
  }
  write_file_atomically(path, text);
}

}  // namespace parallax
