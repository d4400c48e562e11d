// File: models/protocol_fit.cpp
// Band seeding + Nelder–Mead in log space; see protocol_fit.h.
#include "models/protocol_fit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace parallax::models {
namespace {

struct BandLine {
  double latency_s = 0.0;
  double busbw_Bps = 0.0;
};

// Relative least squares of t = L + x·(F·S) over rows [lo, hi): minimise Σ (L/t + x·F·S/t − 1)²,
// with L >= 0 and x > 0 (refit with L = 0 when L comes out negative).
BandLine band_line(std::span<const TimedSize> s, double factor, size_t lo, size_t hi) {
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (size_t i = lo; i < hi; ++i) {
    const double u = 1.0 / s[i].measured_s, v = factor * s[i].bytes / s[i].measured_s;
    a11 += u * u, a12 += u * v, a22 += v * v, b1 += u, b2 += v;
  }
  const double det = a11 * a22 - a12 * a12;
  double latency = det > 0 ? (b1 * a22 - b2 * a12) / det : 0.0;
  double x = det > 0 ? (a11 * b2 - a12 * b1) / det : 0.0;
  if (latency < 0 || x <= 0 || det <= 0) {
    latency = std::max(0.0, latency);
    x = a22 > 0 ? (b2 - latency * a12) / a22 : 0.0;
  }
  if (x <= 0) x = 1e-15;                       // a flat band: bandwidth "infinite" within it
  return {std::max(latency, 1e-9), 1.0 / x};   // keep L > 0 for the log parameters
}

double predict_min(const std::vector<double>& p, double moved) {
  double best = std::numeric_limits<double>::infinity();
  for (size_t k = 0; k + 1 < p.size(); k += 2) best = std::min(best, std::exp(p[k]) + moved / std::exp(p[k + 1]));
  return best;
}

// Huber loss on the log ratio: squared within ±kHuber, linear beyond, so that a few sizes hit by
// launch jitter (measured 3-6× the neighbours' time, as in vidur's medians) do not pull the fit.
constexpr double kHuber = 0.1;
double protocol_loss(const std::vector<double>& p, std::span<const TimedSize> s, double factor) {
  double sum = 0;
  for (const TimedSize& x : s) {
    const double r = std::abs(std::log(predict_min(p, factor * x.bytes) / x.measured_s));
    sum += r <= kHuber ? r * r : kHuber * (2 * r - kHuber);
  }
  return sum;
}

// Plain Nelder–Mead (reflection 1, expansion 2, contraction ½, shrink ½) from `start`.
std::vector<double> nelder_mead(std::vector<double> start, std::span<const TimedSize> s, double factor) {
  const size_t n = start.size();
  std::vector<std::vector<double>> simplex(n + 1, start);
  for (size_t i = 0; i < n; ++i) simplex[i + 1][i] += 0.3;
  std::vector<double> f(n + 1);
  for (size_t i = 0; i <= n; ++i) f[i] = protocol_loss(simplex[i], s, factor);
  for (int iter = 0; iter < 4000; ++iter) {
    std::vector<size_t> idx(n + 1);
    for (size_t i = 0; i <= n; ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return f[a] < f[b]; });
    const size_t best = idx.front(), worst = idx.back(), second = idx[n - 1];
    if (f[worst] - f[best] < 1e-14) break;
    std::vector<double> centroid(n, 0.0);
    for (size_t i = 0; i <= n; ++i)
      if (i != worst)
        for (size_t d = 0; d < n; ++d) centroid[d] += simplex[i][d] / static_cast<double>(n);
    auto along = [&](double t) {
      std::vector<double> x(n);
      for (size_t d = 0; d < n; ++d) x[d] = centroid[d] + t * (simplex[worst][d] - centroid[d]);
      return x;
    };
    const std::vector<double> reflected = along(-1.0);
    const double fr = protocol_loss(reflected, s, factor);
    if (fr < f[best]) {
      const std::vector<double> expanded = along(-2.0);
      const double fe = protocol_loss(expanded, s, factor);
      if (fe < fr) simplex[worst] = expanded, f[worst] = fe;
      else simplex[worst] = reflected, f[worst] = fr;
    } else if (fr < f[second]) {
      simplex[worst] = reflected, f[worst] = fr;
    } else {
      const std::vector<double> contracted = along(0.5);
      const double fc = protocol_loss(contracted, s, factor);
      if (fc < f[worst]) {
        simplex[worst] = contracted, f[worst] = fc;
      } else {
        for (size_t i = 0; i <= n; ++i) {
          if (i == best) continue;
          for (size_t d = 0; d < n; ++d) simplex[i][d] = simplex[best][d] + 0.5 * (simplex[i][d] - simplex[best][d]);
          f[i] = protocol_loss(simplex[i], s, factor);
        }
      }
    }
  }
  return simplex[static_cast<size_t>(std::min_element(f.begin(), f.end()) - f.begin())];
}

}  // namespace

