// File: sim/sweep/sweep_mpi_module.h
// The C interface of parallax-mpi.so, the shared module that holds every call into MPI. MPI is
// loaded only by `sweep --mpi` (sweep_mpi.cpp dlopens the module), not at every start of parallax:
// libmpi and the libraries it pulls in (open-rte, open-pal, hwloc, libevent) cost each process
// about 1.25 ms of dynamic loading and constructors (docs/performance.md, "Process start-up").
// All messages are bytes on MPI_COMM_WORLD; -1 as a source or tag means any.
#pragma once

extern "C" {

// Bumped whenever a member changes: a module from another build is refused, not misread.
inline constexpr int kParallaxMpiModuleVersion = 1;

struct ParallaxMpiModule {
  int version;
  void (*init)(int* rank, int* size);  // MPI_Init, then this process's rank and the job's size
  void (*finalize)();
  void (*abort)(int code);  // MPI_Abort on MPI_COMM_WORLD: ends every rank
  // MPI_Iprobe: 1 with the waiting message's source, tag and length when there is one, else 0.
  int (*poll)(int* source, int* tag, int* bytes);
  // MPI_Probe: waits for a message from `source` with `tag`.
  void (*wait)(int source, int tag, int* from, int* got_tag, int* bytes);
  void (*receive)(char* data, int bytes, int source, int tag);
  void (*send)(const char* data, int bytes, int to, int tag);
};

// The module's one exported symbol.
const ParallaxMpiModule* parallax_mpi_module();
using ParallaxMpiModuleEntry = const ParallaxMpiModule* (*)();
inline constexpr const char* kParallaxMpiModuleEntry = "parallax_mpi_module";
}
