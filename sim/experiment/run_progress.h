// File: sim/experiment/run_progress.h
// The progress line of `parallax run` on stderr: "run NAME: 42% 3.1 s, about 4.3 s left", redrawn
// in place, only when stderr is a terminal (never into a file or a pipe), only once the run has
// taken a second, and erased when the run ends, so it never lands in a log or between tables.
// Experiments report the fraction done from the simulation thread; a small thread draws it.
// `run` calls finish() before it prints the tables, so on one terminal the line never lands inside
// them.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "sim/engine/engine.h"

namespace parallax {

class RunProgress {
 public:
  // Draws on `out` only when `enabled` (the caller checks isatty and --quiet). A disabled
  // progress costs an atomic store per report.
  RunProgress(std::FILE* out, std::string label, bool enabled);
  ~RunProgress();  // finish()
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

  // Stops drawing for good and erases the line; idempotent.
  void finish();

  // Fraction of the run done, 0..1 (values outside are clamped).
  void report(double fraction) { fraction_.store(fraction, std::memory_order_relaxed); }

  // The line for `fraction` after `elapsed_s`: "run q: 42% 3.1 s, about 4.3 s left" (the ETA
  // assumes the rest goes as fast as what is done; none before 1 %).
  static std::string line(const std::string& label, double fraction, double elapsed_s);

 private:
  void draw_until_stopped();
  void erase_locked();  // with mutex_ held

  std::FILE* out_;
  std::string label_;
  std::atomic<double> fraction_{0};
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

// Runs `engine` to the end, reporting `first + share × (simulated time / horizon)` (capped at
// first + share) to `progress` in 100 steps of simulated time, then the rest after `horizon`.
// The same events fire in the same order as engine.run(): only the pauses between them differ.
void run_engine_reporting(Engine& engine, Time horizon, RunProgress* progress, double first = 0, double share = 1);

}  // namespace parallax
