// File: models/queueing_tail.cpp
#include "models/queueing_tail.h"

#include <algorithm>
#include <cmath>

namespace parallax {

namespace {
constexpr long double kMaxLambdaX = 25;  // the sum's terms reach e^{λx}: keep ~6 digits
}

double md1_wait_cdf(double rate_per_s, double service_s, double x_s) {
  if (x_s < 0) return 0;
  if (!(rate_per_s > 0)) return 1;
  const long double lambda = rate_per_s, d = service_s;
  const long double rho = lambda * d;
  if (rho >= 1) return 0;
  if (!(d > 0)) return 1;
  const long double x = std::min<long double>(x_s, kMaxLambdaX / lambda);
  const auto kmax = static_cast<int>(std::floor(x / d));
  long double sum = 0;
  for (int k = 0; k <= kmax; ++k) {
    const long double u = lambda * (k * d - x);  // <= 0
    // u^k / k! · e^{-u}, built in logs of |u| with the sign of u^k.
    long double term = std::exp(-u - std::lgamma(static_cast<long double>(k) + 1));
    if (k > 0) term *= std::pow(u, k);
    sum += term;
  }
  return static_cast<double>(std::clamp<long double>((1 - rho) * sum, 0, 1));
}

double slo_attainment_gd1(double rate_per_s, double ca2, double service_s, double slo_s) {
  if (service_s > slo_s) return 0;
  if (!(ca2 > 0)) return rate_per_s * service_s < 1 ? 1 : 0;  // evenly spaced: D/D/1, no wait below ρ = 1
  return md1_wait_cdf(rate_per_s, service_s, (slo_s - service_s) / ca2);
}

double largest_service_meeting(double rate_per_s, double ca2, double slo_s, double target, double idle_wait_s) {
  const auto meets = [&](double d) {
    const double p_idle = std::max(0.0, 1 - rate_per_s * d);
    return slo_attainment_gd1(rate_per_s, ca2, d, slo_s - p_idle * idle_wait_s) >= target;
  };
  double lo = 0, hi = slo_s;
  if (meets(hi)) return hi;
  while (hi - lo > 1e-4 * slo_s) {
    const double mid = 0.5 * (lo + hi);
    (meets(mid) ? lo : hi) = mid;
  }
  return lo;
}

double time_weighted_wait_s(std::span<const double> d, std::span<const double> w) {
  double time = 0, weighted = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    time += d[i];
    weighted += d[i] * w[i];
  }
  return time > 0 ? weighted / time : 0;
}

ArrivalLoad arrival_load(std::span<const double> a) {
  if (a.size() < 2 || !(a.back() > a.front())) return {};
  const double n = static_cast<double>(a.size() - 1);
  const double mean = (a.back() - a.front()) / n;
  double var = 0;
  for (size_t i = 1; i < a.size(); ++i) var += (a[i] - a[i - 1] - mean) * (a[i] - a[i - 1] - mean);
  var /= n;
  return {1.0 / mean, var / (mean * mean)};
}

}  // namespace parallax
