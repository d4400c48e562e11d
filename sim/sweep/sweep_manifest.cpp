// File: sim/sweep/sweep_manifest.cpp
#include "sim/sweep/sweep_manifest.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unordered_set>

#include "sim/io/input_file.h"
#include "sim/report/atomic_file.h"
#include "sim/io/input_error.h"

namespace parallax {

std::string manifest_line(const ManifestEntry& e) {
  nlohmann::ordered_json j;
  j["point"] = e.point;
  j["hash"] = e.hash;
  j["seed"] = e.seed;
  nlohmann::ordered_json axes = nlohmann::ordered_json::object();
  for (const auto& [key, value] : e.axes) axes[key] = value;
  j["axes"] = std::move(axes);
  j["wall_s"] = e.wall_s;
  if (e.events_per_s) j["events_per_s"] = *e.events_per_s;
  if (e.sim_to_wall) j["sim_to_wall"] = *e.sim_to_wall;
  j["summary"] = e.summary;
  return j.dump() + "\n";
}

ManifestEntry parse_manifest_line(const std::string& line) {
  nlohmann::ordered_json j;
  try {
    j = nlohmann::ordered_json::parse(line);
  } catch (const nlohmann::json::exception& ex) {
    throw std::invalid_argument(ex.what());
  }
  const auto need = [&](const char* key) -> const nlohmann::ordered_json& {
    if (!j.is_object() || !j.contains(key)) throw std::invalid_argument(std::string("missing ") + key);
    return j.at(key);
  };
  try {
    ManifestEntry e;
    e.point = need("point").get<size_t>();
    e.hash = need("hash").get<std::string>();
    e.seed = need("seed").get<uint64_t>();
    for (const auto& [key, value] : need("axes").items()) e.axes.emplace_back(key, value.get<std::string>());
    e.wall_s = need("wall_s").get<double>();
    if (j.contains("events_per_s")) e.events_per_s = j.at("events_per_s").get<double>();
    if (j.contains("sim_to_wall")) e.sim_to_wall = j.at("sim_to_wall").get<double>();
    e.summary = need("summary");
    if (!e.summary.is_object()) throw std::invalid_argument("summary is not an object");
    return e;
  } catch (const nlohmann::json::exception& ex) {
    throw std::invalid_argument(ex.what());
  }
}

ManifestContents read_manifest(const std::filesystem::path& path) {
  ManifestContents out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  // Streamed line by line: a sweep of millions of points has a manifest larger than a whole-file
  // read allows, and only the entries are kept.
  std::ifstream in = open_input(path.string());
  std::unordered_set<std::string> seen;
  std::string line;
  for (LineRead r; (r = read_bounded_line(in, line)) != LineRead::end;) {
    if (r == LineRead::too_long || in.eof()) {  // too long, or no newline: a torn write
      ++out.dropped_lines;
      if (in.eof()) break;
      continue;
    }
    if (line.empty()) continue;
    try {
      ManifestEntry e = parse_manifest_line(line);
      if (seen.insert(e.hash).second)
        out.entries.push_back(std::move(e));
      else
        ++out.duplicate_lines;
    } catch (const std::invalid_argument&) {
      ++out.dropped_lines;
    }
  }
  return out;
}

void write_manifest(const std::filesystem::path& path, const std::vector<ManifestEntry>& entries) {
  std::string text;
  for (const ManifestEntry& e : entries) text += manifest_line(e);
  write_file_atomically(path, text);
}

LineAppender::LineAppender(const std::filesystem::path& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw output_error("cannot open", path, errno);
}

LineAppender::~LineAppender() {
  if (fd_ >= 0) ::close(fd_);
}

void LineAppender::append(const std::string& line) {
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw output_error("cannot append to", path_, errno);
    }
    done += static_cast<size_t>(n);
  }
}

}  // namespace parallax
