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
  sort_batch(minute_start);
  ++minute_;
}

// The minute's arrivals by time, ties in function order: the order a stable sort by time gives,
// found in O(n) rather than O(n log n) (a sort was 8 % of `parallax bench serverless`). Arrivals
// spread over the whole minute, so a stable counting sort into n buckets by the offset's share
// of the minute (monotone in the time: a later arrival never lands in an earlier bucket) leaves
// about one arrival a bucket; each bucket is then sorted stably on its own.
void MinuteCountExpander::sort_batch(Time minute_start) {
  const size_t n = batch_.size();
  if (n < 2) return;
  const double per_ps = static_cast<double>(n) / static_cast<double>(kMinutePs);
  const auto bucket = [&](const Arrival& a) {
    return std::min(static_cast<size_t>(static_cast<double>((a.at - minute_start).ps()) * per_ps), n - 1);
  };
  bucket_end_.assign(n + 1, 0);
  for (const Arrival& a : batch_) ++bucket_end_[bucket(a) + 1];
  for (size_t b = 1; b <= n; ++b) bucket_end_[b] += bucket_end_[b - 1];  // bucket b starts at bucket_end_[b]
  sorted_.resize(n);
  for (const Arrival& a : batch_) sorted_[bucket_end_[bucket(a)]++] = a;  // now bucket b ends at bucket_end_[b]
  const auto by_time = [](const Arrival& a, const Arrival& b) { return a.at < b.at; };
  size_t begin = 0;
  for (size_t b = 0; b < n; ++b) {
    const size_t end = bucket_end_[b];
    const auto first = sorted_.begin() + static_cast<std::ptrdiff_t>(begin), last = sorted_.begin() + static_cast<std::ptrdiff_t>(end);
    if (end - begin > 16) {
      std::stable_sort(first, last, by_time);
    } else if (end - begin > 1) {  // insertion sort: stable, and no buffer to allocate
      for (auto it = first + 1; it < last; ++it) {
        const Arrival a = *it;
        auto hole = it;
        for (; hole != first && a.at < (hole - 1)->at; --hole) *hole = *(hole - 1);
        *hole = a;
      }
    }
    begin = end;
  }
  batch_.swap(sorted_);
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
