// File: sim/scenario/transfer_csv_test.cpp
#include "sim/scenario/transfer_csv.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

const NodeDirectory kNodes(4, 1, {NodeSpec{"nvswitch", NodeKind::nvswitch}});

std::string error_of(std::string_view text) {
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

// Regression (tests/cli/bad_input_test.py): a BOM made the header's first column "\xEF\xBB\xBFsrc".
TEST(TransferCsv, AcceptsUtf8ByteOrderMark) {
  const auto rows = parse_transfers_csv("\xEF\xBB\xBFsrc,dst,bytes,start_s\r\ngpu0,gpu1,1KiB,0\r\n", "t.csv", kNodes);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].src, "gpu0");
  EXPECT_EQ(error_of("\xEF\xBB\xBF\xEF\xBB\xBFsrc,dst,bytes,start_s\n").substr(0, 25), "t.csv:1: unknown column '");
}

TEST(TransferCsv, Errors) {
  EXPECT_EQ(error_of("src,dst,bytes\n"), "t.csv:1: missing column 'start_s' in the header");
  EXPECT_EQ(error_of("src,dst,bytes,start_s,bites\n"),
            "t.csv:1: unknown column 'bites' (did you mean 'bytes'?); columns: src, dst, bytes, start_s, name");
  EXPECT_EQ(error_of("src,dst,bytes,start_s,src\n"), "t.csv:1: column 'src' appears twice");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\ngpu0,gpu1,1MB\n"), "t.csv:2: expected 4 fields, got 3");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\ngpu0,gpu1,1MB,0\ngpu0,gpu1,lots,0\n"),
            "t.csv:3: column 'bytes': invalid byte count 'lots'");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\ngpu0,gpu9,1,0\n"),
            "t.csv:2: column 'dst': unknown node 'gpu9' (nodes: gpu0..gpu3, host0, nvswitch)");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\nnvswitch,gpu1,1,0\n"),
            "t.csv:2: column 'src': 'nvswitch' is a switch; transfers run between GPUs and hosts");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\ngpu0,gpu1,1,-1\n"), "t.csv:2: column 'start_s': must not be negative, got -1");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\ngpu0,gpu1,1,nan\n"),
            "t.csv:2: column 'start_s': expected a number of seconds, got 'nan'");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\ngpu1,1,1,0\n"), "t.csv:2: src and dst are the same node 'gpu1'");
  EXPECT_EQ(error_of("src,dst,bytes,start_s\n\"gpu0,gpu1,1,0\n"), "t.csv:2: unbalanced double quote");
  EXPECT_EQ(error_of(""), "t.csv: empty CSV file: a header row (src,dst,bytes,start_s) is required");
}

}  // namespace
}  // namespace parallax
