// File: sim/engine/random_streams.cpp
#include "sim/engine/random_streams.h"

#include <cmath>

namespace parallax {

uint64_t splitmix64_next(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

namespace {
uint64_t fnv1a(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}
}  // namespace

RandomStream::RandomStream(uint64_t seed) {
  uint64_t st = seed;
  for (auto& w : s_) w = splitmix64_next(st);
}


double RandomStream::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

uint64_t RandomStream::uniform_int(uint64_t n) {
  if (n == 0) return 0;
  // Lemire's nearly-divisionless method with rejection: exact and unbiased.
  unsigned __int128 m = static_cast<unsigned __int128>(next_u64()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(next_u64()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

double RandomStream::exponential(double mean) { return -std::log1p(-uniform01()) * mean; }

double RandomStream::normal(double mean, double stddev) {
  if (have_spare_normal_) {
    have_spare_normal_ = false;
    return mean + stddev * spare_normal_;
  }
  double u, v, s;
  do {  // Marsaglia polar method
    u = 2 * uniform01() - 1;
    v = 2 * uniform01() - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  const double f = std::sqrt(-2 * std::log(s) / s);
  spare_normal_ = v * f;
  have_spare_normal_ = true;
  return mean + stddev * u * f;
}

double RandomStream::gamma(double shape, double scale) {
  if (shape < 1) {  // boost: Gamma(k) = Gamma(k+1) * U^(1/k)
    const double u = uniform01();
    return gamma(shape + 1, scale) * std::pow(u == 0 ? 0x1.0p-53 : u, 1 / shape);
  }
  const double d = shape - 1.0 / 3, c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x, v;
    do {
      x = normal(0, 1);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = uniform01();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v * scale;
    if (std::log(u) < 0.5 * x * x + d * (1 - v + std::log(v))) return d * v * scale;
  }
}

RandomStream& RandomStreams::stream(std::string_view name) {
  auto it = streams_.find(name);
  if (it != streams_.end()) return it->second;
  uint64_t st = seed_ ^ fnv1a(name);
  return streams_.emplace(std::string(name), RandomStream(splitmix64_next(st))).first->second;
}

}  // namespace parallax
