// File: models/calibration_data/nccl_tests_log.cpp
#include "models/calibration_data/nccl_tests_log.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "models/calibration_data/data_error.h"
#include "sim/io/input_file.h"

namespace parallax::models {

namespace {

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    const size_t start = i;
    while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

std::optional<long long> integer(std::string_view s) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> number(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// The table layout named by a header line.
struct Layout {
  bool has_redop = false;
  bool has_root = false;
  int groups = 0;                  // 1 or 2 time/algbw/busbw/check groups
  bool check_is_count = true;      // "#wrong" (count) or "error" (magnitude)
  size_t columns() const { return 3 + (has_redop ? 1 : 0) + (has_root ? 1 : 0) + 4 * static_cast<size_t>(groups); }
};

// nullopt: not a column header. Throws for a header that starts like one but is not understood.
std::optional<Layout> header_layout(const std::vector<std::string_view>& t, const std::string& path, int line) {
  if (t.size() < 3 || t[0] != "size" || t[1] != "count" || t[2] != "type") return std::nullopt;
  Layout l;
  size_t i = 3;
  if (i < t.size() && t[i] == "redop") l.has_redop = true, ++i;
  if (i < t.size() && t[i] == "root") l.has_root = true, ++i;
  while (i + 4 <= t.size() && t[i] == "time" && t[i + 1] == "algbw" && t[i + 2] == "busbw" &&
         (t[i + 3] == "#wrong" || t[i + 3] == "error")) {
    l.check_is_count = t[i + 3] == "#wrong";
    ++l.groups;
    i += 4;
  }
  if (i != t.size() || l.groups < 1 || l.groups > 2)
    throw DataError(path, line, "unrecognised nccl-tests column header (expected 'size count type [redop] "
                                "[root] time algbw busbw #wrong|error [time algbw busbw #wrong|error]')");
  return l;
}

std::optional<std::string> collective_in(std::string_view s) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kNames{{
      {"all_reduce", "all_reduce"}, {"allreduce", "all_reduce"},
      {"all_gather", "all_gather"}, {"allgather", "all_gather"},
      {"reduce_scatter", "reduce_scatter"}, {"reducescatter", "reduce_scatter"}}};
  size_t best = std::string_view::npos;
  std::string found;
  for (const auto& [needle, name] : kNames) {
    const size_t at = s.find(needle);
    if (at < best) best = at, found = std::string(name);
  }
  if (found.empty()) return std::nullopt;
  return found;
}

class LogParser {
 public:
  explicit LogParser(const std::string& path) : path_(path) {}

  [[noreturn]] void fail(int line, const std::string& message) const { throw DataError(path_, line, message); }

  NcclTestsTiming timing(int line, const std::vector<std::string_view>& t, size_t at, bool check_is_count) const {
    NcclTestsTiming g;
    const auto time_us = number(t[at]);
    if (!time_us || *time_us < 0) fail(line, fmt::format("time '{}' is not a number of microseconds", t[at]));
    g.time_s = *time_us * 1e-6;
    const auto algbw = number(t[at + 1]);
    const auto busbw = number(t[at + 2]);
    if (!algbw || *algbw < 0) fail(line, fmt::format("algbw '{}' is not a number of GB/s", t[at + 1]));
    if (!busbw || *busbw < 0) fail(line, fmt::format("busbw '{}' is not a number of GB/s", t[at + 2]));
    g.algbw_GBps = *algbw;
    g.busbw_GBps = *busbw;
    g.check = std::string(t[at + 3]);
    if (g.check != "N/A") {
      if (check_is_count) {
        const auto wrong = integer(g.check);
        if (!wrong || *wrong < 0) fail(line, fmt::format("#wrong '{}' is not a count", g.check));
        g.wrong = *wrong > 0;
      } else if (!number(g.check)) {
        fail(line, fmt::format("error '{}' is not a number", g.check));
      }
    }
    return g;
  }

