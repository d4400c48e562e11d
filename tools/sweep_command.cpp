// File: tools/sweep_command.cpp
#include "tools/sweep_command.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/experiment/sweep_point.h"
#include "sim/io/input_error.h"
#include "sim/sweep/sweep_directory.h"
#include "sim/sweep/sweep_expansion.h"
#include "sim/sweep/sweep_merge.h"
#include "sim/sweep/sweep_mpi.h"
#include "sim/sweep/sweep_runner.h"
#include "sim/sweep/sweep_shard.h"
#include "sim/sweep/sweep_spec.h"
#include "tools/report_command.h"

namespace parallax {

namespace {

// The points this run takes, in index order: the shard's (index mod N == I, taken arithmetically),
// less those the folder lists as finished. Each is computed when it is taken.
class TodoPoints {
 public:
  TodoPoints(const SweepSpace& space, const SweepShard& shard, const SweepDirectory& dir)
      : space_(space), shard_(shard), dir_(dir), index_(shard.index) {}

  std::optional<size_t> next_index() {
    while (index_ < space_.size()) {
      const size_t i = index_;
      index_ = space_.size() - i <= shard_.count ? space_.size() : i + shard_.count;
      if (!dir_.finished(space_.hash_of(i))) return i;
    }
    return std::nullopt;
  }
  std::optional<SweepPoint> next() {
    const std::optional<size_t> i = next_index();
    if (!i) return std::nullopt;
    return space_.point(*i);
  }

