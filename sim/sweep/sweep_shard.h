// File: sim/sweep/sweep_shard.h
// A deterministic slice of a sweep for job arrays: shard I of N holds the points whose index
// mod N == I, so N shards partition the points exactly whatever N is. Given on the command line
// ("--shard I/N") or by Slurm (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, and
// SLURM_ARRAY_TASK_MIN when the array does not start at 0). Running the slice is left to callers.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace parallax {

struct SweepShard {
  size_t index = 0;  // I, 0-based
  size_t count = 1;  // N >= 1

  bool holds(size_t point_index) const { return point_index % count == index; }
  bool whole() const { return count == 1; }
};

// "I/N" with 0 <= I < N. Throws InputError at "<command line>" naming --shard otherwise.
SweepShard parse_shard(std::string_view text);

// Looks up an environment variable; injectable so tests need not touch the real environment.
using EnvLookup = std::optional<std::string> (*)(const char* name);
std::optional<std::string> process_env(const char* name);

// The shard from SLURM_ARRAY_TASK_* when SLURM_ARRAY_TASK_COUNT is set (task id minus
// SLURM_ARRAY_TASK_MIN, which defaults to 0), else nullopt. Malformed values throw InputError
// naming the variable.
std::optional<SweepShard> shard_from_slurm(EnvLookup env = process_env);

// "I/N" ("" for the whole sweep): for messages and sweep.json.
std::string to_string(const SweepShard& shard);

}  // namespace parallax