  NcclTestsRow row(int line, const std::vector<std::string_view>& t, const Layout& l) const {
    if (t.size() != l.columns())
      fail(line, fmt::format("a table row needs {} fields like its header, found {}", l.columns(), t.size()));
    NcclTestsRow r;
    r.line = line;
    const auto size = integer(t[0]);
    const auto count = integer(t[1]);
    if (!size || *size < 0) fail(line, fmt::format("size '{}' is not a byte count", t[0]));
    if (!count || *count < 0) fail(line, fmt::format("count '{}' is not an element count", t[1]));
    r.bytes = static_cast<double>(*size);
    r.count = static_cast<double>(*count);
    r.type = std::string(t[2]);
    size_t at = 3;
    if (l.has_redop) r.redop = std::string(t[at++]);
    if (l.has_root) {
      if (!integer(t[at])) fail(line, fmt::format("root '{}' is not an integer", t[at]));
      ++at;
    }
    r.out_of_place = timing(line, t, at, l.check_is_count);
    if (l.groups == 2) r.in_place = timing(line, t, at + 4, l.check_is_count);
    return r;
  }

 private:
  std::string path_;
};

}  // namespace

NcclTestsLog parse_nccl_tests_log(std::string_view text, const std::string& path) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::vector<std::string_view> lines;
  for (size_t pos = 0; pos <= text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    pos = end + 1;
  }
  LogParser parser(path);
  // The label is whatever precedes '#' on the first column header line.
  std::string_view label;
  bool header_found = false;
  for (size_t i = 0; i < lines.size() && !header_found; ++i) {
    const size_t hash = lines[i].find('#');
    if (hash == std::string_view::npos) continue;
    const auto t = tokens(lines[i].substr(hash + 1));
    if (header_layout(t, path, static_cast<int>(i + 1))) {
      label = lines[i].substr(0, hash);
      header_found = true;
    }
  }
  if (!header_found)
    throw DataError(path, 0, "no nccl-tests column header ('#  size  count  type ... time  algbw  busbw ...')");

  NcclTestsLog log;
  log.path = path;
  std::map<long long, std::string> device_of_rank;
  std::map<long long, std::string> host_of_rank;
  std::optional<Layout> layout;
  for (size_t i = 0; i < lines.size(); ++i) {
    const int line_no = static_cast<int>(i + 1);
    std::string_view line = lines[i];
    if (!label.empty() && line.substr(0, label.size()) == label) line.remove_prefix(label.size());
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    if (line.front() == '#') {
      const auto t = tokens(line.substr(1));
      if (const auto l = header_layout(t, path, line_no)) {
        layout = l;
      } else if (t.size() >= 2 && t[0] == "Rank") {
        const auto rank = integer(t[1]);
        if (!rank || *rank < 0) parser.fail(line_no, fmt::format("rank '{}' is not a number", t[1]));
        const size_t bracket = line.find(']');
        std::string device;
        if (bracket != std::string_view::npos) {
          std::string_view rest = line.substr(bracket + 1);
          while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
          while (!rest.empty() && std::isspace(static_cast<unsigned char>(rest.back()))) rest.remove_suffix(1);
          device = std::string(rest);
        }
        device_of_rank[*rank] = device;
        // "Rank 3 Group 0 Pid 13795 on HOST device 3 [...]": the host names count the nodes.
        for (size_t k = 1; k + 1 < t.size(); ++k)
          if (t[k] == "on") host_of_rank[*rank] = std::string(t[k + 1]);
      } else if (t.size() >= 5 && t[0] == "Avg" && t[1] == "bus" && t[2] == "bandwidth" && t[3] == ":") {
        log.avg_busbw_GBps = number(t[4]);
      }
      continue;
    }
    const auto t = tokens(line);
    // A line of only \v or \f (blank to isspace, not to the " \t" skip above) has no token.
    if (!layout || t.empty() || !all_digits(t.front())) continue;  // someone else's output
    NcclTestsRow r = parser.row(line_no, t, *layout);
    if (r.bytes > 0) log.rows.push_back(std::move(r));
  }
  if (log.rows.empty()) throw DataError(path, 0, "the nccl-tests table has no rows with size > 0");
  log.ranks = static_cast<int>(device_of_rank.size());
  for (const auto& [rank, device] : device_of_rank) log.devices.push_back(device);
  std::set<std::string> hosts;
  for (const auto& [rank, host] : host_of_rank) hosts.insert(host);
  log.nodes = static_cast<int>(hosts.size());
  const size_t slash = path.find_last_of('/');
  if (auto c = collective_in(slash == std::string::npos ? std::string_view(path)
                                                          : std::string_view(path).substr(slash + 1)))
    log.collective = *c;
  else if (auto c2 = collective_in(text))
    log.collective = *c2;
  return log;
}

NcclTestsLog read_nccl_tests_log(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    throw DataError(path, 0, e.reason());
  }
  return parse_nccl_tests_log(text, path);
}

}  // namespace parallax::models
