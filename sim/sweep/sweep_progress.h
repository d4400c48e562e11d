// File: sim/sweep/sweep_progress.h
// What a running sweep tells its user: on a terminal, one line redrawn in place (a bar, points
// done, points/s, ETA) several times a second; otherwise (a log file, a Slurm job) a plain line
// every ten seconds. The rate counts only points run by this process, so a resumed sweep's ETA is
// not flattered by the points it skipped. Deciding when a point finishes is left to the runner.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace parallax {

// "[#########.........] 37/64 (+12 done before)  2.10 points/s  ETA 0:00:13" (bar) or
// "sweep: 37/64 points, 2.10 points/s, ETA 0:00:13" (plain). ETA is "-" until a point finishes.
std::string format_progress(size_t finished, size_t todo, size_t done_before, double elapsed_s, bool bar);

// "0:00:13", "2:05:00"; more than 99 hours reads ">99h".
std::string format_eta(double seconds);

class SweepProgress {
 public:
  enum class Style { bar, lines, silent };

  // `style` bar needs a terminal: pick it with isatty (tools decide).
  SweepProgress(std::FILE* out, Style style, size_t todo, size_t done_before);

  std::chrono::milliseconds interval() const;
  void update(size_t finished, double elapsed_s);  // prints when the interval has passed
  void finish(size_t finished, double elapsed_s);  // the last line (and a newline after a bar)

 private:
  void print(size_t finished, double elapsed_s);

  std::FILE* out_;
  Style style_;
  size_t todo_;
  size_t done_before_;
  double last_print_s_ = -1e9;
};

}  // namespace parallax
