// File: sim/sweep/sweep_mpi.h
// Running a sweep's points on the ranks of an MPI job (`mpirun -np N parallax sweep FILE --mpi`):
// rank 0 is the coordinator: it alone opens the output folder (lock, manifest, results.csv), hands
// out one point at a time to whichever worker asks next (so long points do not hold up a static
// share), and records each finished point the worker reports. Ranks 1..N-1 are workers: each runs
// its point into DIR/points/<hash>/ (a file system all ranks share) and sends back the manifest
// line. A worker that dies takes down the job (mpirun aborts it) and loses only the points in
// flight: they have no manifest line, so running the same command again redoes them and skips the
// rest. What running a point means is the caller's; the messages are defined in sweep_mpi.cpp.
//
// MPI itself is in parallax-mpi.so (sweep_mpi_module.h), built beside the binary when meson finds
// MPI (-Dmpi=auto|enabled) and loaded by MpiSession: nothing else in parallax pays for loading it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "sim/sweep/sweep_directory.h"
#include "sim/sweep/sweep_expansion.h"
#include "sim/sweep/sweep_manifest.h"
#include "sim/sweep/sweep_progress.h"
#include "sim/sweep/sweep_runner.h"

struct ParallaxMpiModule;

namespace parallax {

// True when this binary was built with MPI (its parallax-mpi.so was built too).
bool mpi_built();

// The module's file name, looked for beside the running executable, then in the install
// directory (LIBDIR/parallax).
inline constexpr const char* kMpiModuleName = "parallax-mpi.so";

// Loads parallax-mpi.so, MPI_Init on construction, MPI_Finalize on destruction; one per process.
class MpiSession {
 public:
  // Throws InputError (at "<command line>", key "--mpi") when built without MPI or when the
  // module cannot be loaded (the message names the files tried and why).
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  // Ends every rank of the job with `code` (for errors a worker cannot report otherwise).
  [[noreturn]] void abort(int code) const;
  // The module's MPI calls.
  const ParallaxMpiModule& calls() const { return *mpi_; }

 private:
  const ParallaxMpiModule* mpi_ = nullptr;
  int rank_ = 0;
  int size_ = 1;
};

// Rank 0: hands the `todo` points `next` yields to ranks 1..size-1, one plan index at a time, and
// records what they send back; dismisses every worker when done. Needs size() >= 2.
SweepRunReport coordinate_sweep_points(const MpiSession& mpi, size_t todo, const NextPoint& next, SweepDirectory& dir,
                                       SweepProgress& progress);

// Rank 0, when it fails before handing out anything: tells every worker to stop.
void dismiss_sweep_workers(const MpiSession& mpi);

// Runs the point with this plan index into its folder; returns its manifest entry.
using RankPointRunner = std::function<ManifestEntry(size_t point_index)>;

// Ranks 1..size-1: asks rank 0 for points and runs them until dismissed. Returns the number run.
size_t serve_sweep_points(const MpiSession& mpi, const RankPointRunner& run);

}  // namespace parallax
