// File: sim/scenario/byte_count_test.cpp
#include "sim/scenario/byte_count.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

int64_t bytes(std::string_view s) {
  const ByteCountParse p = parse_byte_count(s);
  EXPECT_TRUE(p.bytes.has_value()) << s << ": " << p.error;
  return p.bytes.value_or(-1);
}

std::string error(std::string_view s) {
  const ByteCountParse p = parse_byte_count(s);
  EXPECT_FALSE(p.bytes.has_value()) << s;
  return p.error;
}

TEST(ByteCount, IntegersAndIntegralFloats) {
  EXPECT_EQ(bytes("0"), 0);
  EXPECT_EQ(bytes("1073741824"), 1073741824);
  EXPECT_EQ(bytes("1e9"), 1'000'000'000);
  EXPECT_EQ(bytes("1.5e3"), 1500);
  EXPECT_EQ(bytes("9223372036854775807"), INT64_MAX);
}

TEST(ByteCount, DecimalAndBinaryUnits) {
  EXPECT_EQ(bytes("1B"), 1);
  EXPECT_EQ(bytes("2KB"), 2000);
  EXPECT_EQ(bytes("3MB"), 3'000'000);
  EXPECT_EQ(bytes("1GB"), 1'000'000'000);
  EXPECT_EQ(bytes("1TB"), 1'000'000'000'000);
  EXPECT_EQ(bytes("1KiB"), 1024);
  EXPECT_EQ(bytes("64MiB"), 64 << 20);
  EXPECT_EQ(bytes("1GiB"), int64_t{1} << 30);
  EXPECT_EQ(bytes("2TiB"), int64_t{2} << 40);
  EXPECT_EQ(bytes("1.5 GiB"), int64_t{3} << 29);
  EXPECT_EQ(bytes("0.1GB"), 100'000'000);
}

TEST(ByteCount, Rejects) {
  EXPECT_EQ(error("-5"), "byte count must not be negative, got '-5'");
  EXPECT_EQ(error("0.5"), "byte count '0.5' is not a whole number of bytes");
  EXPECT_EQ(error("abc"), "invalid byte count 'abc'");
  EXPECT_EQ(error("nan"), "invalid byte count 'nan'");
  EXPECT_EQ(error("1e30"), "byte count '1e30' is out of range");
  EXPECT_EQ(error("9223372036854775808"), "byte count '9223372036854775808' is out of range");
  EXPECT_EQ(error("1 gib"),
            "unknown unit 'gib' in byte count '1 gib' (did you mean 'GiB'?); units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB");
}

}  // namespace
}  // namespace parallax
