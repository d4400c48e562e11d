// File: sim/engine/random_streams.h
// Named, seeded random streams. Every source of randomness asks for its own stream by name; the
// stream's state is derived from (scenario seed, name) only, so adding a new source never shifts
// the draws of the others. The generator (xoshiro256**) and every distribution are written here,
// not taken from <random>, whose distributions differ between standard libraries: the same seed
// gives the same numbers on every machine.
#pragma once

#include <bit>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace parallax {

// SplitMix64 step (Steele, Lea, Flood 2014); also used to seed xoshiro.
uint64_t splitmix64_next(uint64_t& state);

class RandomStream {
 public:
  explicit RandomStream(uint64_t seed);
  // Inline: the hold model (`bench engine`) draws once per event.
  uint64_t next_u64() {
    const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }
  double uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }  // [0, 1), 53 bits
  double uniform(double lo, double hi);     // [lo, hi)
  uint64_t uniform_int(uint64_t n);         // [0, n), unbiased
  double exponential(double mean);
  double normal(double mean, double stddev);
  // Gamma with the given shape k and scale theta (Marsaglia-Tsang).
  double gamma(double shape, double scale);

 private:
  uint64_t s_[4];
  bool have_spare_normal_ = false;
  double spare_normal_ = 0;
};

class RandomStreams {
 public:
  explicit RandomStreams(uint64_t seed) : seed_(seed) {}
  uint64_t seed() const { return seed_; }
  // The stream for `name`, created on first use. References stay valid for the object's life.
  RandomStream& stream(std::string_view name);

 private:
  uint64_t seed_;
  std::map<std::string, RandomStream, std::less<>> streams_;
};

}  // namespace parallax
