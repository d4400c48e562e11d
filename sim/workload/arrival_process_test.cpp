// File: sim/workload/arrival_process_test.cpp
// Statistical checks use bounds of about 4.5 standard errors, worked out in each test's comment:
// loose enough never to fail by chance in practice, tight enough that a wrong rate or shape fails.
#include "sim/workload/arrival_process.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace parallax {
namespace {

struct GapStats {
  double mean_s = 0, cv = 0;
};

GapStats gap_stats(ArrivalProcess& p, int n) {
  double previous = 0, sum = 0, sum_sq = 0;
  for (int i = 0; i < n; ++i) {
    const double t = p.next().to_seconds();
    const double gap = t - previous;
    previous = t;
    sum += gap;
    sum_sq += gap * gap;
  }
  const double mean = sum / n;
  return {mean, std::sqrt(sum_sq / n - mean * mean) / mean};
}

TEST(PoissonProcess, RateAndCv) {
  // n = 200,000 exponential gaps: se(mean)/mean = 1/sqrt(n) = 0.22 %; se(cv) ≈ sqrt(8/n)/2 = 0.0032.
  RandomStream rng(1);
  PoissonProcess p(100, rng);
  const GapStats s = gap_stats(p, 200'000);
  EXPECT_NEAR(s.mean_s, 0.01, 0.01 * 0.01);
  EXPECT_NEAR(s.cv, 1.0, 0.015);
}

TEST(GammaProcess, RateAndCvBursty) {
  // cv = 3 → shape 1/9, excess kurtosis 6/shape = 54: se(cv) ≈ cv·sqrt(56/n)/2 = 0.025 at n = 200,000;
  // se(mean)/mean = cv/sqrt(n) = 0.67 %.
  RandomStream rng(2);
  GammaProcess p(50, 3, rng);
  const GapStats s = gap_stats(p, 200'000);
  EXPECT_NEAR(s.mean_s, 0.02, 0.02 * 0.03);
  EXPECT_NEAR(s.cv, 3.0, 0.12);
}

TEST(GammaProcess, RateAndCvRegular) {
  // cv = 0.5 → shape 4, excess kurtosis 1.5: se(cv) ≈ 0.5·sqrt(2.5/n)/2 = 0.0009; se(mean)/mean = 0.11 %.
  RandomStream rng(3);
  GammaProcess p(10, 0.5, rng);
  const GapStats s = gap_stats(p, 200'000);
  EXPECT_NEAR(s.mean_s, 0.1, 0.1 * 0.005);
  EXPECT_NEAR(s.cv, 0.5, 0.005);
}

TEST(GammaProcess, CvOneIsExactlyPoisson) {
  RandomStream a(7), b(7);
  PoissonProcess poisson(3, a);
  GammaProcess gamma(3, 1, b);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(poisson.next(), gamma.next()) << i;
}

TEST(MmppOnOffProcess, MeanRateAndBurstiness) {
  // on: 100/s for 1 s on average; off: silent for 4 s: mean rate (100·1 + 0·4)/5 = 20/s.
  // Asymptotic count variance per second: λ̄ + 2(λ1−λ2)²π1π2/(r1+r2) = 20 + 2·1e4·0.16/1.25 = 2580,
  // so over T = 20,000 s the count (≈ 400,000) has sd ≈ 7,200 (1.8 %): bound 8 %.
  // Index of dispersion of 10 s window counts: 1 + 128·(1 − (1 − e^−12.5)/12.5) ≈ 119 (Poisson: 1).
  RandomStream rng(4);
  MmppOnOffProcess p(100, 0, 1, 4, rng);
  EXPECT_DOUBLE_EQ(p.mean_rate_per_s(), 20);
  const std::vector<Time> t = arrivals_until(p, Time::seconds(20'000));
  EXPECT_NEAR(static_cast<double>(t.size()) / 20'000, 20, 20 * 0.08);
  std::vector<double> windows(2000, 0);
  for (Time x : t) windows[static_cast<size_t>(x.to_seconds() / 10)] += 1;
  double sum = 0, sum_sq = 0;
  for (double c : windows) {
    sum += c;
    sum_sq += c * c;
  }
  const double mean = sum / windows.size();
  const double dispersion = (sum_sq / windows.size() - mean * mean) / mean;
  EXPECT_GT(dispersion, 80);
  EXPECT_LT(dispersion, 160);
}

TEST(MmppOnOffProcess, EqualRatesIsPoissonRate) {
  // Both states at 40/s: a Poisson process at 40/s whatever the sojourns; n ≈ 400,000, se 0.16 %.
  RandomStream rng(5);
  MmppOnOffProcess p(40, 40, 0.3, 0.7, rng);
  const std::vector<Time> t = arrivals_until(p, Time::seconds(10'000));
  EXPECT_NEAR(static_cast<double>(t.size()) / 10'000, 40, 40 * 0.01);
}

TEST(DeterministicProcess, ExactTimes) {
  DeterministicProcess p(4, Time::seconds(1));
  EXPECT_EQ(p.next(), Time::seconds(1));
  EXPECT_EQ(p.next(), Time::ms(1250));
  EXPECT_EQ(p.next(), Time::ms(1500));
  DeterministicProcess third(3);
  for (int i = 0; i < 3; ++i) third.next();
  EXPECT_EQ(third.next(), Time::seconds(1));
  EXPECT_EQ(arrivals_until(third, Time::seconds(2)).size(), 2u);  // 4/3 s and 5/3 s
}

TEST(ArrivalProcess, SameSeedSameArrivalsDifferentSeedDifferent) {
  for (const char* kind : {"poisson", "gamma", "mmpp"}) {
    ArrivalProcessSpec spec{.kind = kind, .rate_per_s = 5, .cv = 2, .rate_on_per_s = 9, .rate_off_per_s = 1,
                            .mean_on_s = 2, .mean_off_s = 3};
    RandomStreams s1(42), s2(42), s3(43);
    auto a = make_arrival_process(spec, s1.stream("arrivals/x"));
    auto b = make_arrival_process(spec, s2.stream("arrivals/x"));
    auto c = make_arrival_process(spec, s3.stream("arrivals/x"));
    const auto ta = arrivals_until(*a, Time::seconds(100));
    EXPECT_EQ(ta, arrivals_until(*b, Time::seconds(100))) << kind;
    EXPECT_NE(ta, arrivals_until(*c, Time::seconds(100))) << kind;
    EXPECT_TRUE(std::is_sorted(ta.begin(), ta.end())) << kind;
  }
}

TEST(ArrivalProcess, SpecValidation) {
  RandomStream rng(1);
  EXPECT_THROW(make_arrival_process({.kind = "weibull", .rate_per_s = 1}, rng), std::invalid_argument);
  EXPECT_THROW(make_arrival_process({.kind = "poisson", .rate_per_s = 0}, rng), std::invalid_argument);
  EXPECT_THROW(make_arrival_process({.kind = "gamma", .rate_per_s = 1, .cv = 0}, rng), std::invalid_argument);
  EXPECT_THROW(make_arrival_process({.kind = "mmpp", .rate_on_per_s = 1, .rate_off_per_s = -1, .mean_on_s = 1,
                                     .mean_off_s = 1}, rng),
               std::invalid_argument);
  EXPECT_THROW(make_arrival_process({.kind = "deterministic", .rate_per_s = NAN}, rng), std::invalid_argument);
  try {
    make_arrival_process({.kind = "mmpp", .rate_on_per_s = 1, .mean_on_s = 0, .mean_off_s = 1}, rng);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "mean_on_s must be > 0, got 0");
  }
}

// A gap past the clock's range (a rate far below one per run) ends the process at Time::max()
// instead of wrapping to a negative time: arrivals_until then returns nothing, and at once (a rate
// of 1e-300/s used to grow the arrival list to 2 GB).
TEST(ArrivalProcess, AGapPastTheClockEndsTheProcess) {
  RandomStream rng(6);
  PoissonProcess poisson(1e-300, rng);
  EXPECT_EQ(poisson.next(), Time::max());
  EXPECT_EQ(poisson.next(), Time::max());
  PoissonProcess again(1e-300, rng);
  EXPECT_TRUE(arrivals_until(again, Time::seconds(1e6)).empty());
  GammaProcess gamma(1e-300, 3, rng);
  EXPECT_EQ(gamma.next(), Time::max());
  DeterministicProcess deterministic(1e-12);  // the second arrival 1e12 s after the first
  EXPECT_EQ(deterministic.next(), Time::zero());
  EXPECT_EQ(deterministic.next(), Time::max());
  // Off forever after the first switch: the process ends instead of switching without progress.
  MmppOnOffProcess mmpp(1000, 0, 1e-3, 1e300, rng);
  Time t;
  for (int i = 0; i < 100 && t < Time::max(); ++i) t = mmpp.next();
  EXPECT_EQ(t, Time::max());
}

}  // namespace
}  // namespace parallax
