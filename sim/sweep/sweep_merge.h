// File: sim/sweep/sweep_merge.h
// Combines the output folders of one sweep's shards (or of interrupted runs) into one: the
// manifests are read, points deduplicated by hash, and DIR/manifest.jsonl, DIR/results.csv and
// DIR/sweep.json written in point order, so merging the shards of a sweep gives the table a single
// process gives. The point folders (points/<hash>/) stay where they are. Every input must hold the
// same sweep (equal sweep ids in sweep.json).
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

namespace parallax {

struct MergeReport {
  size_t points_total = 0;      // in the sweep
  size_t merged = 0;            // distinct points written
  size_t duplicates = 0;        // lines for a hash already taken from an earlier input
  size_t unreadable_lines = 0;  // torn or malformed manifest lines skipped
  std::vector<size_t> missing;  // point indices no input holds, ascending
};

// Throws InputError for a folder that is not a sweep output, for sweeps that differ, for one hash
// at two point indices, and when `out` is one of the inputs.
MergeReport merge_sweep_outputs(const std::vector<std::filesystem::path>& inputs, const std::filesystem::path& out);

}  // namespace parallax
