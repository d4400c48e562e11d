// File: sim/report/fixed_decimal.cpp
#include "sim/report/fixed_decimal.h"

#include <charconv>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

char* write_scaled_integer(char* out, int64_t value, int decimals) {
  if (decimals < 0 || decimals > 18) {
    throw std::invalid_argument(fmt::format("scaled integer: decimals {} not in 0..18", decimals));
  }
  // Work on the magnitude as unsigned so that INT64_MIN is representable.
  const bool negative = value < 0;
  const uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(value)
                                      : static_cast<uint64_t>(value);
  uint64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  if (negative) *out++ = '-';
  out = std::to_chars(out, out + 20, magnitude / scale).ptr;
  if (decimals == 0) return out;
  *out++ = '.';
  // The fraction, zero-padded on the left to `decimals` digits.
  char digits[20];
  const char* end = std::to_chars(digits, digits + sizeof digits, magnitude % scale).ptr;
  const size_t n = static_cast<size_t>(end - digits);
  const size_t zeros = static_cast<size_t>(decimals) - n;
  std::memset(out, '0', zeros);
  std::memcpy(out + zeros, digits, n);
  return out + decimals;
}

std::string format_scaled_integer(int64_t value, int decimals) {
  char text[kScaledIntegerChars];
  return std::string(text, write_scaled_integer(text, value, decimals));
}

}  // namespace parallax
