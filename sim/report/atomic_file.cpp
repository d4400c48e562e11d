// File: sim/report/atomic_file.cpp
#include "sim/report/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/std.h>

namespace parallax {
namespace {

std::system_error io_error(std::string_view what, const std::filesystem::path& path, int err) {
  return std::system_error(err != 0 ? err : EIO, std::generic_category(),
                           fmt::format("{} {}", what, path));
}

std::filesystem::path temp_path_for(const std::filesystem::path& path) {
  std::filesystem::path temp = path;
  temp += fmt::format(".tmp.{}", static_cast<long>(::getpid()));
  return temp;
}

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::filesystem::path path)
    : path_(std::move(path)), temp_path_(temp_path_for(path_)) {
  if (path_.filename().empty()) {
    throw std::invalid_argument(fmt::format("cannot write to {}: not a file name", path_));
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) {
    throw io_error("cannot write: is a directory:", path_, EISDIR);
  }
  const std::filesystem::path dir = path_.parent_path();
  if (!dir.empty()) {
    std::filesystem::create_directories(dir, ec);
    if (ec) throw io_error("cannot create the directory for", path_, ec.value());
  }
  errno = 0;
  out_.open(temp_path_, std::ios::binary | std::ios::trunc);
  if (!out_.is_open()) {
    const int err = errno;
    throw io_error("cannot open for writing", temp_path_, err);
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (!committed_) discard();
}

void AtomicFileWriter::discard() noexcept {
  if (out_.is_open()) out_.close();
  std::error_code ignored;
  std::filesystem::remove(temp_path_, ignored);
}

void AtomicFileWriter::commit() {
  if (committed_) throw std::logic_error(fmt::format("{} committed twice", path_));
  errno = 0;
  out_.flush();
  const bool written = static_cast<bool>(out_);
  const int flush_err = errno;
  out_.close();
  if (!written || out_.fail()) {
    discard();
    throw io_error("write failed for", path_, flush_err);
  }
  std::error_code ec;
  std::filesystem::rename(temp_path_, path_, ec);
  if (ec) {
    discard();
    throw io_error("cannot rename the temporary file onto", path_, ec.value());
  }
  committed_ = true;
}

bool is_atomic_temporary_name(std::string_view file_name) {
  constexpr std::string_view kMark = ".tmp.";
  const size_t mark = file_name.rfind(kMark);
  if (mark == std::string_view::npos || mark == 0) return false;
  const std::string_view pid = file_name.substr(mark + kMark.size());
  return !pid.empty() && pid.find_first_not_of("0123456789") == std::string_view::npos;
}

size_t remove_stale_temporaries(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return 0;
  std::vector<std::filesystem::path> stale;  // listed first: removing while iterating is unspecified
  for (const std::filesystem::directory_entry& e : std::filesystem::directory_iterator(dir))
    if (e.is_regular_file() && !e.is_symlink() && is_atomic_temporary_name(e.path().filename().string()))
      stale.push_back(e.path());
  for (const std::filesystem::path& p : stale) std::filesystem::remove(p);
  return stale.size();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  AtomicFileWriter out(path);
  out.stream().write(contents.data(), static_cast<std::streamsize>(contents.size()));
  out.commit();
}

}  // namespace parallax
