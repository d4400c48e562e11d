// File: sim/report/xml_check.cpp
#include "sim/report/xml_check.h"

#include <cctype>
#include <vector>

#include <fmt/format.h>

namespace parallax {

namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || c == ':' || c == '.';
}

// Checks an '&' reference starting at `i`; returns its length, 0 if invalid.
size_t reference_length(std::string_view s, size_t i) {
  const size_t end = s.find(';', i);
  if (end == std::string_view::npos || end - i > 10) return 0;
  const std::string_view ref = s.substr(i + 1, end - i - 1);
  if (ref == "amp" || ref == "lt" || ref == "gt" || ref == "quot" || ref == "apos") return end - i + 1;
  if (ref.size() >= 2 && ref[0] == '#') {
    for (size_t k = 1; k < ref.size(); ++k)
      if (std::isdigit(static_cast<unsigned char>(ref[k])) == 0) return 0;
    return end - i + 1;
  }
  return 0;
}

}  // namespace

std::string xml_shape_error(std::string_view s) {
  std::vector<std::string_view> open;
  size_t i = 0;
  while (i < s.size()) {
    if (s[i] == '&') {
      const size_t n = reference_length(s, i);
      if (n == 0) return fmt::format("bad character reference at {}", i);
      i += n;
      continue;
    }
    if (s[i] != '<') {
      ++i;
      continue;
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    size_t j = i + (closing ? 2 : 1);
    const size_t name_start = j;
    while (j < s.size() && name_char(s[j])) ++j;
    const std::string_view name = s.substr(name_start, j - name_start);
    if (name.empty()) return fmt::format("'<' without an element name at {}", i);
    if (closing) {
      if (open.empty()) return fmt::format("</{}> at {} closes nothing", name, i);
      if (open.back() != name) return fmt::format("</{}> at {} closes <{}>", name, i, open.back());
      open.pop_back();
      j = s.find('>', j);
      if (j == std::string_view::npos) return fmt::format("unterminated </{}>", name);
      i = j + 1;
      continue;
    }
    // Attributes: name="value" (or 'value'), then '>' or '/>'.
    while (true) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j])) != 0) ++j;
      if (j >= s.size()) return fmt::format("unterminated <{}>", name);
      if (s[j] == '>') {
        open.push_back(name);
        ++j;
        break;
      }
      if (s.substr(j, 2) == "/>") {
        j += 2;
        break;
      }
      const size_t attr = j;
      while (j < s.size() && name_char(s[j])) ++j;
      if (j == attr || j + 1 >= s.size() || s[j] != '=' || (s[j + 1] != '"' && s[j + 1] != '\''))
        return fmt::format("malformed attribute in <{}> at {}", name, attr);
      const char quote = s[j + 1];
      const size_t close = s.find(quote, j + 2);
      if (close == std::string_view::npos) return fmt::format("unterminated attribute value in <{}>", name);
      const std::string_view value = s.substr(j + 2, close - j - 2);
      if (value.find('<') != std::string_view::npos) return fmt::format("'<' in an attribute of <{}>", name);
      for (size_t k = value.find('&'); k != std::string_view::npos; k = value.find('&', k + 1))
        if (reference_length(value, k) == 0) return fmt::format("bad reference in an attribute of <{}>", name);
      j = close + 1;
    }
    i = j;
  }
  if (!open.empty()) return fmt::format("<{}> is never closed", open.back());
  return "";
}

}  // namespace parallax