std::vector<NcclCandidate> fit_protocols(CollectiveOp op, int64_t ranks, std::span<const TimedSize> samples,
                                         std::string_view algorithm) {
  if (samples.size() < 2 || ranks < 2) throw std::invalid_argument("fit_protocols: needs >= 2 samples and ranks >= 2");
  for (const TimedSize& s : samples)
    if (s.measured_s <= 0 || s.bytes < 0) throw std::invalid_argument("fit_protocols: a time <= 0 or bytes < 0");
  std::vector<TimedSize> s(samples.begin(), samples.end());
  std::stable_sort(s.begin(), s.end(), [](const TimedSize& a, const TimedSize& b) { return a.bytes < b.bytes; });
  const double factor = bus_bandwidth_factor(op, ranks);
  const size_t n = s.size();
  // Best fit with `bands` protocols: seeded by the best split into that many contiguous bands
  // (boundaries on a grid of at most kGrid positions, so long logs stay fast), then refined.
  constexpr size_t kMinBand = 2;
  constexpr size_t kGrid = 32;
  const size_t stride = std::max<size_t>(1, n / kGrid);
  auto best_with = [&](size_t bands) {
    std::vector<double> seed;
    double seed_error = std::numeric_limits<double>::infinity();
    auto consider = [&](const std::vector<size_t>& cuts) {
      std::vector<double> p;
      for (size_t i = 0; i + 1 < cuts.size(); ++i) {
        if (cuts[i + 1] - cuts[i] < kMinBand) return;
        const BandLine l = band_line(s, factor, cuts[i], cuts[i + 1]);
        p.push_back(std::log(l.latency_s));
        p.push_back(std::log(l.busbw_Bps));
      }
      const double e = protocol_loss(p, s, factor);
      if (e < seed_error) seed_error = e, seed = p;
    };
    if (bands == 1) consider({0, n});
    for (size_t a = kMinBand; bands >= 2 && a + kMinBand <= n; a += stride) {
      if (bands == 2) consider({0, a, n});
      for (size_t b = a + kMinBand; bands == 3 && b + kMinBand <= n; b += stride) consider({0, a, b, n});
    }
    if (seed.empty()) return std::pair{std::vector<double>{}, std::numeric_limits<double>::infinity()};
    std::vector<double> p = nelder_mead(seed, s, factor);
    return std::pair{p, protocol_loss(p, s, factor)};
  };
  // Fewer protocols unless one more lowers the error by more than a quarter (plus a floor at
  // noise level): a log that shows no switch gets one protocol, named Simple.
  constexpr double kGain = 1.25;
  const double floor = 1e-6 * static_cast<double>(n);
  auto [p, error] = best_with(1);
  for (size_t bands = 2; bands <= 3; ++bands) {
    auto [q, e] = best_with(bands);
    if (e * kGain + floor < error) p = q, error = e;
  }
  const size_t k = p.size() / 2;
  static constexpr Protocol kNames[3][3] = {
      {Protocol::simple}, {Protocol::ll, Protocol::simple}, {Protocol::ll, Protocol::ll128, Protocol::simple}};
  std::vector<NcclCandidate> out;
  for (size_t i = 0; i < k; ++i) {
    NcclCandidate c{algorithm, kNames[k - 1][i], std::exp(p[2 * i]), std::exp(p[2 * i + 1]), 0};
    // Dropped when it is the fastest for no measured size.
    bool used = false;
    for (const TimedSize& x : s) {
      const double mine = c.latency_s + factor * x.bytes / c.busbw_Bps;
      if (mine <= predict_min(p, factor * x.bytes) * (1 + 1e-12)) used = true;
    }
    if (used) out.push_back(c);
  }
  return out;
}

}  // namespace parallax::models
