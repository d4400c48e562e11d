// File: models/queueing_tail_test.cpp
#include "models/queueing_tail.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace parallax {
namespace {

TEST(QueueingTail, Md1WaitCdfOnHandCases) {
  // λ = 100/s, D = 5 ms: ρ = 0.5. No wait with probability 1 − ρ.
  EXPECT_NEAR(md1_wait_cdf(100, 5e-3, 0), 0.5, 1e-12);
  // x < D: only k = 0, (1 − ρ)·e^{λx}.
  EXPECT_NEAR(md1_wait_cdf(100, 5e-3, 2e-3), 0.5 * std::exp(0.2), 1e-12);
  // D <= x < 2D: (1 − ρ)·(e^{λx} − λ(x − D)·e^{λ(x − D)}).
  EXPECT_NEAR(md1_wait_cdf(100, 5e-3, 7e-3), 0.5 * (std::exp(0.7) - 0.2 * std::exp(0.2)), 1e-12);
  EXPECT_EQ(md1_wait_cdf(100, 10e-3, 1.0), 0);  // ρ = 1
  EXPECT_EQ(md1_wait_cdf(0, 10e-3, 0), 1);
}

// The closed form against Lindley's recursion W' = max(0, W + D − gap) over Poisson arrivals.
TEST(QueueingTail, Md1MatchesASimulatedQueue) {
  const double lambda = 140, d = 5e-3;  // ρ = 0.7
  std::mt19937_64 rng(7);
  std::exponential_distribution<double> gap(lambda);
  const int n = 400000;
  std::vector<double> w(n);
  double cur = 0;
  for (int i = 0; i < n; ++i) {
    w[i] = cur;
    cur = std::max(0.0, cur + d - gap(rng));
  }
  for (double x : {0.0, 2e-3, 5e-3, 9e-3, 15e-3, 25e-3}) {
    const double sim = static_cast<double>(std::count_if(w.begin(), w.end(), [&](double v) { return v <= x; })) / n;
    EXPECT_NEAR(md1_wait_cdf(lambda, d, x), sim, 0.01) << x;
  }
}

TEST(QueueingTail, LargestServiceMeetingIsTheEdgeOfTheTarget) {
  const double slo = 4e-3, lambda = 250;
  const double d = largest_service_meeting(lambda, 1, slo, 0.99);
  EXPECT_GT(d, 0);
  EXPECT_LT(d, slo);
  EXPECT_GE(slo_attainment_gd1(lambda, 1, d, slo), 0.99);
  EXPECT_LT(slo_attainment_gd1(lambda, 1, d + 2e-4 * slo, slo), 0.99);
  // Burstier arrivals (c_a² = 4) leave a smaller service time.
  EXPECT_LT(largest_service_meeting(lambda, 4, slo, 0.99), d);
  // No load: the whole SLO.
  EXPECT_DOUBLE_EQ(largest_service_meeting(0, 1, slo, 0.99), slo);
}

// Residual life by hand: jobs of 1 and 3 s back to back; an instant falls in the 3 s job with
// probability 3/4 and then waits 1.5 s on average: (1·0.5 + 3·1.5) / 4 = 1.25 = E[d²] / (2 E[d]).
TEST(QueueingTail, TimeWeightedWaitIsTheResidualLife) {
  const std::vector<double> d{1, 3};
  EXPECT_DOUBLE_EQ(time_weighted_wait_s(d, std::vector<double>{0.5, 1.5}), 1.25);
  EXPECT_DOUBLE_EQ(time_weighted_wait_s(d, std::vector<double>{0, 1.5}), 1.125);  // the 1 s job in no one's way
  EXPECT_EQ(time_weighted_wait_s({}, {}), 0);
}

TEST(QueueingTail, AnIdleWaitShrinksTheSloByItsShareOfIdleArrivals) {
  const double slo = 4e-3, v = 0.5e-3;
  // No load: every request finds the queue empty, so it waits v and D* = SLO − v.
  const double alone = largest_service_meeting(0, 1, slo, 0.99, v);
  EXPECT_LE(alone, slo - v);
  EXPECT_GT(alone, slo - v - 1e-4 * slo);
  // At 250 req/s only the 1 − λ·D* of requests that find it empty wait: D* is the edge of the
  // target against the SLO less (1 − λ·D*)·v, below the D* without the wait.
  const double lambda = 250;
  const double d = largest_service_meeting(lambda, 1, slo, 0.99, v);
  const auto attained = [&](double x) { return slo_attainment_gd1(lambda, 1, x, slo - (1 - lambda * x) * v); };
  EXPECT_GE(attained(d), 0.99);
  EXPECT_LT(attained(d + 2e-4 * slo), 0.99);
  EXPECT_LT(d, largest_service_meeting(lambda, 1, slo, 0.99));
  EXPECT_GT(d, largest_service_meeting(lambda, 1, slo - v, 0.99));  // less than the whole v is paid
}

TEST(QueueingTail, ArrivalLoadOfEvenAndPoissonArrivals) {
  const std::vector<double> even{0, 0.01, 0.02, 0.03, 0.04};
  const ArrivalLoad e = arrival_load(even);
  EXPECT_NEAR(e.rate_per_s, 100, 1e-9);
  EXPECT_NEAR(e.ca2, 0, 1e-12);
  std::mt19937_64 rng(3);
  std::exponential_distribution<double> gap(200);
  std::vector<double> a{0};
  for (int i = 0; i < 100000; ++i) a.push_back(a.back() + gap(rng));
  const ArrivalLoad p = arrival_load(a);
  EXPECT_NEAR(p.rate_per_s, 200, 3);
  EXPECT_NEAR(p.ca2, 1, 0.03);
  EXPECT_EQ(arrival_load(std::vector<double>{1.0}).rate_per_s, 0);
}

}  // namespace
}  // namespace parallax
