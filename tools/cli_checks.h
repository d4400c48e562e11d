// File: tools/cli_checks.h
// A check for 64-bit unsigned flags (seeds): CLI11 2.1 reads "-1" into an unsigned option as
// 18446744073709551615 and a value past 2^64 - 1 without complaint, and CLI::Range compares in the
// option's own type or in double (which cannot tell 2^64 from 2^64 - 1). This accepts decimal digits
// only, 0 to 18446744073709551615. The other numeric flags use CLI::Range.
#pragma once

#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdint>
#include <string>

namespace parallax {

inline CLI::Validator unsigned64_check() {
  return CLI::Validator(
      [](const std::string& s) -> std::string {
        uint64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || s.front() < '0' || s.front() > '9' || ec != std::errc() || end != s.data() + s.size())
          return "must be an integer from 0 to 18446744073709551615, got '" + s + "'";
        return {};
      },
      "UINT64");
}

}  // namespace parallax
