// File: sim/sweep/sweep_mpi.cpp
// sweep_mpi.h with MPI's C API. The messages, all on MPI_COMM_WORLD between rank 0 and one worker:
//   worker -> 0  kAsk     (no data)            ready for a first point
//   worker -> 0  kDone    manifest line (char) the point it held is finished; ready for the next
//   worker -> 0  kFailed  '2' or '1' + message the point it held failed (2: bad input); ready
//   0 -> worker  kWork    uint64 plan index
//   0 -> worker  kStop    (no data)            nothing left: the worker returns
// Rank 0 polls with MPI_Iprobe and a short sleep rather than a blocking receive, which in
// OpenMPI spins a core that a worker on the same node could use.
#include "sim/sweep/sweep_mpi.h"

// The C API only: OpenMPI's deprecated C++ bindings (pulled in by mpi.h in C++) do not build
// warning-free.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/io/input_file.h"
#include "sim/io/input_error.h"

namespace parallax {

namespace {

enum Tag : int { kAsk = 1, kDone = 2, kFailed = 3, kWork = 4, kStop = 5 };

void send_text(const std::string& text, int to, Tag tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::string receive_text(const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_CHAR, &count);
  std::string text(static_cast<size_t>(count), '\0');
  MPI_Recv(text.data(), count, MPI_CHAR, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

void send_stop(int to) { MPI_Send(nullptr, 0, MPI_CHAR, to, kStop, MPI_COMM_WORLD); }

}  // namespace

bool mpi_built() { return true; }

MpiSession::MpiSession() {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void MpiSession::abort(int code) const {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

SweepRunReport coordinate_sweep_points(const MpiSession& mpi, size_t todo, const NextPoint& next, SweepDirectory& dir,
                                       SweepProgress& progress) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  SweepRunReport report;
  std::vector<std::optional<SweepPoint>> held(static_cast<size_t>(mpi.size()));  // the point each rank runs
  size_t finished = 0;
  std::optional<SweepPoint> waiting = todo > 0 ? next() : std::nullopt;  // the next to hand out
  int working = mpi.size() - 1;  // ranks not yet dismissed
  while (working > 0) {
    int ready = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ready, &status);
    if (!ready) {
      progress.update(finished, elapsed());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    const int rank = status.MPI_SOURCE;
    const std::string text = receive_text(status);
    std::optional<SweepPoint>& had = held[static_cast<size_t>(rank)];
    if (status.MPI_TAG == kDone || status.MPI_TAG == kFailed) {
      if (!had)
        throw std::runtime_error("sweep --mpi: rank " + std::to_string(rank) + " reported a point it was not given");
      ++finished;
      if (status.MPI_TAG == kDone) {
        dir.record(parse_manifest_line(text));
        ++report.ran;
      } else {
        const bool bad_input = !text.empty() && text[0] == '2';
        report.failures.push_back(
            PointFailure{had->index, had->hash, text.empty() ? "" : text.substr(1), bad_input});
      }
    }
    had = std::move(waiting);
    waiting.reset();
    if (had) {
      const uint64_t work = had->index;
      MPI_Send(&work, 1, MPI_UINT64_T, rank, kWork, MPI_COMM_WORLD);
      waiting = next();
    } else {
      send_stop(rank);
      --working;
    }
  }
  progress.finish(finished, elapsed());
  std::sort(report.failures.begin(), report.failures.end(),
            [](const PointFailure& a, const PointFailure& b) { return a.point < b.point; });
  report.wall_s = elapsed();
  return report;
}

void dismiss_sweep_workers(const MpiSession& mpi) {
  for (int dismissed = 0; dismissed < mpi.size() - 1; ++dismissed) {
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, kAsk, MPI_COMM_WORLD, &status);
    (void)receive_text(status);
    send_stop(status.MPI_SOURCE);
  }
}

size_t serve_sweep_points(const MpiSession&, const RankPointRunner& run) {
  send_text("", 0, kAsk);
  size_t ran = 0;
  while (true) {
    MPI_Status status;
    MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    if (status.MPI_TAG == kStop) {
      (void)receive_text(status);
      return ran;
    }
    uint64_t work = 0;
    MPI_Recv(&work, 1, MPI_UINT64_T, 0, kWork, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    try {
      send_text(manifest_line(run(static_cast<size_t>(work))), 0, kDone);
      ++ran;
    } catch (const InputError& e) {
      send_text(std::string("2") + e.what(), 0, kFailed);
    } catch (const InputFileError& e) {
      send_text(std::string("2") + e.what(), 0, kFailed);
    } catch (const std::exception& e) {
      send_text(std::string("1") + e.what(), 0, kFailed);
    }
  }
}

}  // namespace parallax
