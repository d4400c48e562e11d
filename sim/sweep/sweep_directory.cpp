// File: sim/sweep/sweep_directory.cpp
#include "sim/sweep/sweep_directory.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>

#include "sim/report/atomic_file.h"
#include "sim/report/json_output.h"
#include "sim/scenario/input_error.h"
#include "sim/sweep/point_hash.h"

namespace parallax {

std::string sweep_id(const SweepPlan& plan) {
  uint64_t state = kFnv1a64Offset;
  for (const SweepPoint& p : plan.points) {
    state = fnv1a64(p.hash, state);
    state = fnv1a64("\n", state);
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

SweepDirectory::SweepDirectory(std::filesystem::path dir, const SweepPlan& plan, SweepIdentity identity)
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
  // and in this plan's point folders, so a resumed folder holds only complete files.
  remove_stale_temporaries(dir_);
  for (const SweepPoint& p : plan.points) {
    index_of_.emplace(p.hash, p.index);
    remove_stale_temporaries(point_dir(p));
  }
  // manifest.jsonl holds exactly this plan's points, with this plan's indices, so that merge can
  // trust it; lines of other plans (an edited sweep file) wait in manifest.other.jsonl, from where
  // a later run of that plan takes them back.
  const std::filesystem::path manifest_path = dir_ / "manifest.jsonl";
  const std::filesystem::path other_path = dir_ / "manifest.other.jsonl";
  ManifestContents manifest = read_manifest(manifest_path);
  ManifestContents other = read_manifest(other_path);
  repaired_lines_ = manifest.dropped_lines + manifest.duplicate_lines;
  bool rewrite = repaired_lines_ > 0 || !other.entries.empty() || other.dropped_lines > 0;
  std::vector<ManifestEntry> foreign;
  std::unordered_set<std::string> foreign_hashes;
  for (std::vector<ManifestEntry>* list : {&manifest.entries, &other.entries})
    for (ManifestEntry& e : *list) {
      const auto it = index_of_.find(e.hash);
      if (it == index_of_.end()) {
        rewrite = rewrite || list == &manifest.entries;
        if (foreign_hashes.insert(e.hash).second) foreign.push_back(std::move(e));
      } else if (done_.insert(e.hash).second) {
        rewrite = rewrite || e.point != it->second;
        e.point = it->second;  // the plan decides the index (axes may have been reordered)
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
  done_.insert(entry.hash);
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
