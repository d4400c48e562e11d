// File: sim/engine/sim_time.h
// Simulated time as a strong integer type (picoseconds, int64: about 106 days of range), and
// byte counts as a strong type, so that a size never passes as a time. Conversions to and from
// seconds happen only at the edges (YAML, CSV, JSON).
//
// Leaving the range throws TimeRangeError (a conversion from seconds past ±9.2e6 s, a sum that
// overflows) instead of wrapping: a wrapped time is a silently wrong result. The scenario loaders
// bound every input so that an accepted scenario never gets here (sim/scenario/input_limits.h).
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace parallax {

class TimeRangeError : public std::range_error {
 public:
  using std::range_error::range_error;
};

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(int64_t v) { return Time(v); }
  static constexpr Time ns(int64_t v) { return Time(v * 1000); }
  static constexpr Time us(int64_t v) { return Time(v * 1000'000); }
  static constexpr Time ms(int64_t v) { return Time(v * 1000'000'000); }
  // Rounds to the nearest picosecond.
  static Time seconds(double s) {
    // 9.2e18 ps: the largest double below int64's end that llround converts exactly.
    if (!(std::fabs(s) < 9.2e6)) throw TimeRangeError("a time in seconds past the clock's range (±9.2e6 s)");
    return Time(static_cast<int64_t>(std::llround(s * 1e12)));
  }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t ps() const { return ps_; }
  constexpr double to_seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time(checked(ps_, o.ps_, false)); }
  constexpr Time operator-(Time o) const { return Time(checked(ps_, o.ps_, true)); }
  constexpr Time& operator+=(Time o) { ps_ = checked(ps_, o.ps_, false); return *this; }
  constexpr Time& operator-=(Time o) { ps_ = checked(ps_, o.ps_, true); return *this; }
  constexpr Time operator*(int64_t k) const { return Time(ps_ * k); }

 private:
  constexpr explicit Time(int64_t v) : ps_(v) {}
  static constexpr int64_t checked(int64_t a, int64_t b, bool subtract) {
    int64_t r = 0;
    if (subtract ? __builtin_sub_overflow(a, b, &r) : __builtin_add_overflow(a, b, &r))
      throw TimeRangeError("a simulated time past the clock's range (int64 picoseconds, ±9.2e6 s)");
    return r;
  }
  int64_t ps_ = 0;
};

// A byte count. Fractional bytes never appear in inputs; flow progress is tracked in double inside
// the solver and converted back only for reporting.
class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(int64_t v) : v_(v) {}
  constexpr int64_t count() const { return v_; }
  constexpr auto operator<=>(const Bytes&) const = default;
  constexpr Bytes operator+(Bytes o) const { return Bytes(v_ + o.v_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(v_ - o.v_); }
  constexpr Bytes& operator+=(Bytes o) { v_ += o.v_; return *this; }

 private:
  int64_t v_ = 0;
};

}  // namespace parallax
