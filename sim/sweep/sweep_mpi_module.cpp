// File: sim/sweep/sweep_mpi_module.cpp
// parallax-mpi.so (sweep_mpi_module.h): the MPI calls `sweep --mpi` needs, with MPI's C API.
#include "sim/sweep/sweep_mpi_module.h"

// The C API only: OpenMPI's deprecated C++ bindings (pulled in by mpi.h in C++) do not build
// warning-free.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

namespace {

int source_or_any(int source) { return source < 0 ? MPI_ANY_SOURCE : source; }
int tag_or_any(int tag) { return tag < 0 ? MPI_ANY_TAG : tag; }

void describe(const MPI_Status& status, int* from, int* tag, int* bytes) {
  *from = status.MPI_SOURCE;
  *tag = status.MPI_TAG;
  MPI_Get_count(&status, MPI_CHAR, bytes);
}

void init(int* rank, int* size) {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
}

void finalize() { MPI_Finalize(); }

void abort_job(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

int poll_any(int* from, int* tag, int* bytes) {
  int ready = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
  if (ready) describe(status, from, tag, bytes);
  return ready;
}

void wait_for(int source, int tag, int* from, int* got_tag, int* bytes) {
  MPI_Status status;
  MPI_Probe(source_or_any(source), tag_or_any(tag), MPI_COMM_WORLD, &status);
  describe(status, from, got_tag, bytes);
}

void receive(char* data, int bytes, int source, int tag) {
  MPI_Recv(data, bytes, MPI_CHAR, source, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void send(const char* data, int bytes, int to, int tag) {
  MPI_Send(data, bytes, MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

const ParallaxMpiModule kModule{kParallaxMpiModuleVersion, init, finalize, abort_job, poll_any, wait_for, receive, send};

}  // namespace

extern "C" __attribute__((visibility("default"))) const ParallaxMpiModule* parallax_mpi_module() { return &kModule; }
