// File: sim/scenario/transfer_csv.cpp
#include "sim/scenario/transfer_csv.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/io/input_file.h"
#include "sim/scenario/byte_count.h"
#include "sim/io/did_you_mean.h"
#include "sim/io/input_error.h"

namespace parallax {

namespace {

constexpr std::array<std::string_view, 5> kColumns{"src", "dst", "bytes", "start_s", "name"};
enum Column { kSrc, kDst, kBytes, kStart, kName };

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits one CSV line into `fields`, views into the line itself: a quoted field ("" is a quote
// inside) is unescaped in place, which only ever shortens it. A run reads every row twice
// (index_transfers_csv, then TransferCsvStream), so nothing here allocates. false: bad quoting.
bool split_fields(char* line, size_t size, std::vector<std::string_view>& fields) {
  fields.clear();
  const std::string_view text(line, size);
  size_t i = 0;
  while (true) {
    const size_t start = i;
    while (i < size && line[i] == ' ') ++i;
    if (i < size && line[i] == '"') {
      const size_t begin = ++i;
      size_t end = begin;  // where the unescaped text ends
      while (true) {
        const size_t quote = text.find('"', i);
        if (quote == std::string_view::npos) return false;
        std::memmove(line + end, line + i, quote - i);
        end += quote - i;
        i = quote + 1;
        if (i < size && line[i] == '"') {
          line[end++] = '"';
          ++i;
          continue;
        }
        break;
      }
      fields.emplace_back(line + begin, end - begin);
      while (i < size && line[i] == ' ') ++i;
      if (i < size && line[i] != ',') return false;
    } else {
      i = std::min(text.find(',', start), size);
      fields.push_back(trim(text.substr(start, i - start)));
    }
    if (i >= size) break;
    ++i;  // the comma
  }
  return true;
}

bool is_skipped(std::string_view line) { return trim(line).empty() || trim(line).front() == '#'; }

}  // namespace

TransferCsvReader::TransferCsvReader(std::istream& in, std::string path, const NodeDirectory& nodes)
    : in_(in), path_(std::move(path)), nodes_(nodes) {
  std::vector<std::string_view> names;
  if (!next_fields(names)) fail(0, "empty CSV file: a header row (src,dst,bytes,start_s) is required");
  read_header(names);
}

void TransferCsvReader::fail(int line, const std::string& message) const {
  throw InputError(SourceLocation{path_, line, 0}, "", message);
}

// Lines come out of buf_, refilled a block at a time: a line costs a memchr, not a stream call
// per byte. A line is at most kMaxInputLineBytes (before its newline), as read_bounded_line has it.
LineRead TransferCsvReader::next_line(size_t& begin, size_t& size) {
  constexpr size_t kBlock = size_t{1} << 16;
  while (true) {
    const size_t newline = buf_.find('\n', pos_);
    const size_t end = newline == std::string::npos ? buf_.size() : newline;
    if (end - pos_ > kMaxInputLineBytes) return LineRead::too_long;
    if (newline != std::string::npos || (at_end_ && pos_ < buf_.size())) {
      begin = pos_;
      size = end - pos_;
      pos_ = newline == std::string::npos ? end : end + 1;
      return LineRead::line;
    }
    if (at_end_) return LineRead::end;
    buf_.erase(0, pos_);
    pos_ = 0;
    const size_t kept = buf_.size();
    buf_.resize(kept + kBlock);
    in_.read(buf_.data() + kept, static_cast<std::streamsize>(kBlock));
    const auto got = static_cast<size_t>(in_.gcount());
    buf_.resize(kept + got);
    at_end_ = got < kBlock;
  }
}

bool TransferCsvReader::next_fields(std::vector<std::string_view>& fields) {
  while (true) {
    const uint64_t at = offset_;
    size_t begin = 0, size = 0;
    const LineRead r = next_line(begin, size);
    if (r == LineRead::end) return false;
    ++line_no_;
    if (r == LineRead::too_long)
      fail(line_no_, fmt::format("line longer than {} bytes, the limit for a CSV line", kMaxInputLineBytes));
    offset_ += size + 1;
    char* line = buf_.data() + begin;
    // A UTF-8 byte-order mark (spreadsheets write one) is not part of the first column's name.
    constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
    if (at == 0 && std::string_view(line, size).starts_with(kUtf8Bom)) {
      line += kUtf8Bom.size();
      size -= kUtf8Bom.size();
    }
    if (size > 0 && line[size - 1] == '\r') --size;
    if (is_skipped(std::string_view(line, size))) continue;
    if (!split_fields(line, size, fields)) fail(line_no_, "unbalanced double quote");
    row_offset_ = at;
    row_line_ = line_no_;
    return true;
  }
}

void TransferCsvReader::seek(uint64_t offset, int line) {
  in_.clear();
  in_.seekg(static_cast<std::streamoff>(offset));
  buf_.clear();
  pos_ = 0;
  at_end_ = false;
  offset_ = offset;
  line_no_ = line - 1;
}

std::optional<TransferSpec> TransferCsvReader::next() {
  if (!next_fields(fields_)) return std::nullopt;
  return read_row(fields_);
}

void TransferCsvReader::read_header(const std::vector<std::string_view>& names) {
  const int line = line_no_;
  std::array<bool, kColumns.size()> seen{};
  for (const std::string_view name : names) {
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
    if (!seen[static_cast<size_t>(c)])
      fail(line, fmt::format("missing column '{}' in the header", kColumns[static_cast<size_t>(c)]));
}

TransferSpec TransferCsvReader::read_row(const std::vector<std::string_view>& fields) const {
  const int line = row_line_;
  if (fields.size() != column_of_field_.size())
    fail(line, fmt::format("expected {} fields, got {}", column_of_field_.size(), fields.size()));
  TransferSpec t;
  for (size_t f = 0; f < fields.size(); ++f) {
    const std::string_view v = fields[f];
    switch (column_of_field_[f]) {
      case kSrc: t.src = endpoint("src", v); break;
      case kDst: t.dst = endpoint("dst", v); break;
      case kBytes: {
        const ByteCountParse parsed = parse_byte_count(v);
        if (!parsed.bytes) fail(line, fmt::format("column 'bytes': {}", parsed.error));
        t.bytes = *parsed.bytes;
        break;
      }
      case kStart: {
        double s = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), s);
        if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(s))
          fail(line, fmt::format("column 'start_s': expected a number of seconds, got '{}'", v));
        if (s < 0) fail(line, fmt::format("column 'start_s': must not be negative, got {}", v));
        if (s > kStartRange.max)
          fail(line, fmt::format("column 'start_s': must be at most {:g}, got {} ({})", kStartRange.max, v, kStartRange.why));
        t.start = Time::seconds(s);
        break;
      }
      default: t.name = v; break;
    }
  }
  if (t.src == t.dst) fail(line, fmt::format("src and dst are the same node '{}'", t.src));
  return t;
}

