// File: sim/scenario/transfer_csv_test.cpp
#include "sim/scenario/transfer_csv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include <fmt/format.h>

namespace parallax {
namespace {

const NodeDirectory kNodes(4, 1, {NodeSpec{"nvswitch", NodeKind::nvswitch}});

std::string transfer_error_of(std::string_view text) {
  try {
    parse_transfers_csv(text, "t.csv", kNodes);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TransferCsv, ReadsRowsInOrderAnyColumnOrder) {
  const auto rows = parse_transfers_csv(
      "# weights first\nbytes,src,dst,start_s,name\n1GiB,host,gpu0,0,load\r\n\n4096,2,gpu3,0.5,\"a, b\"\n", "t.csv", kNodes);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].src, "host0");
  EXPECT_EQ(rows[0].dst, "gpu0");
  EXPECT_EQ(rows[0].bytes, int64_t{1} << 30);
  EXPECT_EQ(rows[0].name, "load");
  EXPECT_EQ(rows[1].src, "gpu2");
  EXPECT_EQ(rows[1].start, Time::seconds(0.5));
  EXPECT_EQ(rows[1].name, "a, b");
}

// A bare index names its GPU however it is written (leading zeros, "-0"); the name is canonical.
TEST(TransferCsv, BareGpuIndexesGiveCanonicalNames) {
  const auto rows = parse_transfers_csv("src,dst,bytes,start_s\n03,-0,1,0\n0, 1 ,2,0\n\"2\",host,3,0\n", "t.csv", kNodes);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].src, "gpu3");
  EXPECT_EQ(rows[0].dst, "gpu0");
  EXPECT_EQ(rows[1].src, "gpu0");
  EXPECT_EQ(rows[1].dst, "gpu1");
  EXPECT_EQ(rows[2].src, "gpu2");
  EXPECT_EQ(rows[2].dst, "host0");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\n4,1,1,0\n"), "t.csv:2: column 'src': unknown node 'gpu4' (nodes: gpu0..gpu3, host0, nvswitch)");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\n-1,1,1,0\n"), "t.csv:2: column 'src': unknown node 'gpu-1' (nodes: gpu0..gpu3, host0, nvswitch)");
}

// Lines are cut out of 64 KiB blocks: rows straddling a block's end, quoted names with "" inside
// (unescaped in place) and a last line without its newline all read whole.
TEST(TransferCsv, RowsAcrossReadBlocksAndQuotedNames) {
  std::string text = "src,dst,bytes,start_s,name\n";
  std::vector<std::string> names;
  for (int i = 0; i < 300; ++i) {
    names.push_back(std::string(static_cast<size_t>(500 + i), static_cast<char>('a' + i % 26)) + "\"q\"" + std::to_string(i));
    std::string quoted;
    for (char c : names.back()) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    text += fmt::format("{},{},{},0.{},\"{}\"{}", i % 4, (i + 1) % 4, i + 1, i, quoted, i + 1 < 300 ? "\n" : "");
  }
  ASSERT_GT(text.size(), size_t{2} << 16);
  const auto rows = parse_transfers_csv(text, "t.csv", kNodes);
  ASSERT_EQ(rows.size(), 300u);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].name, names[i]) << "row " << i;
    EXPECT_EQ(rows[i].bytes, static_cast<int64_t>(i + 1));
  }
}

// Regression (tests/cli/bad_input_test.py): a BOM made the header's first column "\xEF\xBB\xBFsrc".
TEST(TransferCsv, AcceptsUtf8ByteOrderMark) {
  const auto rows = parse_transfers_csv("\xEF\xBB\xBFsrc,dst,bytes,start_s\r\ngpu0,gpu1,1KiB,0\r\n", "t.csv", kNodes);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].src, "gpu0");
  EXPECT_EQ(transfer_error_of("\xEF\xBB\xBF\xEF\xBB\xBFsrc,dst,bytes,start_s\n").substr(0, 25), "t.csv:1: unknown column '");
}

TEST(TransferCsv, Errors) {
  EXPECT_EQ(transfer_error_of("src,dst,bytes\n"), "t.csv:1: missing column 'start_s' in the header");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s,bites\n"),
            "t.csv:1: unknown column 'bites' (did you mean 'bytes'?); columns: src, dst, bytes, start_s, name");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s,src\n"), "t.csv:1: column 'src' appears twice");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\ngpu0,gpu1,1MB\n"), "t.csv:2: expected 4 fields, got 3");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\ngpu0,gpu1,1MB,0\ngpu0,gpu1,lots,0\n"),
            "t.csv:3: column 'bytes': invalid byte count 'lots'");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\ngpu0,gpu9,1,0\n"),
            "t.csv:2: column 'dst': unknown node 'gpu9' (nodes: gpu0..gpu3, host0, nvswitch)");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\nnvswitch,gpu1,1,0\n"),
            "t.csv:2: column 'src': 'nvswitch' is a switch; transfers run between GPUs and hosts");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\ngpu0,gpu1,1,-1\n"), "t.csv:2: column 'start_s': must not be negative, got -1");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\ngpu0,gpu1,1,nan\n"),
            "t.csv:2: column 'start_s': expected a number of seconds, got 'nan'");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\ngpu1,1,1,0\n"), "t.csv:2: src and dst are the same node 'gpu1'");
  EXPECT_EQ(transfer_error_of("src,dst,bytes,start_s\n\"gpu0,gpu1,1,0\n"), "t.csv:2: unbalanced double quote");
  EXPECT_EQ(transfer_error_of(""), "t.csv: empty CSV file: a header row (src,dst,bytes,start_s) is required");
}

