// File: sim/sweep/sweep_mpi.cpp
// sweep_mpi.h over parallax-mpi.so's calls. The messages, all on MPI_COMM_WORLD between rank 0 and
// one worker, as bytes:
//   worker -> 0  kAsk     (no data)            ready for a first point
//   worker -> 0  kDone    manifest line        the point it held is finished; ready for the next
//   worker -> 0  kFailed  '2' or '1' + message the point it held failed (2: bad input); ready
//   0 -> worker  kWork    plan index, decimal
//   0 -> worker  kStop    (no data)            nothing left: the worker returns
// Rank 0 polls with MPI_Iprobe and a short sleep rather than a blocking receive, which in
// OpenMPI spins a core that a worker on the same node could use.
#include "sim/sweep/sweep_mpi.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>

#include "sim/io/input_error.h"
#include "sim/io/input_file.h"
#include "sim/sweep/sweep_mpi_module.h"

namespace parallax {

namespace {

enum Tag : int { kAsk = 1, kDone = 2, kFailed = 3, kWork = 4, kStop = 5 };
constexpr int kAny = -1;

const SourceLocation kMpiOption{"<command line>", 0, 0};

// Where parallax-mpi.so may be: beside the executable (the build folder, a copied binary), then
// where meson installs it.
std::vector<std::filesystem::path> module_candidates() {
  std::vector<std::filesystem::path> out;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) out.push_back(exe.parent_path() / kMpiModuleName);
  out.push_back(std::filesystem::path(PARALLAX_MPI_MODULE_INSTALL_DIR) / kMpiModuleName);
  return out;
}

// dlopens the first candidate that loads. RTLD_GLOBAL: OpenMPI's own plugins, which it dlopens in
// turn, resolve libmpi's symbols from the global scope. Never closed: MPI_Finalize leaves handlers
// that run at exit.
const ParallaxMpiModule* load_module() {
  std::string tried;
  for (const std::filesystem::path& path : module_candidates()) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
      const char* why = dlerror();
      tried += "; " + (why ? std::string(why) : path.string() + ": cannot be loaded");
      continue;
    }
    const auto entry = reinterpret_cast<ParallaxMpiModuleEntry>(dlsym(handle, kParallaxMpiModuleEntry));
    const ParallaxMpiModule* module = entry ? entry() : nullptr;
    if (module && module->version == kParallaxMpiModuleVersion) return module;
    tried += "; " + path.string() + ": not this build's MPI module (another parallax's?)";
  }
  throw InputError(kMpiOption, "--mpi",
                   "--mpi: cannot load the MPI module " + std::string(kMpiModuleName) + tried +
                       " (it is built beside the parallax binary and installed with it; copy it with the binary)");
}

void send_text(const ParallaxMpiModule& mpi, const std::string& text, int to, Tag tag) {
  mpi.send(text.data(), static_cast<int>(text.size()), to, tag);
}

struct Probed {
  int source = 0;
  int tag = 0;
  int bytes = 0;
};

std::string receive_text(const ParallaxMpiModule& mpi, const Probed& probed) {
  std::string text(static_cast<size_t>(probed.bytes), '\0');
  mpi.receive(text.data(), probed.bytes, probed.source, probed.tag);
  return text;
}

Probed wait_for_message(const ParallaxMpiModule& mpi, int source, int tag) {
  Probed p;
  mpi.wait(source, tag, &p.source, &p.tag, &p.bytes);
  return p;
}

void send_stop(const ParallaxMpiModule& mpi, int to) { mpi.send(nullptr, 0, to, kStop); }

}  // namespace

bool mpi_built() { return PARALLAX_MPI_BUILT; }

MpiSession::MpiSession() {
  if (!mpi_built())
    throw InputError(kMpiOption, "--mpi",
                     "--mpi: this parallax was built without MPI; install OpenMPI (libopenmpi-dev openmpi-bin) and "
                     "configure with meson setup BUILD -Dmpi=enabled (docs/sweeps.md, \"MPI\")");
  mpi_ = load_module();
  mpi_->init(&rank_, &size_);
}

MpiSession::~MpiSession() {
  if (mpi_) mpi_->finalize();
}

void MpiSession::abort(int code) const {
  mpi_->abort(code);
  std::exit(code);  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

SweepRunReport coordinate_sweep_points(const MpiSession& session, size_t todo, const NextPoint& next,
                                       SweepDirectory& dir, SweepProgress& progress) {
  const ParallaxMpiModule& mpi = session.calls();
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  SweepRunReport report;
  std::vector<std::optional<SweepPoint>> held(static_cast<size_t>(session.size()));  // the point each rank runs
  size_t finished = 0;
  std::optional<SweepPoint> waiting = todo > 0 ? next() : std::nullopt;  // the next to hand out
  int working = session.size() - 1;  // ranks not yet dismissed
  while (working > 0) {
    Probed status;
    if (!mpi.poll(&status.source, &status.tag, &status.bytes)) {
      progress.update(finished, elapsed());
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    const int rank = status.source;
    const std::string text = receive_text(mpi, status);
    std::optional<SweepPoint>& had = held[static_cast<size_t>(rank)];
    if (status.tag == kDone || status.tag == kFailed) {
      if (!had)
        throw std::runtime_error("sweep --mpi: rank " + std::to_string(rank) + " reported a point it was not given");
      ++finished;
      if (status.tag == kDone) {
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
      send_text(mpi, std::to_string(had->index), rank, kWork);
      waiting = next();
    } else {
      send_stop(mpi, rank);
      --working;
    }
  }
  progress.finish(finished, elapsed());
  std::sort(report.failures.begin(), report.failures.end(),
            [](const PointFailure& a, const PointFailure& b) { return a.point < b.point; });
  report.wall_s = elapsed();
  return report;
}

void dismiss_sweep_workers(const MpiSession& session) {
  const ParallaxMpiModule& mpi = session.calls();
  for (int dismissed = 0; dismissed < session.size() - 1; ++dismissed) {
    const Probed asked = wait_for_message(mpi, kAny, kAsk);
    (void)receive_text(mpi, asked);
    send_stop(mpi, asked.source);
  }
}

size_t serve_sweep_points(const MpiSession& session, const RankPointRunner& run) {
  const ParallaxMpiModule& mpi = session.calls();
  send_text(mpi, "", 0, kAsk);
  size_t ran = 0;
  while (true) {
    const Probed got = wait_for_message(mpi, 0, kAny);
    const std::string text = receive_text(mpi, got);
    if (got.tag == kStop) return ran;
    const size_t work = std::stoull(text);
    try {
      send_text(mpi, manifest_line(run(work)), 0, kDone);
      ++ran;
    } catch (const InputError& e) {
      send_text(mpi, std::string("2") + e.what(), 0, kFailed);
    } catch (const InputFileError& e) {
      send_text(mpi, std::string("2") + e.what(), 0, kFailed);
    } catch (const std::exception& e) {
      send_text(mpi, std::string("1") + e.what(), 0, kFailed);
    }
  }
}

}  // namespace parallax
