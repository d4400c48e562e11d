// File: sim/sweep/point_hash.cpp
#include "sim/sweep/point_hash.h"

#include <algorithm>

#include <fmt/format.h>

namespace parallax {

namespace {

std::string_view key_of(std::string_view assignment) { return assignment.substr(0, assignment.find('=')); }

}  // namespace

std::string point_identity_text(std::string_view base_text, std::vector<std::string> overrides) {
  std::stable_sort(overrides.begin(), overrides.end(),
                   [](const std::string& a, const std::string& b) { return key_of(a) < key_of(b); });
  std::string text = fmt::format("parallax-sweep-point v1\nbase {}\n", base_text.size());
  text += base_text;
  text += '\n';
  for (const std::string& o : overrides) {
    text += "set ";
    text += o;
    text += '\n';
  }
  return text;
}

std::string point_hash(std::string_view base_text, const std::vector<std::string>& overrides) {
  return fmt::format("{:016x}", fnv1a64(point_identity_text(base_text, overrides)));
}

}  // namespace parallax
