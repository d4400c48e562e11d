// File: tests/property/property_seeds.h
// The seed conventions of every property test: seeds 1..N (N = PARALLAX_PROPERTY_RUNS, or the
// test's default scaled by PARALLAX_PROPERTY_PERCENT, at least 1), or only PARALLAX_PROPERTY_SEED
// when it is set; each seed's failure message says how to rerun it. CI's sanitizer phase runs a
// quarter of the default seeds (PARALLAX_PROPERTY_PERCENT=25): the release phase runs them all.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

namespace parallax::property {

inline uint64_t property_env_or(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

struct SeedRange {
  uint64_t first = 1, last = 0;
};

inline SeedRange property_seeds(uint64_t default_runs) {
  const uint64_t only = property_env_or("PARALLAX_PROPERTY_SEED", 0);
  if (only != 0) return {only, only};
  const uint64_t percent = property_env_or("PARALLAX_PROPERTY_PERCENT", 100);
  const uint64_t scaled = default_runs * percent / 100;
  return {1, property_env_or("PARALLAX_PROPERTY_RUNS", scaled > 0 ? scaled : 1)};
}

// For SCOPED_TRACE: "<what>seed N (rerun: PARALLAX_PROPERTY_SEED=N)".
inline std::string seed_note(uint64_t seed, const std::string& what = "") {
  return what + "seed " + std::to_string(seed) + " (rerun: PARALLAX_PROPERTY_SEED=" + std::to_string(seed) + ")";
}

}  // namespace parallax::property
