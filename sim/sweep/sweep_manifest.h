// File: sim/sweep/sweep_manifest.h
// DIR/manifest.jsonl: one JSON line per finished point, appended only after the point's
// summary.json exists, so a line means "done". A resumed sweep skips the hashes it lists. Each line
// is written by a single write(2) on an O_APPEND descriptor; if the process dies mid-line, the
// reader drops the torn last line and the point is simply run again. Formatting the results table
// is left to results_table.h; the fields are defined in docs/sweeps.md, "Manifest".
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace parallax {

struct ManifestEntry {
  size_t point = 0;  // index in the sweep's expansion order
  std::string hash;  // point_hash.h
  uint64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> axes;  // key, canonical value, in column order
  double wall_s = 0;                                      // the whole point: load, run, write
  std::optional<double> events_per_s;                     // engine events / engine wall, if reported
  std::optional<double> sim_to_wall;                      // simulated seconds per wall second, if reported
  nlohmann::ordered_json summary = nlohmann::ordered_json::object();  // flattened scalars
};

// One line, "\n" included. Keys: point, hash, seed, axes, wall_s, events_per_s, sim_to_wall,
// summary (the optional ones omitted when absent).
std::string manifest_line(const ManifestEntry& entry);

// Throws std::invalid_argument when `line` is not a complete manifest entry.
ManifestEntry parse_manifest_line(const std::string& line);

struct ManifestContents {
  std::vector<ManifestEntry> entries;  // in file order, first occurrence of each hash
  size_t dropped_lines = 0;            // torn or unreadable lines (a torn last line is the usual one)
  size_t duplicate_lines = 0;          // later lines repeating a hash
};

// Reads `path` (a missing file reads as empty).
ManifestContents read_manifest(const std::filesystem::path& path);

// Rewrites `path` atomically with exactly `entries` (used to drop a torn tail before appending).
void write_manifest(const std::filesystem::path& path, const std::vector<ManifestEntry>& entries);

// Appends whole lines to a file opened with O_APPEND; each append is one write(2) (retried only
// for the unwritten rest after a short write). Not thread-safe: callers serialise appends.
class LineAppender {
 public:
  explicit LineAppender(const std::filesystem::path& path);  // creates the file; throws on failure
  ~LineAppender();
  LineAppender(const LineAppender&) = delete;
  LineAppender& operator=(const LineAppender&) = delete;

  void append(const std::string& line);  // throws OutputError naming the path and the reason

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

}  // namespace parallax
