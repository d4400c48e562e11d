// File: sim/engine/sim_time.h
// Simulated time as a strong integer type (picoseconds, int64: about 106 days of range), and
// byte counts as a strong type, so that a size never passes as a time. Conversions to and from
// seconds happen only at the edges (YAML, CSV, JSON).
#pragma once

#include <cmath>
#include <compare>
#include <cstdint>
#include <limits>

namespace parallax {

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time ps(int64_t v) { return Time(v); }
  static constexpr Time ns(int64_t v) { return Time(v * 1000); }
  static constexpr Time us(int64_t v) { return Time(v * 1000'000); }
  static constexpr Time ms(int64_t v) { return Time(v * 1000'000'000); }
  // Rounds to the nearest picosecond.
  static Time seconds(double s) { return Time(static_cast<int64_t>(std::llround(s * 1e12))); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t ps() const { return ps_; }
  constexpr double to_seconds() const { return static_cast<double>(ps_) * 1e-12; }

  constexpr auto operator<=>(const Time&) const = default;
  constexpr Time operator+(Time o) const { return Time(ps_ + o.ps_); }
  constexpr Time operator-(Time o) const { return Time(ps_ - o.ps_); }
  constexpr Time& operator+=(Time o) { ps_ += o.ps_; return *this; }
  constexpr Time& operator-=(Time o) { ps_ -= o.ps_; return *this; }
  constexpr Time operator*(int64_t k) const { return Time(ps_ * k); }

 private:
  constexpr explicit Time(int64_t v) : ps_(v) {}
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
