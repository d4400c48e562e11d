// File: sim/sweep/sweep_directory.h
// The output folder of one sweep (or one shard of it) and the only writer of its tables:
//   DIR/sweep.json       what was swept: sweep id, base, point count, axis keys, shard
//   DIR/manifest.jsonl   one line per finished point (sweep_manifest.h): the record of what is done
//   DIR/results.csv      the table (results_table.h), appended live, rewritten in point order
//   DIR/timing.json      each point's wall-clock figures, in point order, written by finalize()
//   DIR/points/<hash>/   each point's own outputs, written by the runner
// Opening takes an exclusive lock (flock on DIR/.lock) so two processes never append to one
// folder, removes the temporaries (NAME.tmp.PID) a killed run left in DIR and in its point
// folders, repairs a torn manifest tail, and rebuilds results.csv from the manifest. manifest.jsonl
// always holds exactly the current plan's points with the plan's indices: lines for other hashes
// (the sweep file was edited) move to DIR/manifest.other.jsonl, and come back when a run's plan
// holds them again. Running points is left to sweep_runner.h.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim/sweep/results_table.h"
#include "sim/sweep/sweep_expansion.h"
#include "sim/sweep/sweep_manifest.h"
#include "sim/sweep/sweep_shard.h"

namespace parallax {

// fnv1a64 over the point hashes in order: equal ids mean equal plans (merge checks it). Computed
// point by point: O(points) time, O(1) memory.
std::string sweep_id(const SweepSpace& plan);

// DIR/points/<hash>: where a point's outputs go (every rank of an MPI sweep computes it alike).
inline std::filesystem::path sweep_point_dir(const std::filesystem::path& dir, const SweepPoint& p) {
  return dir / "points" / p.hash;
}

// What DIR/sweep.json holds.
struct SweepIdentity {
  std::string sweep_id;
  std::string source;  // the sweep file
  std::string base;    // the base scenario
  size_t points = 0;   // in the whole sweep, not only this shard
  std::vector<std::string> axis_keys;
  std::string shard;   // "I/N", or "" for the whole sweep
};

void write_sweep_json(const std::filesystem::path& path, const SweepIdentity& identity);
// Throws InputError located at `path` when it is missing or malformed.
SweepIdentity read_sweep_json(const std::filesystem::path& path);

class SweepDirectory {
 public:
  // Throws InputError when another process holds DIR's lock, OutputError when DIR is not a folder
  // or on I/O failure.
  // What it keeps per point of the plan is nothing; per finished point, its hash and manifest entry.
  SweepDirectory(std::filesystem::path dir, const SweepSpace& plan, SweepIdentity identity);
  ~SweepDirectory();
  SweepDirectory(const SweepDirectory&) = delete;
  SweepDirectory& operator=(const SweepDirectory&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  std::filesystem::path point_dir(const SweepPoint& p) const { return sweep_point_dir(dir_, p); }
  bool finished(uint64_t hash) const { return done_.count(hash) != 0; }
  bool finished(const std::string& hash) const;
  // The finished points (their plan indices), for counting those of a shard.
  std::vector<size_t> finished_points() const;
  size_t finished_count() const;
  size_t repaired_lines() const { return repaired_lines_; }  // torn or duplicate lines dropped on open
  size_t foreign_entries() const { return foreign_; }        // finished points not in this plan

  // Appends the point to manifest.jsonl, then its row to results.csv. Thread-safe.
  void record(const ManifestEntry& entry);

  // Rewrites results.csv from the manifest, in point order.
  void finalize();

 private:
  std::filesystem::path dir_;
  std::vector<std::string> axis_keys_;
  std::unordered_set<uint64_t> done_;                 // hashes in the manifest
  std::vector<ManifestEntry> entries_;                // manifest.jsonl's lines: this plan's points
  size_t repaired_lines_ = 0;
  size_t foreign_ = 0;
  int lock_fd_ = -1;
  mutable std::mutex mutex_;
  std::unique_ptr<LineAppender> manifest_;
  std::unique_ptr<LineAppender> results_;
  std::optional<ResultsTable> live_table_;
};

}  // namespace parallax
