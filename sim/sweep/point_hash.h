// File: sim/sweep/point_hash.h
// The identity of a sweep point: a 64-bit FNV-1a hash of the canonical text of its configuration
// (the base scenario's bytes, then its overrides sorted by key), printed as 16 hex digits. It names
// the point's output folder and is what a resumed sweep skips. It depends on no platform, compiler
// or library version: FNV-1a over bytes is defined to the bit. What it does not cover (files the
// base scenario names, the parallax version) is listed in docs/sweeps.md, "Hashing".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parallax {

inline constexpr uint64_t kFnv1a64Offset = 0xcbf29ce484222325ULL;
inline constexpr uint64_t kFnv1a64Prime = 0x100000001b3ULL;

// FNV-1a, 64-bit: for each byte, state = (state ^ byte) * prime (mod 2^64).
constexpr uint64_t fnv1a64(std::string_view bytes, uint64_t state = kFnv1a64Offset) {
  for (const char c : bytes) {
    state ^= static_cast<uint8_t>(c);
    state *= kFnv1a64Prime;
  }
  return state;
}

// The hashed text, version-tagged:
//   "parallax-sweep-point v1\nbase <N bytes>\n<base text>\nset <key>=<value>\n..."
// with the overrides ("key=canonical value") sorted by key, so the order of the axes in the sweep
// file does not change a point's identity.
std::string point_identity_text(std::string_view base_text, std::vector<std::string> overrides);

// fnv1a64(point_identity_text(...)) as 16 lower-case hex digits.
std::string point_hash(std::string_view base_text, const std::vector<std::string>& overrides);

}  // namespace parallax
