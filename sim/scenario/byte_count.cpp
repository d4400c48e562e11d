// File: sim/scenario/byte_count.cpp
#include "sim/scenario/byte_count.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include <fmt/format.h>

#include "sim/io/did_you_mean.h"

namespace parallax {

namespace {

using Wide = unsigned __int128;

struct Unit {
  std::string_view name;
  int64_t multiplier;
};

constexpr int64_t kKi = 1024;
constexpr std::array<Unit, 9> kUnits{{
    {"B", 1},
    {"KB", 1000},
    {"MB", 1000'000},
    {"GB", 1000'000'000},
    {"TB", 1000'000'000'000},
    {"KiB", kKi},
    {"MiB", kKi * kKi},
    {"GiB", kKi * kKi * kKi},
    {"TiB", kKi * kKi * kKi * kKi},
}};

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

ByteCountParse failure(std::string message) { return ByteCountParse{std::nullopt, std::move(message)}; }

}  // namespace

ByteCountParse parse_byte_count(std::string_view raw) {
  const std::string_view text = trim(raw);
  // Plain digits that fit (a transfer CSV's every row): the value itself, with no string built.
  if (!text.empty() && text.size() <= 18 && std::all_of(text.begin(), text.end(), is_digit)) {
    int64_t value = 0;
    for (char c : text) value = value * 10 + (c - '0');
    return ByteCountParse{value, {}};
  }
  const auto invalid = [&] { return failure(fmt::format("invalid byte count '{}'", raw)); };
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';

  // Mantissa digits (integer and fraction parts together) and the decimal scale they carry.
  std::string digits;
  int scale = 0;
  bool any_digit = false;
  while (i < text.size() && is_digit(text[i])) digits += text[i++], any_digit = true;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) digits += text[i++], --scale, any_digit = true;
  }
  if (!any_digit) return invalid();
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) exp_negative = text[i++] == '-';
    if (i >= text.size() || !is_digit(text[i])) return invalid();
    int exponent = 0;
    while (i < text.size() && is_digit(text[i])) {
      exponent = exponent * 10 + (text[i++] - '0');
      if (exponent > 100) return failure(fmt::format("byte count '{}' is out of range", raw));
    }
    scale += exp_negative ? -exponent : exponent;
  }
  const std::string_view unit_text = trim(text.substr(i));
  int64_t multiplier = 1;
  if (!unit_text.empty()) {
    const Unit* unit = nullptr;
    for (const Unit& u : kUnits)
      if (u.name == unit_text) unit = &u;
    if (unit == nullptr) {
      std::array<std::string_view, kUnits.size()> names{};
      for (size_t k = 0; k < kUnits.size(); ++k) names[k] = kUnits[k].name;
      return failure(fmt::format("unknown unit '{}' in byte count '{}'{}; units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB",
                                 unit_text, raw, did_you_mean_suffix(unit_text, names)));
    }
    multiplier = unit->multiplier;
  }

  // value = digits * 10^scale * multiplier, exactly.
  const auto digit_start = digits.find_first_not_of('0');
  digits = digit_start == std::string::npos ? "0" : digits.substr(digit_start);
  const Wide limit = static_cast<Wide>(std::numeric_limits<int64_t>::max());
  const auto out_of_range = [&] { return failure(fmt::format("byte count '{}' is out of range", raw)); };
  if (digits.size() > 24) return out_of_range();
  Wide value = 0;
  for (char c : digits) value = value * 10 + static_cast<Wide>(c - '0');
  value *= static_cast<Wide>(multiplier);
  for (; scale > 0; --scale) {
    if (value > limit) return out_of_range();
    value *= 10;
  }
  for (; scale < 0; ++scale) {
    if (value % 10 != 0) return failure(fmt::format("byte count '{}' is not a whole number of bytes", raw));
    value /= 10;
  }
  if (value > limit) return out_of_range();
  if (negative && value != 0) return failure(fmt::format("byte count must not be negative, got '{}'", raw));
  return ByteCountParse{static_cast<int64_t>(value), {}};
}

}  // namespace parallax