std::string TransferCsvReader::endpoint(std::string_view column, std::string_view v) const {
  int index = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), index);
  const bool numbered = !v.empty() && ec == std::errc() && end == v.data() + v.size();
  // A bare GPU index in range, the common case: "gpu" and its digits, when they are written as
  // gpu_node_name writes them (no sign, no leading zero).
  if (numbered && index >= 0 && index < nodes_.gpu_count()) {
    if (v[0] != '-' && (v[0] != '0' || v.size() == 1)) return std::string("gpu").append(v);
    return gpu_node_name(index);
  }
  const std::string written = numbered ? gpu_node_name(index) : std::string(v);
  // What endpoint_problem() accepts, without building its message for every row.
  if (std::optional<std::string> canonical = nodes_.resolve(written)) {
    const std::optional<NodeKind> kind = nodes_.kind_of(*canonical);
    if (kind == NodeKind::gpu || kind == NodeKind::host) return std::move(*canonical);
  }
  fail(row_line_, fmt::format("column '{}': {}", column, nodes_.endpoint_problem(written)));
}

std::vector<TransferSpec> parse_transfers_csv(std::string_view text, const std::string& path, const NodeDirectory& nodes) {
  std::istringstream in{std::string(text)};
  TransferCsvReader reader(in, path, nodes);
  std::vector<TransferSpec> out;
  while (std::optional<TransferSpec> t = reader.next()) out.push_back(std::move(*t));
  return out;
}

void index_transfers_csv(const std::string& path, const NodeDirectory& nodes, TransferWorkloadSpec& out) {
  std::ifstream in = open_input(path);
  TransferCsvReader reader(in, path, nodes);
  out.csv_rows = 0;
  out.csv_chunks.clear();
  out.csv_first_chunk.clear();
  // Room for a whole chunk up front: pages reserved and never written cost nothing, while
  // growing by doubling wrote every row two or three times over fresh pages (page faults were a
  // fifth of random N=10,000's CPU on this project's VM: docs/performance.md "Inlining, parked
  // classes and page faults").
  out.csv_first_chunk.reserve(kTransferCsvChunkRows);
  int64_t largest = -1;
  while (std::optional<TransferSpec> t = reader.next()) {
    if (out.csv_rows < kTransferCsvChunkRows) out.csv_first_chunk.push_back(*t);
    out.csv_bytes += static_cast<double>(t->bytes);
    out.csv_max_start = std::max(out.csv_max_start, t->start);
    if (t->bytes > largest) {
      largest = t->bytes;
      out.csv_largest_line = reader.line();
    }
    if (out.csv_rows % kTransferCsvChunkRows == 0)
      out.csv_chunks.push_back(TransferCsvChunk{reader.row_offset(), reader.line(), 0, t->start});
    TransferCsvChunk& c = out.csv_chunks.back();
    ++c.rows;
    c.min_start = std::min(c.min_start, t->start);
    ++out.csv_rows;
  }
}

