// File: sim/workload/minute_expansion_test.cpp
#include "sim/workload/minute_expansion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/workload/azure2019_trace.h"
#include "sim/workload/torpor_trace.h"
#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::source_path;

constexpr int64_t kMinutePs = 60'000'000'000'000;

// Counts arrivals per (function, minute) and compares with the input, exactly.
void expect_counts_preserved(const MinuteCounts& counts, const std::vector<Arrival>& arrivals, size_t minutes) {
  std::vector<std::vector<uint32_t>> seen(counts.functions.size(), std::vector<uint32_t>(minutes, 0));
  for (const Arrival& a : arrivals) {
    const auto m = static_cast<size_t>(a.at.ps() / kMinutePs);
    ASSERT_LT(m, minutes);
    ++seen[a.function][m];
  }
  for (size_t f = 0; f < counts.functions.size(); ++f) {
    for (size_t m = 0; m < minutes; ++m) ASSERT_EQ(seen[f][m], counts.functions[f].per_minute[m]) << f << " " << m;
  }
}

bool by_time(const Arrival& a, const Arrival& b) { return a.at < b.at; }

TEST(MinuteExpansion, TorporSamplePreservesEveryMinute) {
  const MinuteCounts counts = read_torpor_samples(source_path("traces/torpor/samples_derived.csv"));
  for (double cv : {1.0, 0.5, 3.0}) {
    RandomStream rng(11);
    const TraceArrivals t = expand_minute_counts(counts, rng, cv);
    EXPECT_EQ(t.arrivals.size(), 61'589u);
    EXPECT_EQ(t.function_names.size(), 203u);
    EXPECT_TRUE(std::is_sorted(t.arrivals.begin(), t.arrivals.end(), by_time));
    expect_counts_preserved(counts, t.arrivals, 31);
  }
}

TEST(MinuteExpansion, SameSeedSameSequence) {
  const MinuteCounts counts = read_torpor_samples(source_path("traces/torpor/samples_derived.csv"), 20);
  RandomStreams a(5), b(5), c(6);
  const auto ta = expand_minute_counts(counts, a.stream("trace"), 2).arrivals;
  EXPECT_EQ(ta, expand_minute_counts(counts, b.stream("trace"), 2).arrivals);
  EXPECT_NE(ta, expand_minute_counts(counts, c.stream("trace"), 2).arrivals);
}

struct MinuteGaps {
  size_t count = 0;
  double mean_fraction = 0, gap_cv = 0;
};

// The first hour of the Azure 2019 sample (≈12–15k arrivals a minute), streamed.
std::vector<MinuteGaps> first_hour(double cv, const MinuteCounts& counts) {
  RandomStream rng(17);
  MinuteCountExpander expander(counts, rng, cv);
  std::vector<MinuteGaps> out(60);
  std::vector<std::vector<double>> at(60);
  Arrival a;
  while (expander.next(a) && a.at.ps() < 60 * kMinutePs) at[static_cast<size_t>(a.at.ps() / kMinutePs)].push_back(
      static_cast<double>(a.at.ps() % kMinutePs) / kMinutePs);
  for (size_t m = 0; m < 60; ++m) {
    const auto& x = at[m];
    double sum = 0, gs = 0, gss = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      sum += x[i];
      const double g = x[i] - (i ? x[i - 1] : 0);
      gs += g;
      gss += g * g;
    }
    const double n = static_cast<double>(x.size());
    out[m] = {x.size(), sum / n, std::sqrt(gss / n - (gs / n) * (gs / n)) / (gs / n)};
  }
  return out;
}

TEST(MinuteExpansion, Azure2019HourPoissonWithinMinutes) {
  const MinuteCounts counts = read_azure2019_invocations(
      source_path("traces/azure2019_single_function/invocations.csv"));
  const auto gaps = first_hour(1, counts);
  for (size_t m = 0; m < 60; ++m) {
    ASSERT_EQ(gaps[m].count, counts.functions[0].per_minute[m]) << m;
    // n ≈ 13,000 uniforms: se(mean) = sqrt(1/12/n) = 0.0025; exponential gaps: se(cv) ≈ 0.013.
    EXPECT_NEAR(gaps[m].mean_fraction, 0.5, 0.012) << m;
    EXPECT_NEAR(gaps[m].gap_cv, 1, 0.06) << m;
  }
}

TEST(MinuteExpansion, Azure2019HourBurstyWithinMinutes) {
  const MinuteCounts counts = read_azure2019_invocations(
      source_path("traces/azure2019_single_function/invocations.csv"));
  const auto gaps = first_hour(3, counts);
  double mean_cv = 0;
  for (size_t m = 0; m < 60; ++m) {
    ASSERT_EQ(gaps[m].count, counts.functions[0].per_minute[m]) << m;
    mean_cv += gaps[m].gap_cv / 60;
  }
  // Gamma(1/9) spacings: se(cv) per minute ≈ 3·sqrt(56/13,000)/2 = 0.1; over 60 minutes ≈ 0.013.
  EXPECT_NEAR(mean_cv, 3, 0.1);
}

TEST(MinuteExpansion, EmptyMinutesAndValidation) {
  MinuteCounts counts{{{"a", {0, 2, 0}}, {"b", {1, 0, 0}}}};
  RandomStream rng(1);
  const auto t = expand_minute_counts(counts, rng);
  ASSERT_EQ(t.arrivals.size(), 3u);
  EXPECT_EQ(t.arrivals[0].function, 1u);
  EXPECT_LT(t.arrivals[0].at.ps(), kMinutePs);
  EXPECT_GE(t.arrivals[1].at.ps(), kMinutePs);
  EXPECT_THROW(MinuteCountExpander(counts, rng, 0), std::invalid_argument);
  MinuteCounts ragged{{{"a", {1, 2}}, {"b", {1}}}};
  EXPECT_THROW(MinuteCountExpander(ragged, rng), std::invalid_argument);
}

}  // namespace
}  // namespace parallax
