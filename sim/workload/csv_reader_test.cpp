// File: sim/workload/csv_reader_test.cpp
#include "sim/workload/csv_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sim/workload/workload_test_files.h"

namespace parallax {
namespace {

using testing_files::input_error_of;
using testing_files::scratch_file;

Time seconds_text(std::string_view text) {
  Time t = Time::ps(-1);
  EXPECT_TRUE(parse_decimal_seconds(text, t)) << text;
  return t;
}

TEST(DecimalSeconds, ExactToThePicosecond) {
  EXPECT_EQ(seconds_text("0"), Time::zero());
  EXPECT_EQ(seconds_text("12"), Time::seconds(12));
  EXPECT_EQ(seconds_text("0.078"), Time::ps(78'000'000'000));
  // 13th fractional digit 6 rounds up: 0.079490900039|67285 s.
  EXPECT_EQ(seconds_text("0.07949090003967285"), Time::ps(79'490'900'040));
  EXPECT_EQ(seconds_text("1.0000000000004"), Time::ps(1'000'000'000'000));
  EXPECT_EQ(seconds_text("1.0000000000005"), Time::ps(1'000'000'000'001));
  EXPECT_EQ(seconds_text("5e-05"), Time::ps(50'000'000));
  EXPECT_EQ(seconds_text("1.5E+2"), Time::seconds(150));
  EXPECT_EQ(seconds_text("0001260.0557980537415"), Time::ps(1'260'055'798'053'742));
}

TEST(DecimalSeconds, RejectsEverythingElse) {
  Time t;
  for (std::string_view bad : {"", ".", "1.", ".5", "-1", "+1", " 1", "1 ", "1,5", "1e", "1e+", "abc", "nan", "inf",
                               "1.2.3", "9999999999"}) {
    EXPECT_FALSE(parse_decimal_seconds(bad, t)) << "'" << bad << "'";
  }
}

TEST(CsvReader, CrlfBomAndBlankLines) {
  std::istringstream in("\xEF\xBB\xBF" "a,b\r\n1,2\r\n\r\n3,4");  // read from memory, as the fuzz targets do
  CsvReader csv(in, "crlf.csv");
  csv.read_header("a,b");
  ASSERT_EQ(csv.header().size(), 2u);
  EXPECT_EQ(csv.header()[0], "a");
  EXPECT_EQ(csv.header()[1], "b");
  ASSERT_TRUE(csv.next_row());
  EXPECT_EQ(csv.parse_uint(1), 2u);
  ASSERT_TRUE(csv.next_row());  // the blank line 3 is skipped
  EXPECT_EQ(csv.line(), 4);
  EXPECT_EQ(csv.parse_uint(0), 3u);
  EXPECT_EQ(csv.parse_uint(1), 4u);  // last line without a line end
  EXPECT_FALSE(csv.next_row());
}

TEST(CsvReader, EmptyFileNamesTheExpectedHeader) {
  const auto path = scratch_file("empty.csv", "");
  EXPECT_EQ(input_error_of([&] {
              std::ifstream in = open_trace_file(path);
              CsvReader(in, path).read_header("a,b");
            }),
            path + ": empty file; expected a header line 'a,b'");
}

TEST(CsvReader, MissingFile) {
  EXPECT_EQ(input_error_of([] { (void)open_trace_file("/nonexistent/parallax.csv"); }),
            "/nonexistent/parallax.csv: no such file or directory");
}

TEST(CsvReader, ErrorsNameLineAndColumn) {
  const auto path = scratch_file("bad.csv", "count,value\n1,2.5\nx,2\n1,-3\n1\n");
  std::ifstream in = open_trace_file(path);
  CsvReader csv(in, path);
  csv.read_header("count,value");
  ASSERT_TRUE(csv.next_row());
  EXPECT_EQ(csv.parse_double(1), 2.5);
  ASSERT_TRUE(csv.next_row());
  EXPECT_EQ(input_error_of([&] { csv.parse_uint(0); }),
            path + ":3: column 'count': expected a non-negative integer, got 'x'");
  ASSERT_TRUE(csv.next_row());
  EXPECT_EQ(input_error_of([&] { csv.parse_nonnegative_double(1); }),
            path + ":4: column 'value': expected a non-negative number, got '-3'");
  EXPECT_EQ(input_error_of([&] { csv.parse_seconds(1); }),
            path + ":4: column 'value': expected non-negative decimal seconds, got '-3'");
  ASSERT_TRUE(csv.next_row());
  EXPECT_EQ(input_error_of([&] { csv.require_field_count(2); }), path + ":5: expected 2 fields, found 1");
  try {
    csv.require_header_name(1, "other");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.key(), "other");
    EXPECT_EQ(e.where().line, 5);
  }
}

}  // namespace
}  // namespace parallax