namespace {
// The order rows are taken in: (start, row).
bool earlier_row(const TransferCsvStream::Held& a, const TransferCsvStream::Held& b) {
  return a.start < b.start || (a.start == b.start && a.row < b.row);
}
}  // namespace

TransferCsvStream::TransferCsvStream(const TransferWorkloadSpec& spec, NodeDirectory nodes)
    : spec_(spec), nodes_(std::move(nodes)) {
  if (spec_.transfers_csv.empty() || spec_.csv_chunks.empty()) return;
  if (spec_.csv_chunks.size() > 1) {  // (the first chunk's rows were kept at load)
    in_.open(spec_.transfers_csv, std::ios::binary);
    if (!in_) throw InputError(SourceLocation{spec_.transfers_csv, 0, 0}, "", "cannot open file");
    reader_.emplace(in_, spec_.transfers_csv, nodes_);
  }
  later_min_.resize(spec_.csv_chunks.size());
  Time m = Time::max();
  for (size_t k = spec_.csv_chunks.size(); k-- > 0;) later_min_[k] = m = std::min(m, spec_.csv_chunks[k].min_start);
}

// The first chunk comes from the rows kept at load (read where they are); the others from the file.
// Either way the chunk becomes one run, sorted.
// heads_ is a std:: heap (a max-heap): the run whose next row comes later ranks lower.
auto TransferCsvStream::later_head() const {
  return [this](uint32_t a, uint32_t b) {
    return earlier_row(runs_[b].rows[runs_[b].next], runs_[a].rows[runs_[a].next]);
  };
}

void TransferCsvStream::read_chunk() {
  const size_t k = next_chunk_++;
  const TransferCsvChunk& c = spec_.csv_chunks[k];
  std::vector<Held> run;
  run.reserve(c.rows);
  if (k == 0) {  // served from the spec: not copied until taken
    for (uint32_t i = 0; i < spec_.csv_first_chunk.size(); ++i)
      run.push_back(Held{spec_.csv_first_chunk[i].start, next_row_++, kFirstChunk | i});
  } else {
    // Room for the chunk's rows beyond the free slots, grown at least twofold (see
    // index_transfers_csv(): no row moved to fresh pages as the vector grows).
    const size_t need = rows_.size() + (c.rows > free_slots_.size() ? c.rows - free_slots_.size() : 0);
    if (need > rows_.capacity()) rows_.reserve(std::max(need, 2 * rows_.capacity()));
    reader_->seek(c.offset, c.line);
    for (uint32_t i = 0; i < c.rows; ++i) {
      std::optional<TransferSpec> t = reader_->next();
      if (!t)
        throw InputError(SourceLocation{spec_.transfers_csv, reader_->line(), 0}, "",
                         "the file changed while parallax ran: fewer rows than when the scenario was loaded");
      hold(std::move(*t), run);
    }
  }
  if (!std::is_sorted(run.begin(), run.end(), earlier_row)) std::sort(run.begin(), run.end(), earlier_row);
  held_ += run.size();
  most_held_ = std::max(most_held_, held_);
  if (run.empty()) return;
  runs_.push_back(Run{std::move(run), 0});
  heads_.push_back(static_cast<uint32_t>(runs_.size() - 1));
  std::push_heap(heads_.begin(), heads_.end(), later_head());
}

void TransferCsvStream::hold(TransferSpec&& t, std::vector<Held>& run) {
  uint32_t slot = 0;
  if (free_slots_.empty()) {
    slot = static_cast<uint32_t>(rows_.size());
    rows_.push_back(CsvTransfer{std::move(t), next_row_});
  } else {
    slot = free_slots_.back();
    free_slots_.pop_back();
    rows_[slot] = CsvTransfer{std::move(t), next_row_};
  }
  run.push_back(Held{rows_[slot].spec.start, next_row_++, slot});
}

// A chunk not read yet may hold a row before the earliest one held: read until none can.
const TransferCsvStream::Held* TransferCsvStream::peek() {
  const auto head = [this]() -> const Held* {
    if (heads_.empty()) return nullptr;
    const Run& r = runs_[heads_.front()];
    return &r.rows[r.next];
  };
  while (next_chunk_ < later_min_.size() && (heads_.empty() || later_min_[next_chunk_] < head()->start)) read_chunk();
  return head();
}

CsvTransfer TransferCsvStream::take() {
  const auto later = later_head();
  std::pop_heap(heads_.begin(), heads_.end(), later);
  Run& r = runs_[heads_.back()];
  const Held h = r.rows[r.next++];
  --held_;
  if (r.next < r.rows.size()) {
    std::push_heap(heads_.begin(), heads_.end(), later);
  } else {
    heads_.pop_back();
    r.rows = std::vector<Held>{};
  }
  if (h.slot & kFirstChunk) return CsvTransfer{spec_.csv_first_chunk[h.slot & ~kFirstChunk], h.row};
  free_slots_.push_back(h.slot);
  return std::move(rows_[h.slot]);
}

}  // namespace parallax
