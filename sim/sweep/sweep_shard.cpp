// File: sim/sweep/sweep_shard.cpp
#include "sim/sweep/sweep_shard.h"

#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "sim/scenario/config_edit.h"
#include "sim/io/input_error.h"

namespace parallax {

namespace {

std::optional<size_t> parse_count(std::string_view s) {
  size_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

[[noreturn]] void env_error(const char* name, const std::string& value, std::string_view what) {
  throw InputError(SourceLocation{"<environment>", 0, 0}, name, fmt::format("{}='{}': {}", name, value, what));
}

size_t env_count(EnvLookup env, const char* name, size_t fallback) {
  const std::optional<std::string> value = env(name);
  if (!value) return fallback;
  const std::optional<size_t> n = parse_count(*value);
  if (!n) env_error(name, *value, "expected a non-negative integer");
  return *n;
}

}  // namespace

SweepShard parse_shard(std::string_view text) {
  const size_t slash = text.find('/');
  const auto fail = [&](std::string_view what) -> SweepShard {
    throw InputError(SourceLocation{std::string(kCommandLine), 0, 0}, "--shard",
                     fmt::format("--shard '{}': {}", text, what));
  };
  if (slash == std::string_view::npos) return fail("expected I/N, e.g. 0/4");
  const std::optional<size_t> i = parse_count(text.substr(0, slash));
  const std::optional<size_t> n = parse_count(text.substr(slash + 1));
  if (!i || !n) return fail("expected I/N with non-negative integers, e.g. 0/4");
  if (*n == 0) return fail("N must be at least 1");
  if (*i >= *n) return fail("I must be less than N (shards are numbered 0..N-1)");
  return SweepShard{*i, *n};
}

std::optional<std::string> process_env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

std::optional<SweepShard> shard_from_slurm(EnvLookup env) {
  if (!env("SLURM_ARRAY_TASK_COUNT")) return std::nullopt;
  const size_t count = env_count(env, "SLURM_ARRAY_TASK_COUNT", 1);
  if (!env("SLURM_ARRAY_TASK_ID")) env_error("SLURM_ARRAY_TASK_ID", "", "must be set with SLURM_ARRAY_TASK_COUNT");
  const size_t id = env_count(env, "SLURM_ARRAY_TASK_ID", 0);
  const size_t min = env_count(env, "SLURM_ARRAY_TASK_MIN", 0);
  if (count == 0) env_error("SLURM_ARRAY_TASK_COUNT", "0", "must be at least 1");
  if (id < min || id - min >= count)
    env_error("SLURM_ARRAY_TASK_ID", std::to_string(id),
              fmt::format("must lie in SLURM_ARRAY_TASK_MIN..MIN+COUNT-1 = {}..{}", min, min + count - 1));
  return SweepShard{id - min, count};
}

std::string to_string(const SweepShard& shard) {
  return shard.whole() ? std::string() : fmt::format("{}/{}", shard.index, shard.count);
}

}  // namespace parallax
