// File: tools/sweep_command.h
// `parallax sweep FILE.yaml [--out DIR] [-j N | --mpi] [--shard I/N]` and `parallax merge DIR... --out DIR`:
// the command-line faces of sim/sweep. A sweep point is `parallax run BASE --set ...` into
// DIR/points/<hash>/ (run_command, quiet); everything else (expansion, hashing, resume, the tables,
// shards, merge) lives in sim/sweep. docs/sweeps.md is the user's guide.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace parallax {

struct SweepOptions {
  std::string sweep_path;
  std::string out_dir;  // empty: "<sweep file stem>-sweep" in the current folder
  size_t jobs = 0;      // 0: one worker per hardware thread
  std::string shard;    // "I/N"; empty: SLURM_ARRAY_TASK_* if set, else the whole sweep
  bool list = false;    // print the points (index, hash, overrides) and run nothing
  bool quiet = false;   // no progress, no closing summary
  bool mpi = false;     // run on the ranks of an MPI job: rank 0 hands out points (sim/sweep/sweep_mpi.h)
};

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string out_dir;
};

// The subcommands, registered on `app`; their options fill `sweep` and `merge`.
CLI::App* add_sweep_subcommand(CLI::App& app, SweepOptions& sweep);
CLI::App* add_merge_subcommand(CLI::App& app, MergeOptions& merge);

// Process exit codes: 0 ok, 2 bad input (the sweep file, an axis value a point rejects, a locked
// folder), 1 a point failed otherwise.
int sweep_command(const SweepOptions& options);
int merge_command(const MergeOptions& options);

}  // namespace parallax
