// File: sim/workload/minute_expansion.cpp
#include "sim/workload/minute_expansion.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace parallax {

namespace {
constexpr int64_t kMinutePs = 60'000'000'000'000;
}  // namespace

MinuteCountExpander::MinuteCountExpander(const MinuteCounts& counts, RandomStream& rng, double cv, size_t minutes)
    : counts_(counts), rng_(rng), cv_(cv), minutes_(std::min(minutes, counts.minutes())) {
  if (!(std::isfinite(cv) && cv > 0)) throw std::invalid_argument(fmt::format("cv must be > 0, got {}", cv));
  for (const auto& f : counts.functions) {
    if (f.per_minute.size() != counts.minutes()) {
      throw std::invalid_argument(fmt::format("function {} has {} minutes, expected {}", f.name, f.per_minute.size(),
                                              counts.minutes()));
    }
  }
}

void MinuteCountExpander::fill_minute() {
  batch_.clear();
  cursor_ = 0;
  const Time minute_start = Time::ps(kMinutePs * static_cast<int64_t>(minute_));
  const double shape = 1 / (cv_ * cv_);
  for (size_t f = 0; f < counts_.functions.size(); ++f) {
    const uint32_t n = counts_.functions[f].per_minute[minute_];
    if (n == 0) continue;
    spacings_.resize(size_t{n} + 1);
    double total = 0;
    for (double& g : spacings_) {
      g = cv_ == 1 ? rng_.exponential(1) : rng_.gamma(shape, 1);
      total += g;
    }
    double partial = 0;
    for (uint32_t i = 0; i < n; ++i) {
      partial += spacings_[i];
      // floor into [0, minute): the fraction is < 1, but rounding could reach the minute's end.
      const auto offset = std::min(static_cast<int64_t>(partial / total * static_cast<double>(kMinutePs)), kMinutePs - 1);
      batch_.push_back(Arrival{.at = minute_start + Time::ps(offset), .function = static_cast<uint32_t>(f)});
    }
  }
  std::stable_sort(batch_.begin(), batch_.end(), [](const Arrival& a, const Arrival& b) { return a.at < b.at; });
  ++minute_;
}

bool MinuteCountExpander::next(Arrival& out) {
  while (cursor_ == batch_.size()) {
    if (minute_ >= minutes_) return false;
    fill_minute();
  }
  out = batch_[cursor_++];
  return true;
}

TraceArrivals expand_minute_counts(const MinuteCounts& counts, RandomStream& rng, double cv) {
  MinuteCountExpander expander(counts, rng, cv);
  TraceArrivals out;
  for (const auto& f : counts.functions) out.function_names.push_back(f.name);
  Arrival a;
  while (expander.next(a)) out.arrivals.push_back(a);
  return out;
}

}  // namespace parallax
