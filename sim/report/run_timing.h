// File: sim/report/run_timing.h
// timing.json: how long this machine took for a run (wall-clock seconds, events per second, the
// ratio of simulated to wall time). These figures measure the host, not the simulation, so they
// are kept out of summary.json and the CSV tables: those stay byte-identical for one scenario and
// seed across runs, sweep -j, shards and MPI ranks, and timing.json is the one file that is not.
// The fields are defined in docs/metrics.md, "timing.json"; deciding them is left to each run.
#pragma once

#include <chrono>
#include <filesystem>

#include <nlohmann/json.hpp>

namespace parallax {

// The file name, beside summary.json in a run's output folder and in a sweep's folder.
inline constexpr const char* kTimingFile = "timing.json";

// A steady-clock stopwatch started at construction.
class WallClock {
 public:
  double elapsed_s() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// {"wall_s": wall_s}, plus "events_per_s" when events > 0 and "sim_to_wall_ratio" when
// simulated_s > 0 (both only when wall_s > 0).
nlohmann::ordered_json timing_json(double wall_s, double simulated_s = 0, double events = 0);

// Writes DIR/timing.json atomically (before summary.json, which a run writes last).
void write_timing_json(const std::filesystem::path& dir, const nlohmann::ordered_json& timing);

}  // namespace parallax
