// File: sim/sweep/sweep_directory.cpp
#include "sim/sweep/sweep_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include <fmt/format.h>

#include "sim/report/atomic_file.h"
#include "sim/report/json_output.h"
#include "sim/io/input_error.h"
#include "sim/sweep/point_hash.h"

namespace parallax {

std::string sweep_id(const SweepSpace& plan) {
  uint64_t state = kFnv1a64Offset;
  char hex[17];  // the point's hash as text, without a heap allocation per point
  for (size_t i = 0; i < plan.size(); ++i) {
    fmt::format_to_n(hex, sizeof hex, "{:016x}\n", plan.hash_of(i));
    state = fnv1a64(std::string_view(hex, sizeof hex), state);
  }
  return fmt::format("{:016x}", state);
}

void write_sweep_json(const std::filesystem::path& path, const SweepIdentity& id) {
  nlohmann::ordered_json j;
  j["format"] = "parallax-sweep v1";
  j["sweep_id"] = id.sweep_id;
  j["source"] = id.source;
  j["base"] = id.base;
  j["points"] = id.points;
  j["axis_keys"] = id.axis_keys;
  j["shard"] = id.shard;
  write_json_atomically(path, j);
}

SweepIdentity read_sweep_json(const std::filesystem::path& path) {
  const SourceLocation where{path.string(), 0, 0};
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(where, "", "cannot open (is this a sweep output folder?)");
  const std::string text = read_input_text(path.string());
  try {
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
    if (j.value("format", "") != "parallax-sweep v1") throw InputError(where, "format", "not a parallax-sweep v1 file");
    SweepIdentity id;
    id.sweep_id = j.at("sweep_id").get<std::string>();
    id.source = j.at("source").get<std::string>();
    id.base = j.at("base").get<std::string>();
    id.points = j.at("points").get<size_t>();
    id.axis_keys = j.at("axis_keys").get<std::vector<std::string>>();
    id.shard = j.at("shard").get<std::string>();
    return id;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where, "", fmt::format("malformed sweep.json: {}", e.what()));
  }
}

namespace {

// Removes what killed writers left in every point folder under DIR/points. Folders of points no
// longer in the plan are cleaned too: holding DIR's lock, no live writer is in any of them, and
// listing the folders that exist costs nothing per point of the plan.
void remove_point_temporaries(const std::filesystem::path& points) {
  std::error_code ec;
  if (!std::filesystem::is_directory(points, ec)) return;
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(points))
    if (e.is_directory(ec) && !e.is_symlink(ec)) remove_stale_temporaries(e.path());
}

}  // namespace

bool SweepDirectory::finished(const std::string& hash) const {
  uint64_t h = 0;
  return parse_point_hash(hash, h) && finished(h);
}

std::vector<size_t> SweepDirectory::finished_points() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  std::vector<size_t> out;
  out.reserve(entries_.size());
  for (const ManifestEntry& e : entries_) out.push_back(e.point);
  return out;
}