// A CSV file of `rows` rows, row i starting at start_of(i) microseconds, bytes = i + 1 (its identity).
template <typename StartOf>
std::string write_rows(const std::string& name, size_t rows, StartOf start_of) {
  const std::string path =
      (std::filesystem::temp_directory_path() / fmt::format("parallax-{}-{}.csv", name, ::getpid())).string();
  std::ofstream out(path);
  out << "# a comment line\nsrc,dst,bytes,start_s\n";
  for (size_t i = 0; i < rows; ++i) out << "gpu0,gpu1," << i + 1 << "," << start_of(i) * 1e-6 << "\n";
  return path;
}

// Takes every row from the stream; checks the order is (start, row) and returns the bytes in order.
std::vector<int64_t> drain(TransferCsvStream& stream) {
  std::vector<int64_t> got;
  Time last;
  uint64_t last_row = 0;
  while (const TransferCsvStream::Held* t = stream.peek()) {
    if (!got.empty()) {
      EXPECT_TRUE(last < t->start || (last == t->start && last_row < t->row));
    }
    last = t->start;
    last_row = t->row;
    const CsvTransfer taken = stream.take();
    EXPECT_EQ(taken.row, last_row);
    EXPECT_EQ(taken.spec.start, last);
    got.push_back(taken.spec.bytes);
  }
  return got;
}

TEST(TransferCsvStream, RowsInStartOrderHoldAboutOneChunk) {
  const size_t n = 3 * kTransferCsvChunkRows + 5;
  const std::string path = write_rows("sorted", n, [](size_t i) { return static_cast<double>(i / 3); });
  TransferWorkloadSpec spec;
  spec.transfers_csv = path;
  index_transfers_csv(path, kNodes, spec);
  EXPECT_EQ(spec.csv_rows, n);
  ASSERT_EQ(spec.csv_chunks.size(), 4u);
  EXPECT_EQ(spec.csv_chunks[0].line, 3);
  EXPECT_EQ(spec.csv_chunks[3].rows, 5u);
  TransferCsvStream stream(spec, kNodes);
  const std::vector<int64_t> got = drain(stream);
  ASSERT_EQ(got.size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(got[i], static_cast<int64_t>(i + 1)) << "row " << i;
  EXPECT_LE(stream.most_held(), 2 * size_t{kTransferCsvChunkRows});
  std::filesystem::remove(path);
}

TEST(TransferCsvStream, RowsOutOfOrderComeOutSortedStably) {
  // Starts fall back every 1000 rows, and the very last row starts before all others: every chunk
  // is read before the first row is taken, and rows with one start keep their file order.
  constexpr size_t n = 2 * kTransferCsvChunkRows + 100;
  const auto start_of = [](size_t i) { return i + 1 == n ? 0.0 : static_cast<double>(1 + (i % 1000) / 10); };
  const std::string path = write_rows("unsorted", n, start_of);
  TransferWorkloadSpec spec;
  spec.transfers_csv = path;
  index_transfers_csv(path, kNodes, spec);
  TransferCsvStream stream(spec, kNodes);
  const std::vector<int64_t> got = drain(stream);
  std::vector<int64_t> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = static_cast<int64_t>(i + 1);
  std::stable_sort(want.begin(), want.end(), [&](int64_t a, int64_t b) {
    return start_of(static_cast<size_t>(a - 1)) < start_of(static_cast<size_t>(b - 1));
  });
  EXPECT_EQ(got, want);
  EXPECT_EQ(stream.most_held(), n);
  std::filesystem::remove(path);
}

// The first chunk's rows are kept from the check at load: a file of one chunk is not opened again
// (here it is gone before the replay), and a longer one is read again from its second chunk.
TEST(TransferCsvStream, TheFirstChunkIsReadOnce) {
  const std::string path = write_rows("once", 1000, [](size_t i) { return static_cast<double>(999 - i); });
  TransferWorkloadSpec spec;
  spec.transfers_csv = path;
  index_transfers_csv(path, kNodes, spec);
  EXPECT_EQ(spec.csv_first_chunk.size(), 1000u);
  std::filesystem::remove(path);
  TransferCsvStream stream(spec, kNodes);
  const std::vector<int64_t> got = drain(stream);
  ASSERT_EQ(got.size(), 1000u);
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], static_cast<int64_t>(1000 - i)) << "row " << i;

  const size_t n = kTransferCsvChunkRows + 10;
  const std::string longer = write_rows("twice", n, [](size_t i) { return static_cast<double>(i); });
  TransferWorkloadSpec two;
  two.transfers_csv = longer;
  index_transfers_csv(longer, kNodes, two);
  EXPECT_EQ(two.csv_first_chunk.size(), size_t{kTransferCsvChunkRows});
  TransferCsvStream again(two, kNodes);
  const std::vector<int64_t> all = drain(again);
  ASSERT_EQ(all.size(), n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(all[i], static_cast<int64_t>(i + 1)) << "row " << i;
  std::filesystem::remove(longer);
}

TEST(TransferCsvStream, BadRowFoundWhenIndexing) {
  const std::string path = write_rows("bad", 10, [](size_t i) { return static_cast<double>(i); });
  std::ofstream(path, std::ios::app) << "gpu0,gpu7,1,0\n";
  TransferWorkloadSpec spec;
  try {
    index_transfers_csv(path, kNodes, spec);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.what(), path + ":13: column 'dst': unknown node 'gpu7' (nodes: gpu0..gpu3, host0, nvswitch)");
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace parallax
