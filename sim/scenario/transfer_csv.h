// File: sim/scenario/transfer_csv.h
// Reads point-to-point transfers from a CSV file: a header row naming the columns src, dst, bytes,
// start_s (all required) and name (optional), in any order; then one transfer per row. Endpoints
// are node names or a bare GPU index ("3" = gpu3); bytes take units ("4GiB"). Blank lines and
// lines starting with '#' are skipped. Errors: InputError "file:line: column 'bytes': ...".
//
// Memory does not grow with the file: it is read a line at a time, twice. Loading the scenario
// checks every row and keeps an index (index_transfers_csv: the row count and, per chunk of
// kTransferCsvChunkRows rows, where it starts and its earliest start time) and the first chunk's
// rows, so a file of one chunk is read once. The replay then takes the rows in start order as
// simulated time reaches them (TransferCsvStream), holding only rows read but not yet issued:
// one chunk's worth for a file in start order (two while the first is still held). Rows out of order are
// legal; the stream reads a later chunk as soon as it may hold an earlier start, so a file whose
// order is scrambled over its whole length ends up held whole (as before streaming).
#pragma once

#include <cstdint>
#include <fstream>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/input_error.h"
#include "sim/io/input_file.h"
#include "sim/scenario/input_limits.h"
#include "sim/scenario/node_directory.h"
#include "sim/scenario/scenario.h"

namespace parallax {

inline constexpr uint32_t kTransferCsvChunkRows = 16384;

// Rows of transfer CSV text from a stream, one line at a time.
class TransferCsvReader {
 public:
  // Reads up to and including the header row. Throws InputError (an empty file, a bad header).
  TransferCsvReader(std::istream& in, std::string path, const NodeDirectory& nodes);

  // The next row, or nullopt at the end. Throws InputError naming the line.
  std::optional<TransferSpec> next();
  int line() const { return row_line_; }              // line number of the row last returned
  uint64_t row_offset() const { return row_offset_; }  // byte offset of that row's line
  // Goes on at the start of a line seen earlier: its byte offset and line number.
  void seek(uint64_t offset, int line);

 private:
  // The next line (without its newline) as buf_[begin, begin + size).
  LineRead next_line(size_t& begin, size_t& size);
  // The next line that is not blank or a comment, split into fields (views into buf_, valid
  // until the next call); false at the end.
  bool next_fields(std::vector<std::string_view>& fields);
  [[noreturn]] void fail(int line, const std::string& message) const;
  void read_header(const std::vector<std::string_view>& names);
  TransferSpec read_row(const std::vector<std::string_view>& fields) const;
  std::string endpoint(std::string_view column, std::string_view v) const;

  std::istream& in_;
  std::string path_;
  const NodeDirectory& nodes_;
  std::vector<int> column_of_field_;
  std::string buf_;        // bytes read from in_; the next line starts at pos_
  size_t pos_ = 0;
  bool at_end_ = false;    // in_ has nothing more to give
  std::vector<std::string_view> fields_;  // the current row's fields, reused from row to row
  uint64_t offset_ = 0;    // byte offset of the next line
  int line_no_ = 0;        // line number of the current line
  uint64_t row_offset_ = 0;
  int row_line_ = 0;
};

// Every row of CSV text in memory (`path` only names it in messages): for tests and fuzzing.
std::vector<TransferSpec> parse_transfers_csv(std::string_view text, const std::string& path, const NodeDirectory& nodes);

// Checks every row of the file and records its row count and chunk index in `out`.
void index_transfers_csv(const std::string& path, const NodeDirectory& nodes, TransferWorkloadSpec& out);

// A row with its place in the file (0-based among rows): rows at one start time go in file order.
struct CsvTransfer {
  TransferSpec spec;
  uint64_t row = 0;
};

// The rows of spec.transfers_csv (indexed at load) in (start, row) order, read a chunk at a time.
class TransferCsvStream {
 public:
  // No CSV in `spec`: the stream is empty. `spec` must outlive the stream.
  TransferCsvStream(const TransferWorkloadSpec& spec, NodeDirectory nodes);

  // A row read and not taken: its order key, and where it waits: in rows_, or (slot with
  // kFirstChunk) in the spec's first chunk, which the stream reads where the load kept it.
  struct Held {
    Time start;
    uint64_t row = 0;
    uint32_t slot = 0;
  };
  static constexpr uint32_t kFirstChunk = 0x80000000u;

  // The earliest row not taken yet (its start and place), or nullptr when none is left.
  const Held* peek();
  CsvTransfer take();  // peek() must not be nullptr
  size_t held() const { return held_; }  // rows read and not taken
  size_t most_held() const { return most_held_; }

 private:
  // A chunk's rows, sorted by (start, row) when read; `next` is the first not taken. The
  // earliest row held is the smallest head over the runs (a heap of runs): a file in start order
  // holds one or two, and a take is the next row of one. (A heap of every row held cost a sift
  // through log2(rows) cache lines a take: random N=10,000 spent 4 % of its CPU there.)
  struct Run {
    std::vector<Held> rows;
    size_t next = 0;
  };
  void read_chunk();
  void hold(TransferSpec&& t, std::vector<Held>& run);
  auto later_head() const;  // the order of heads_ (transfer_csv.cpp)

  const TransferWorkloadSpec& spec_;
  NodeDirectory nodes_;
  std::ifstream in_;
  std::optional<TransferCsvReader> reader_;
  std::vector<Time> later_min_;  // [k]: earliest start in chunks k, k+1, ...
  size_t next_chunk_ = 0;
  uint64_t next_row_ = 0;
  // The runs move only small keys; the rows stay put in rows_ (slots reused once taken).
  std::vector<Run> runs_;         // every chunk read (emptied once taken)
  std::vector<uint32_t> heads_;   // runs with rows left: a min-heap on their next row
  std::vector<CsvTransfer> rows_;
  std::vector<uint32_t> free_slots_;
  size_t held_ = 0;
  size_t most_held_ = 0;
};

}  // namespace parallax