SweepDirectory::SweepDirectory(std::filesystem::path dir, const SweepSpace& plan, SweepIdentity identity)
    : dir_(std::move(dir)), axis_keys_(plan.axis_keys) {
  std::error_code ec;
  if (std::filesystem::exists(dir_, ec) && !std::filesystem::is_directory(dir_, ec))
    throw OutputError(fmt::format("--out {}: exists and is not a folder", dir_.string()));
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw output_error("cannot create the sweep folder", dir_, ec.value());
  const std::filesystem::path lock_path = dir_ / ".lock";
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw output_error("cannot open", lock_path, errno);
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    ::close(lock_fd_);
    lock_fd_ = -1;
    if (err == EWOULDBLOCK)
      throw InputError(SourceLocation{dir_.string(), 0, 0}, "--out",
                       "another parallax sweep is writing to this folder (give each shard its own --out)");
    throw output_error("cannot lock", lock_path, err);
  }

  // Holding the lock, before any worker starts: what killed writers left (NAME.tmp.PID) goes, here
  // and in the point folders, so a resumed folder holds only complete files.
  remove_stale_temporaries(dir_);
  remove_point_temporaries(dir_ / "points");
  // manifest.jsonl holds exactly this plan's points, with this plan's indices, so that merge can
  // trust it; lines of other plans (an edited sweep file) wait in manifest.other.jsonl, from where
  // a later run of that plan takes them back.
  const std::filesystem::path manifest_path = dir_ / "manifest.jsonl";
  const std::filesystem::path other_path = dir_ / "manifest.other.jsonl";
  ManifestContents manifest = read_manifest(manifest_path);
  ManifestContents other = read_manifest(other_path);
  repaired_lines_ = manifest.dropped_lines + manifest.duplicate_lines;
  bool rewrite = repaired_lines_ > 0 || !other.entries.empty() || other.dropped_lines > 0;
  // The plan index of each hash the manifests name, found by one pass over the plan's hashes
  // (only when there is a manifest to place): the plan itself is never held.
  std::unordered_map<uint64_t, size_t> index_of;
  for (const std::vector<ManifestEntry>* list : {&manifest.entries, &other.entries})
    for (const ManifestEntry& e : *list)
      if (uint64_t h = 0; parse_point_hash(e.hash, h)) index_of.emplace(h, plan.size());
  for (size_t i = 0, placed = 0; i < plan.size() && placed < index_of.size(); ++i)
    if (const auto it = index_of.find(plan.hash_of(i)); it != index_of.end() && it->second == plan.size()) {
      it->second = i;
      ++placed;
    }
  std::vector<ManifestEntry> foreign;
  std::unordered_set<std::string> foreign_hashes;
  for (std::vector<ManifestEntry>* list : {&manifest.entries, &other.entries})
    for (ManifestEntry& e : *list) {
      uint64_t h = 0;
      const bool ours = parse_point_hash(e.hash, h) && index_of.at(h) < plan.size();
      if (!ours) {
        rewrite = rewrite || list == &manifest.entries;
        if (foreign_hashes.insert(e.hash).second) foreign.push_back(std::move(e));
      } else if (done_.insert(h).second) {
        const size_t index = index_of.at(h);
        rewrite = rewrite || e.point != index;
        e.point = index;  // the plan decides the index (axes may have been reordered)
        entries_.push_back(std::move(e));
      }
    }
  foreign_ = foreign.size();
  if (rewrite) {
    if (foreign.empty())
      std::filesystem::remove(other_path);
    else
      write_manifest(other_path, foreign);
    write_manifest(manifest_path, entries_);
  }
  const std::vector<ManifestEntry>& ours = entries_;
  write_sweep_json(dir_ / "sweep.json", identity);

  const std::filesystem::path results_path = dir_ / "results.csv";
  if (ours.empty()) {
    write_file_atomically(results_path, "");
  } else {
    write_results_csv(results_path, axis_keys_, ours);
    live_table_.emplace(axis_keys_, ours);
  }
  manifest_ = std::make_unique<LineAppender>(manifest_path);
  results_ = std::make_unique<LineAppender>(results_path);
}

SweepDirectory::~SweepDirectory() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // closing releases the flock
}

size_t SweepDirectory::finished_count() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  return done_.size();
}

void SweepDirectory::record(const ManifestEntry& entry) {
  const std::lock_guard<std::mutex> hold(mutex_);
  manifest_->append(manifest_line(entry));
  if (uint64_t h = 0; parse_point_hash(entry.hash, h)) done_.insert(h);
  entries_.push_back(entry);
  if (!results_) return;
  if (!live_table_) {
    live_table_.emplace(axis_keys_, entry);
    results_->append(live_table_->header_line());
  }
  results_->append(live_table_->row_line(entry));
}

void SweepDirectory::finalize() {
  const std::lock_guard<std::mutex> hold(mutex_);
  results_.reset();
  write_results_csv(dir_ / "results.csv", axis_keys_, entries_);
  write_sweep_timing_json(dir_ / "timing.json", entries_);
}

}  // namespace parallax
