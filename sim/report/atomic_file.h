// File: sim/report/atomic_file.h
// Writes an output file so that readers see either the old file or the complete new one, never a
// partial write: the bytes go to NAME.tmp.<pid> in the same directory, then a rename replaces NAME.
// It leaves durability across power loss (fsync) and concurrent writers of one NAME in one process
// to the caller.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <span>
#include <string_view>

#include "sim/report/output_error.h"

namespace parallax {

// True for a name the writers below give their temporaries: NAME.tmp.PID, NAME not empty, PID
// decimal digits only.
bool is_atomic_temporary_name(std::string_view file_name);

// Removes the temporaries that killed writers left in `dir` (SIGKILL runs no destructor): regular
// files directly in `dir` whose name is_atomic_temporary_name; subfolders, links and every other
// file are left alone. Call it only on a folder this process owns for its run, before anything
// writes there: a temporary of a live writer in `dir` would go too. Returns how many were
// removed; a missing `dir` removes nothing. Throws std::filesystem::filesystem_error if `dir`
// cannot be listed or a leftover cannot be removed.
size_t remove_stale_temporaries(const std::filesystem::path& dir);

// Writes `contents` to `path` atomically. Creates the parent directory if missing. Throws
// OutputError naming the path and the system's reason on any failure (a `path` that exists and is
// not a regular file is refused before anything is written); the temporary file is removed and an
// existing `path` is left untouched.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// Streaming variant, for outputs too large to hold in memory (trace.json, activities.csv):
//
//   AtomicFileWriter out(dir / "activities.csv");
//   write_activities_csv(out.stream(), log);
//   out.commit();   // without this, the destructor removes the temporary file
//
// The constructor refuses a `path` that is not a regular file or new, creates the parent directory
// and opens the temporary file; commit() flushes, checks every write and the close, and renames.
// The first failed write(2) is kept with its errno, so a full disk reads "no space left on device".
// Not copyable or movable: it owns a file on disk.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::filesystem::path path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  std::ostream& stream() { return out_; }
  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& temp_path() const { return temp_path_; }

  // Publishes the file: finish() then publish(). Calling it twice is an error (std::logic_error).
  void commit();
  // Flushes and closes the temporary; throws OutputError (and removes it) if any write failed.
  void finish();
  // Renames the finished temporary onto path(); throws OutputError if the rename fails.
  void publish();

 private:
  class Buffer;  // the temporary's descriptor, with the errno of its first failed write
  void discard() noexcept;

  std::filesystem::path path_;
  std::filesystem::path temp_path_;
  std::unique_ptr<Buffer> buffer_;
  std::ostream out_;
  bool finished_ = false;
  bool committed_ = false;
};

// Several outputs that belong together (validation.csv and validation.json): every one is written
// and closed before any is renamed, so a failed write leaves the earlier set whole.
void commit_together(std::span<AtomicFileWriter* const> outputs);

}  // namespace parallax
