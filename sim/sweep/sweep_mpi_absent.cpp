// File: sim/sweep/sweep_mpi_absent.cpp
// sweep_mpi.h in a build without MPI: --mpi is refused with the way to get it.
#include <cstdlib>

#include "sim/io/input_error.h"
#include "sim/sweep/sweep_mpi.h"

namespace parallax {

bool mpi_built() { return false; }

MpiSession::MpiSession() {
  throw InputError(SourceLocation{"<command line>", 0, 0}, "--mpi",
                   "--mpi: this parallax was built without MPI; install OpenMPI (libopenmpi-dev openmpi-bin) and "
                   "configure with meson setup BUILD -Dmpi=enabled (docs/sweeps.md, \"MPI\")");
}

MpiSession::~MpiSession() = default;

void MpiSession::abort(int code) const { std::exit(code); }

SweepRunReport coordinate_sweep_points(const MpiSession&, size_t, const NextPoint&, SweepDirectory&, SweepProgress&) {
  return {};  // unreachable: no MpiSession can exist
}

void dismiss_sweep_workers(const MpiSession&) {}

size_t serve_sweep_points(const MpiSession&, const RankPointRunner&) { return 0; }

}  // namespace parallax
