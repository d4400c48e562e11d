// File: sim/sweep/sweep_runner.h
// Runs sweep points on N worker threads (std::jthread), one simulation per worker at a time:
// workers pull the next point from a shared source (so long points do not hold up a static
// share; the points are computed as they are taken, never held all at once), hand each finished point to SweepDirectory::record, and go on. A point that throws
// is reported and skipped (it is not in the manifest, so a rerun tries it again); the others go on.
// The main thread only draws progress. What running a point means is the caller's PointRunner:
// simulations share no mutable state, so it may be called on several threads at once.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/sweep/sweep_directory.h"
#include "sim/sweep/sweep_expansion.h"
#include "sim/sweep/sweep_manifest.h"
#include "sim/sweep/sweep_progress.h"

namespace parallax {

// Runs one point into `dir` (its own folder) and returns its manifest entry; throws on failure.
using PointRunner = std::function<ManifestEntry(const SweepPoint& point, const std::filesystem::path& dir)>;

struct PointFailure {
  size_t point = 0;
  std::string hash;
  std::string message;
  bool bad_input = false;  // an InputError: exit code 2 rather than 1
};

struct SweepRunReport {
  size_t ran = 0;                      // finished and recorded
  std::vector<PointFailure> failures;  // in point order
  double wall_s = 0;
};

// The next point to run, or nullopt when none is left. Called by one worker at a time.
using NextPoint = std::function<std::optional<SweepPoint>()>;

// Runs the `todo` points `next` yields (it yields exactly `todo`). `jobs` >= 1 (more workers than
// points are not started).
SweepRunReport run_sweep_points(size_t todo, const NextPoint& next, size_t jobs, const PointRunner& run,
                                SweepDirectory& dir, SweepProgress& progress);

// The same over a list held in memory (small sweeps, tests).
SweepRunReport run_sweep_points(const std::vector<const SweepPoint*>& todo, size_t jobs, const PointRunner& run,
                                SweepDirectory& dir, SweepProgress& progress);

}  // namespace parallax
