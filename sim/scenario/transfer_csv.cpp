// File: sim/scenario/transfer_csv.cpp
#include "sim/scenario/transfer_csv.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/byte_count.h"
#include "sim/scenario/did_you_mean.h"
#include "sim/scenario/input_error.h"

namespace parallax {

namespace {

constexpr std::array<std::string_view, 5> kColumns{"src", "dst", "bytes", "start_s", "name"};
enum Column { kSrc, kDst, kBytes, kStart, kName };

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits one CSV line; fields may be double-quoted ("" is a quote inside). nullopt: bad quoting.
std::optional<std::vector<std::string>> split_fields(std::string_view line) {
  std::vector<std::string> fields;
  size_t i = 0;
  while (true) {
    std::string field;
    const size_t start = i;
    while (i < line.size() && line[i] == ' ') ++i;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) return std::nullopt;
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      while (i < line.size() && line[i] == ' ') ++i;
      if (i < line.size() && line[i] != ',') return std::nullopt;
    } else {
      i = start;
      while (i < line.size() && line[i] != ',') field += line[i++];
      field = std::string(trim(field));
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) break;
    ++i;  // the comma
  }
  return fields;
}

class CsvRows {
 public:
  CsvRows(const std::string& path, const NodeDirectory& nodes) : path_(path), nodes_(nodes) {}

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw InputError(SourceLocation{path_, line, 0}, "", message);
  }

  void read_header(int line, const std::vector<std::string>& names) {
    column_of_field_.clear();
    std::array<bool, kColumns.size()> seen{};
    for (const std::string& name : names) {
      size_t c = 0;
      while (c < kColumns.size() && kColumns[c] != name) ++c;
      if (c == kColumns.size())
        fail(line, fmt::format("unknown column '{}'{}; columns: {}", name, did_you_mean_suffix(name, kColumns),
                               fmt::join(kColumns, ", ")));
      if (seen[c]) fail(line, fmt::format("column '{}' appears twice", name));
      seen[c] = true;
      column_of_field_.push_back(static_cast<int>(c));
    }
    for (int c : {kSrc, kDst, kBytes, kStart})
      if (!seen[static_cast<size_t>(c)]) fail(line, fmt::format("missing column '{}' in the header", kColumns[static_cast<size_t>(c)]));
  }

  TransferSpec read_row(int line, const std::vector<std::string>& fields) const {
    if (fields.size() != column_of_field_.size())
      fail(line, fmt::format("expected {} fields, got {}", column_of_field_.size(), fields.size()));
    TransferSpec t;
    for (size_t f = 0; f < fields.size(); ++f) {
      const std::string& v = fields[f];
      switch (column_of_field_[f]) {
        case kSrc: t.src = endpoint(line, "src", v); break;
        case kDst: t.dst = endpoint(line, "dst", v); break;
        case kBytes: t.bytes = bytes(line, v); break;
        case kStart: t.start = Time::seconds(start_seconds(line, v)); break;
        default: t.name = v; break;
      }
    }
    if (t.src == t.dst) fail(line, fmt::format("src and dst are the same node '{}'", t.src));
    return t;
  }

 private:
  std::string endpoint(int line, std::string_view column, const std::string& v) const {
    std::string written = v;
    int index = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), index);
    if (!v.empty() && ec == std::errc() && end == v.data() + v.size()) written = gpu_node_name(index);
    const std::string problem = nodes_.endpoint_problem(written);
    if (!problem.empty()) fail(line, fmt::format("column '{}': {}", column, problem));
    return *nodes_.resolve(written);
  }

  int64_t bytes(int line, const std::string& v) const {
    const ByteCountParse parsed = parse_byte_count(v);
    if (!parsed.bytes) fail(line, fmt::format("column 'bytes': {}", parsed.error));
    return *parsed.bytes;
  }

  double start_seconds(int line, const std::string& v) const {
    double s = 0;
    const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), s);
    if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(s))
      fail(line, fmt::format("column 'start_s': expected a number of seconds, got '{}'", v));
    if (s < 0) fail(line, fmt::format("column 'start_s': must not be negative, got {}", v));
    if (s > kMaxStartSeconds) fail(line, fmt::format("column 'start_s': must be at most {:g}, got {}", kMaxStartSeconds, v));
    return s;
  }

  const std::string& path_;
  const NodeDirectory& nodes_;
  std::vector<int> column_of_field_;
};

}  // namespace

std::vector<TransferSpec> parse_transfers_csv(std::string_view text, const std::string& path, const NodeDirectory& nodes) {
  CsvRows rows(path, nodes);
  std::vector<TransferSpec> out;
  bool have_header = false;
  int line_no = 0;
  // A UTF-8 byte-order mark (spreadsheets write one) is not part of the first column's name.
  constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
  size_t pos = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (trim(line).empty() || trim(line).front() == '#') continue;
    const auto fields = split_fields(line);
    if (!fields) rows.fail(line_no, "unbalanced double quote");
    if (!have_header) {
      rows.read_header(line_no, *fields);
      have_header = true;
    } else {
      out.push_back(rows.read_row(line_no, *fields));
    }
  }
  if (!have_header) rows.fail(0, "empty CSV file: a header row (src,dst,bytes,start_s) is required");
  return out;
}

std::vector<TransferSpec> read_transfers_csv(const std::string& path, const NodeDirectory& nodes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLocation{path, 0, 0}, "", "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_transfers_csv(text.str(), path, nodes);
}

}  // namespace parallax