 private:
  const SweepSpace& space_;
  const SweepShard shard_;
  const SweepDirectory& dir_;
  size_t index_;
};

size_t points_in_shard(size_t points, const SweepShard& shard) {
  return points > shard.index ? (points - shard.index - 1) / shard.count + 1 : 0;
}

SweepShard choose_shard(const std::string& flag) {
  if (!flag.empty()) return parse_shard(flag);
  if (const std::optional<SweepShard> slurm = shard_from_slurm()) return *slurm;
  return SweepShard{};
}

std::string default_out_dir(const std::string& sweep_path) {
  return std::filesystem::path(sweep_path).stem().string() + "-sweep";
}

// Point by point, as each is computed; stops when stdout fails (the caller reports it).
void list_points(const SweepSpace& space, const SweepShard& shard) {
  for (size_t i = shard.index; i < space.size() && !std::ferror(stdout);) {
    const SweepPoint p = space.point(i);
    std::fputs(fmt::format("{} {} {}\n", p.index, p.hash, fmt::join(p.overrides, " ")).c_str(), stdout);
    i = space.size() - i <= shard.count ? space.size() : i + shard.count;
  }
}

}  // namespace

CLI::App* add_sweep_subcommand(CLI::App& app, SweepOptions& o) {
  CLI::App* cmd = app.add_subcommand("sweep", "Run every point of a sweep file (resumable; docs/sweeps.md)");
  cmd->add_option("file", o.sweep_path, "sweep YAML: base scenario + axes")->required();
  cmd->add_option("--out", o.out_dir, "output folder (default: <file stem>-sweep)");
  cmd->add_option("-j,--jobs", o.jobs, "worker threads (default: one per hardware thread)")
      ->check(CLI::Range(size_t{1}, size_t{4096}));
  cmd->add_option("--shard", o.shard, "run points with index mod N == I (default: SLURM_ARRAY_TASK_*)")
      ->type_name("I/N");
  cmd->add_flag("--list", o.list, "print index, hash and overrides of each point; run nothing");
  cmd->add_flag("--quiet", o.quiet, "no progress lines");
  cmd->add_flag("--mpi", o.mpi, "under mpirun: rank 0 hands out points, the other ranks run them");
  return cmd;
}

CLI::App* add_merge_subcommand(CLI::App& app, MergeOptions& o) {
  CLI::App* cmd = app.add_subcommand("merge", "Combine the output folders of a sweep's shards");
  cmd->add_option("dirs", o.inputs, "sweep output folders")->required();
  cmd->add_option("--out", o.out_dir, "merged folder")->required();
  return cmd;
}

namespace {

const SourceLocation kCommandLine{"<command line>", 0, 0};

// A worker rank of `sweep --mpi`: runs the points rank 0 hands it until dismissed. It expands the
// sweep itself (every rank reads the same file) and writes only into DIR/points/<hash>/.
int serve_mpi_sweep(const MpiSession& mpi, const SweepOptions& options, const std::filesystem::path& out) {
  std::optional<SweepSpec> spec;
  std::optional<SweepSpace> plan;
  try {
    spec = parse_sweep_file(options.sweep_path);
    plan.emplace(*spec);
  } catch (const InputError&) {
    serve_sweep_points(mpi, nullptr);  // rank 0 fails alike, reports it and dismisses every rank
    return 2;
  }
  serve_sweep_points(mpi, [&](size_t index) {
    if (index >= plan->size()) throw std::runtime_error(fmt::format("sweep --mpi: no point {}", index));
    const SweepPoint p = plan->point(index);
    return run_sweep_point(*spec, *plan, p, sweep_point_dir(out, p));
  });
  return 0;
}

}  // namespace

int sweep_command(const SweepOptions& options) {
  if (options.mpi && options.jobs > 0)
    throw InputError(kCommandLine, "--mpi",
                     "--mpi runs one point per rank at a time: start more ranks (mpirun -np N) instead of -j");
  std::optional<MpiSession> mpi;
  if (options.mpi && !options.list) {
    mpi.emplace();
    if (mpi->size() < 2)
      throw InputError(kCommandLine, "--mpi",
                       "--mpi needs at least 2 ranks (rank 0 hands out points, the others run them): mpirun -np N, N >= 2");
  }
  const std::filesystem::path out = options.out_dir.empty() ? default_out_dir(options.sweep_path) : options.out_dir;
  if (mpi && mpi->rank() > 0) return serve_mpi_sweep(*mpi, options, out);

  // Until points are handed out, an error on rank 0 must still release the waiting workers.
  bool workers_waiting = mpi.has_value();
  try {
    const SweepSpec spec = parse_sweep_file(options.sweep_path);
    const SweepSpace plan(spec);
    const SweepShard shard = choose_shard(options.shard);
    if (options.list) {
      list_points(plan, shard);
      return 0;
    }
    SweepDirectory dir(out, plan,
                       SweepIdentity{sweep_id(plan), spec.source, spec.base_path, plan.size(), plan.axis_keys,
                                     to_string(shard)});
    if (dir.repaired_lines() > 0)
      std::fprintf(stderr, "note: dropped %zu torn or repeated manifest lines; those points run again\n",
                   dir.repaired_lines());
    if (dir.foreign_entries() > 0)
      std::fprintf(stderr, "note: %zu finished points in %s are not in this sweep; results.csv leaves them out\n",
                   dir.foreign_entries(), out.c_str());

    const size_t in_shard = points_in_shard(plan.size(), shard);
    size_t done_before = 0;
    for (const size_t i : dir.finished_points()) done_before += shard.holds(i) ? 1 : 0;
    const size_t todo = in_shard - done_before;
    {
      TodoPoints ahead(plan, shard, dir);
      validate_sweep_points(spec, plan, [&] { return ahead.next_index(); });
    }
    TodoPoints points(plan, shard, dir);
    const NextPoint next = [&] { return points.next(); };

    const size_t jobs = mpi                ? static_cast<size_t>(mpi->size() - 1)
                        : options.jobs > 0 ? options.jobs
                                           : std::max(1u, std::thread::hardware_concurrency());
    if (!options.quiet)
      std::fprintf(stderr, "sweep %s: %zu points%s, %zu done before, %zu to run on %zu %s -> %s\n",
                   options.sweep_path.c_str(), plan.size(),
                   shard.whole() ? "" : fmt::format(" (shard {}: {})", to_string(shard), in_shard).c_str(),
                   done_before, todo, mpi ? jobs : std::min(jobs, std::max<size_t>(todo, 1)),
                   mpi ? "worker ranks" : "workers", out.c_str());

    const SweepProgress::Style style = options.quiet || todo == 0 ? SweepProgress::Style::silent
                                       : ::isatty(::fileno(stderr))   ? SweepProgress::Style::bar
                                                                      : SweepProgress::Style::lines;
    SweepProgress progress(stderr, style, todo, done_before);
    SweepRunReport report;
    if (mpi) {
      workers_waiting = false;
      try {
        report = coordinate_sweep_points(*mpi, todo, next, dir, progress);
      } catch (const std::exception& e) {  // workers hold points: only ending the job frees them
        std::fprintf(stderr, "error: %s\n", e.what());
        mpi->abort(1);
      }
    } else {
      const PointRunner runner = [&](const SweepPoint& p, const std::filesystem::path& point_dir) {
        return run_sweep_point(spec, plan, p, point_dir);
      };
      report = run_sweep_points(todo, next, jobs, runner, dir, progress);
    }
    dir.finalize();
    write_sweep_report(out);  // DIR/report.html from sweep.json and results.csv (tools/report_command.h)

    bool bad_input = false;
    for (const PointFailure& f : report.failures) {
      std::fprintf(stderr, "error: point %zu (%s): %s\n", f.point, f.hash.c_str(), f.message.c_str());
      bad_input = bad_input || f.bad_input;
    }
    if (!options.quiet)
      std::fprintf(stderr, "ran %zu points in %.2f s (%.2f points/s); %zu failed; results: %s\n", report.ran,
                   report.wall_s, report.wall_s > 0 ? static_cast<double>(report.ran) / report.wall_s : 0.0,
                   report.failures.size(), (out / "results.csv").c_str());
    if (report.failures.empty()) return 0;
    return bad_input ? 2 : 1;
  } catch (...) {
    if (workers_waiting) dismiss_sweep_workers(*mpi);
    throw;
  }
}

int merge_command(const MergeOptions& options) {
  std::vector<std::filesystem::path> inputs(options.inputs.begin(), options.inputs.end());
  const MergeReport r = merge_sweep_outputs(inputs, options.out_dir);
  write_sweep_report(options.out_dir);
  std::printf("merged %zu of %zu points from %zu folders into %s", r.merged, r.points_total, inputs.size(),
              options.out_dir.c_str());
  if (r.duplicates > 0) std::printf(" (%zu duplicate lines dropped)", r.duplicates);
  std::printf("\n");
  if (r.unreadable_lines > 0) std::printf("note: %zu torn or malformed manifest lines skipped\n", r.unreadable_lines);
  if (!r.missing.empty()) {
    const auto shown = std::min<std::ptrdiff_t>(std::ssize(r.missing), 10);
    const std::vector<size_t> first(r.missing.begin(), r.missing.begin() + shown);
    std::fputs(fmt::format("note: {} points missing (first: {}); run their shards again, then merge\n",
                           r.missing.size(), fmt::join(first, ", "))
                   .c_str(),
               stdout);
  }
  return 0;
}

}  // namespace parallax
