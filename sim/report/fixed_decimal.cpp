// File: sim/report/fixed_decimal.cpp
#include "sim/report/fixed_decimal.h"

#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

std::string format_scaled_integer(int64_t value, int decimals) {
  if (decimals < 0 || decimals > 18) {
    throw std::invalid_argument(fmt::format("format_scaled_integer: decimals {} not in 0..18", decimals));
  }
  // Work on the magnitude as unsigned so that INT64_MIN is representable.
  const bool negative = value < 0;
  const uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(value)
                                      : static_cast<uint64_t>(value);
  uint64_t scale = 1;
  for (int i = 0; i < decimals; ++i) scale *= 10;
  const uint64_t whole = magnitude / scale;
  const uint64_t fraction = magnitude % scale;
  if (decimals == 0) return fmt::format("{}{}", negative ? "-" : "", whole);
  return fmt::format("{}{}.{:0{}}", negative ? "-" : "", whole, fraction, decimals);
}

}  // namespace parallax
