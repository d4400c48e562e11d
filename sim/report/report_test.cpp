// File: sim/report/report_test.cpp
// Atomic files, exact time text, activities.csv, console tables and JSON output.
// chrome_trace_test.cpp covers trace.json.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "sim/report/activities_csv.h"
#include "sim/report/atomic_file.h"
#include "sim/report/console_table.h"
#include "sim/report/csv_row.h"
#include "sim/report/fixed_decimal.h"
#include "sim/report/json_output.h"
#include "sim/report/report_test_log.h"

namespace parallax {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class ReportFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           fmt::format("parallax_report_{}_{}_{}", ::getpid(), info->test_suite_name(), info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ignored);
    fs::remove_all(dir_, ignored);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

TEST_F(ReportFiles, AtomicWriteLeavesOnlyTheFile) {
  write_file_atomically(dir_ / "summary.json", "{}\n");
  EXPECT_EQ(read(dir_ / "summary.json"), "{}\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"summary.json"});
  write_file_atomically(dir_ / "summary.json", "replaced\n");
  EXPECT_EQ(read(dir_ / "summary.json"), "replaced\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"summary.json"});
}

TEST_F(ReportFiles, AtomicWriteCreatesMissingDirectories) {
  write_file_atomically(dir_ / "a" / "b" / "out.csv", "x\n");
  EXPECT_EQ(read(dir_ / "a" / "b" / "out.csv"), "x\n");
}

TEST_F(ReportFiles, PathThatIsADirectoryFailsAndLeavesNothing) {
  fs::create_directory(dir_ / "trace.json");
  try {
    write_file_atomically(dir_ / "trace.json", "data");
    FAIL() << "expected an error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("trace.json"), std::string::npos) << e.what();
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"trace.json"});
  EXPECT_TRUE(fs::is_directory(dir_ / "trace.json"));
}

TEST_F(ReportFiles, UnwritableDirectoryFailsAndLeavesNothing) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_THROW(write_file_atomically(dir_ / "out.csv", "x"), OutputError);
  fs::permissions(dir_, fs::perms::owner_all);
  EXPECT_TRUE(entries().empty());
}

TEST_F(ReportFiles, FailedStreamKeepsTheOldFileAndRemovesTheTemporary) {
  write_file_atomically(dir_ / "activities.csv", "old\n");
  {
    AtomicFileWriter out(dir_ / "activities.csv");
    out.stream() << "half a row";
    EXPECT_TRUE(fs::exists(out.temp_path()));
    out.stream().setstate(std::ios::badbit);  // what a full disk looks like to the stream
    EXPECT_THROW(out.commit(), OutputError);
  }
  EXPECT_EQ(read(dir_ / "activities.csv"), "old\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"activities.csv"});
}

TEST_F(ReportFiles, WriterWithoutCommitRemovesTheTemporary) {
  {
    AtomicFileWriter out(dir_ / "trace.json");
    out.stream() << "{";
  }
  EXPECT_TRUE(entries().empty());
}

// A target that exists and is not a regular file is refused before anything is written: a rename
// over a device node, a FIFO or a directory would replace it (as root, a real device).
TEST_F(ReportFiles, DevicesAndFifosAreNeverWrittenOver) {
  for (const char* device : {"/dev/null", "/dev/zero"}) {
    try {
      write_file_atomically(device, "x");
      FAIL() << "expected an error for " << device;
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("a character device"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(std::string(device) + fmt::format(".tmp.{}", ::getpid())));
  }
  ASSERT_EQ(::mkfifo((dir_ / "pipe").c_str(), 0600), 0);
  try {
    AtomicFileWriter out(dir_ / "pipe");
    FAIL() << "expected an error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("a FIFO"), std::string::npos) << e.what();
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"pipe"});
}

// /dev/full fails every write with ENOSPC: the message gives that reason, not "input/output error",
// and the old file stays.
TEST_F(ReportFiles, AFullDiskSaysNoSpaceLeftOnDevice) {
  if (!fs::exists("/dev/full") || !fs::exists("/proc/self/fd")) GTEST_SKIP() << "no /dev/full or /proc";
  write_file_atomically(dir_ / "big.csv", "old\n");
  AtomicFileWriter out(dir_ / "big.csv");
  int writer_fd = -1;  // the temporary's descriptor, found by its target
  for (const fs::directory_entry& e : fs::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    if (fs::read_symlink(e.path(), ec) == out.temp_path()) writer_fd = std::stoi(e.path().filename().string());
  }
  ASSERT_GE(writer_fd, 0);
  const int full = ::open("/dev/full", O_WRONLY);
  ASSERT_GE(full, 0);
  ASSERT_EQ(::dup2(full, writer_fd), writer_fd);
  ::close(full);
  out.stream() << std::string(1 << 20, 'x');
  try {
    out.commit();
    FAIL() << "expected an error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("no space left on device"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read(dir_ / "big.csv"), "old\n");
  EXPECT_EQ(entries(), std::vector<std::string>{"big.csv"});
}

TEST_F(ReportFiles, OutputsCommittedTogetherAreAllOrNothing) {
  write_file_atomically(dir_ / "validation.csv", "old csv\n");
  write_file_atomically(dir_ / "validation.json", "old json\n");
  {
    AtomicFileWriter csv(dir_ / "validation.csv");
    AtomicFileWriter json(dir_ / "validation.json");
    csv.stream() << "new csv\n";
    json.stream() << "new json\n";
    json.stream().setstate(std::ios::badbit);  // the second output fails
    const std::array<AtomicFileWriter*, 2> both{&csv, &json};
    EXPECT_THROW(commit_together(both), OutputError);
  }
  EXPECT_EQ(read(dir_ / "validation.csv"), "old csv\n");
  EXPECT_EQ(read(dir_ / "validation.json"), "old json\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"validation.csv", "validation.json"}));
  {
    AtomicFileWriter csv(dir_ / "validation.csv");
    AtomicFileWriter json(dir_ / "validation.json");
    csv.stream() << "new csv\n";
    json.stream() << "new json\n";
    const std::array<AtomicFileWriter*, 2> both{&csv, &json};
    commit_together(both);
  }
  EXPECT_EQ(read(dir_ / "validation.csv"), "new csv\n");
  EXPECT_EQ(read(dir_ / "validation.json"), "new json\n");
}

TEST(AtomicTemporaryName, OnlyNameDotTmpDotDigits) {
  EXPECT_TRUE(is_atomic_temporary_name("summary.json.tmp.99999"));
  EXPECT_TRUE(is_atomic_temporary_name("results.csv.tmp.1"));
  EXPECT_FALSE(is_atomic_temporary_name("summary.json"));
  EXPECT_FALSE(is_atomic_temporary_name(".tmp.123"));              // no NAME
  EXPECT_FALSE(is_atomic_temporary_name("summary.json.tmp."));     // no PID
  EXPECT_FALSE(is_atomic_temporary_name("summary.json.tmp.12a"));  // not a PID
  EXPECT_FALSE(is_atomic_temporary_name("notes.tmp.txt"));
  EXPECT_FALSE(is_atomic_temporary_name("data.tmp"));
}

// What a writer killed by SIGKILL leaves (its destructor never ran) is removed; nothing else is.
TEST_F(ReportFiles, StaleTemporariesAreRemovedAndNothingElse) {
  write_file_atomically(dir_ / "summary.json", "{}\n");
  {
    std::ofstream(dir_ / "summary.json.tmp.99999") << "{\"half";
    std::ofstream(dir_ / "trace.json.tmp.4242") << "[";
    std::ofstream(dir_ / "notes.tmp.txt") << "the user's";
    std::ofstream(dir_ / "data.tmp") << "the user's";
  }
  fs::create_directory(dir_ / "sub.tmp.7");                                  // a folder, not a leftover
  std::ofstream(dir_ / "sub.tmp.7" / "activities.csv.tmp.8") << "x";           // not in `dir` itself
  fs::create_symlink(dir_ / "notes.tmp.txt", dir_ / "link.tmp.9");            // a link is not ours
  EXPECT_EQ(remove_stale_temporaries(dir_), 2u);
  EXPECT_EQ(entries(), (std::vector<std::string>{"data.tmp", "link.tmp.9", "notes.tmp.txt", "sub.tmp.7", "summary.json"}));
  EXPECT_TRUE(fs::exists(dir_ / "sub.tmp.7" / "activities.csv.tmp.8"));
  EXPECT_EQ(read(dir_ / "summary.json"), "{}\n");
  EXPECT_EQ(remove_stale_temporaries(dir_ / "missing"), 0u);
}

TEST(FixedDecimal, PicosecondsPrintExactly) {
  EXPECT_EQ(format_time_s(Time::ps(1234567)), "0.000001234567");
  EXPECT_EQ(format_time_s(Time::zero()), "0.000000000000");
  EXPECT_EQ(format_time_s(Time::ms(1500)), "1.500000000000");
  EXPECT_EQ(format_time_s(Time::ps(-5)), "-0.000000000005");
  EXPECT_EQ(format_time_us(Time::ps(1234567)), "1.234567");
  EXPECT_EQ(format_time_us(Time::ps(std::numeric_limits<int64_t>::max())), "9223372036854.775807");
  EXPECT_EQ(format_time_us(Time::ps(std::numeric_limits<int64_t>::min())), "-9223372036854.775808");
  EXPECT_EQ(format_scaled_integer(42, 0), "42");
  EXPECT_THROW(format_scaled_integer(1, 19), std::invalid_argument);
}

// The digits written directly are those of the formula they replaced, for every precision.
TEST(FixedDecimal, WrittenDigitsMatchTheFormatFormula) {
  const auto by_format = [](int64_t value, int decimals) {
    const bool negative = value < 0;
    const uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    if (decimals == 0) return fmt::format("{}{}", negative ? "-" : "", magnitude / scale);
    return fmt::format("{}{}.{:0{}}", negative ? "-" : "", magnitude / scale, magnitude % scale, decimals);
  };
  uint64_t x = 0x9e3779b97f4a7c15u;
  std::vector<int64_t> values = {0, 1, -1, 9, 10, 999999, 1000000, std::numeric_limits<int64_t>::max(),
                                 std::numeric_limits<int64_t>::min()};
  for (int i = 0; i < 3000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    values.push_back(static_cast<int64_t>(x >> (x % 64)));  // every magnitude, both signs
  }
  for (int64_t v : values)
    for (int d = 0; d <= 18; ++d) ASSERT_EQ(format_scaled_integer(v, d), by_format(v, d)) << v << " at " << d;
}

TEST(Csv, QuotesPerRfc4180) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field(""), "");
}

TEST(ActivitiesCsv, ExactRows) {
  const ActivityLog log = testing::make_test_log();
  std::ostringstream out;
  write_activities_csv(out, log);
  std::istringstream lines(out.str());
  std::string header, gemm, attn, copy_a;
  std::getline(lines, header);
  std::getline(lines, gemm);
  std::getline(lines, attn);
  std::getline(lines, copy_a);
  EXPECT_EQ(header,
            "id,parent,kind,name,src,dst,partition,issued_s,start_s,end_s,duration_s,bytes,flops,"
            "throughput_GBps,route");
  EXPECT_EQ(gemm, "1,0,kernel,gemm,gpu0,gpu0,,0.000000000000,0.000000000000,0.000010000000,"
                  "0.000010000000,0,1000000000000,,");
  EXPECT_EQ(attn, "2,0,kernel,\"attn, \"\"fused\"\"\",gpu0,gpu0,p0,0.000001000000,0.000001000000,"
                  "0.000002000000,0.000001000000,0,0,,");
  // 1 MiB in 4 µs = 262.144 GB/s
  EXPECT_EQ(copy_a, "3,0,copy,a,gpu0,gpu1,,0.000001000000,0.000001000000,0.000005000000,"
                    "0.000004000000,1048576,0,262.144,gpu0→nvswitch nvswitch→gpu1");
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + static_cast<long>(log.records.size()));
}

TEST(ActivitiesCsv, OddPicosecondTimesRoundTrip) {
  ActivityLog log;
  log.records.push_back(testing::make_record(9, ActivityKind::kernel, "k", "gpu0", "gpu0", 0, 0));
  log.records.back().start = Time::ps(1234567);
  log.records.back().end = Time::ps(3000000000001);
  std::ostringstream out;
  write_activities_csv(out, log);
  EXPECT_NE(out.str().find(",0.000001234567,3.000000000001,2.999998765434,"), std::string::npos)
      << out.str();
}

TEST(ActivitiesCsv, RejectsInconsistentRecords) {
  ActivityLog log = testing::make_test_log();
  log.records[2].links.push_back(7);
  std::ostringstream out;
  EXPECT_THROW(write_activities_csv(out, log), std::invalid_argument);
  EXPECT_TRUE(out.str().empty());  // nothing written before the check
  log = testing::make_test_log();
  log.records[0].end = Time::zero() - Time::ps(1);
  EXPECT_THROW(write_activities_csv(out, log), std::invalid_argument);
  log = testing::make_test_log();
  log.records[3].bytes = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(write_activities_csv(out, log), std::invalid_argument);
}

TEST_F(ReportFiles, IdenticalLogsGiveIdenticalCsvBytes) {
  write_activities_csv_file(dir_ / "one.csv", testing::make_test_log());
  write_activities_csv_file(dir_ / "two.csv", testing::make_test_log());
  EXPECT_EQ(read(dir_ / "one.csv"), read(dir_ / "two.csv"));
  EXPECT_FALSE(read(dir_ / "one.csv").empty());
}

TEST(ConsoleTable, AlignsNumbersRightAndTextLeft) {
  const std::string table = format_table({"link", "bytes", "busbw"},
                                         {{"gpu0→nvswitch", "1.00 GiB", "450.0 GB/s"},
                                          {"host0→gpu0", "512 B", "12.0 MB/s"},
                                          {"x", "", "9.5 GB/s"}});
  EXPECT_EQ(table,
            "link              bytes       busbw\n"
            "gpu0→nvswitch  1.00 GiB  450.0 GB/s\n"
            "host0→gpu0        512 B   12.0 MB/s\n"
            "x                          9.5 GB/s\n");
}

TEST(ConsoleTable, PadsShortRowsAndRejectsLongOnes) {
  EXPECT_EQ(format_table({"a", "b"}, {{"x"}}), "a  b\nx\n");
  EXPECT_THROW(format_table({"a"}, {{"1", "2"}}), std::invalid_argument);
}

TEST(ConsoleTable, RecognisesNumbers) {
  for (const char* yes : {"42", "-1.5e3", "12.3 ms", "98%", "1.9x", "nan", "-inf", ".5"}) {
    EXPECT_TRUE(looks_numeric(yes)) << yes;
  }
  for (const char* no : {"", "gpu0", "1 2 3", "ms", "-", "1.0 GB /s", "12abc"}) {
    EXPECT_FALSE(looks_numeric(no)) << no;
  }
}

TEST(UnitFormat, Seconds) {
  EXPECT_EQ(format_seconds(0.0123), "12.3 ms");
  EXPECT_EQ(format_seconds(4.56), "4.56 s");
  EXPECT_EQ(format_seconds(789e-9), "789 ns");
  EXPECT_EQ(format_seconds(999.7e-9), "1.00 µs");
  EXPECT_EQ(format_seconds(9.996e-3), "10.0 ms");
  EXPECT_EQ(format_seconds(2.5e-13), "0.25 ps");
  EXPECT_EQ(format_seconds(0), "0 s");
  EXPECT_EQ(format_seconds(1500.2), "1500 s");
  EXPECT_EQ(format_seconds(-0.0123), "-12.3 ms");
  EXPECT_EQ(format_seconds(std::numeric_limits<double>::quiet_NaN()), "nan s");
}

TEST(UnitFormat, BytesAndRates) {
  EXPECT_EQ(format_bytes(1073741824), "1.00 GiB");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(1536), "1.50 KiB");
  EXPECT_EQ(format_bytes(100.0 * (1 << 20)), "100 MiB");
  EXPECT_EQ(format_rate(450e9), "450.0 GB/s");
  EXPECT_EQ(format_rate(3.35e12), "3350.0 GB/s");
  EXPECT_EQ(format_rate(12e6), "12.0 MB/s");
  EXPECT_EQ(format_rate(999.96e6), "1.0 GB/s");
  EXPECT_EQ(format_rate(5), "5.0 B/s");
}

TEST(JsonOutput, TwoSpaceIndentAndTrailingNewline) {
  nlohmann::ordered_json j;
  j["scenario"] = "quickstart";
  j["makespan_s"] = 0.1;
  j["links"] = nlohmann::ordered_json::array({1.5});
  EXPECT_EQ(format_json(j),
            "{\n  \"scenario\": \"quickstart\",\n  \"makespan_s\": 0.1,\n  \"links\": [\n    1.5\n"
            "  ]\n}\n");
}

TEST(JsonOutput, RejectsNaNAndInfinityWithThePointer) {
  nlohmann::ordered_json j;
  j["collectives"] = nlohmann::ordered_json::array();
  j["collectives"].push_back({{"name", "ar"}, {"busbw_GBps", std::numeric_limits<double>::quiet_NaN()}});
  try {
    (void)format_json(j);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/collectives/0/busbw_GBps"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)format_json(nlohmann::ordered_json(std::numeric_limits<double>::infinity())),
               std::invalid_argument);
}

TEST_F(ReportFiles, JsonWithNaNWritesNoFile) {
  nlohmann::ordered_json j = {{"x", std::numeric_limits<double>::quiet_NaN()}};
  EXPECT_THROW(write_json_atomically(dir_ / "summary.json", j), std::invalid_argument);
  EXPECT_TRUE(entries().empty());
  write_json_atomically(dir_ / "summary.json", {{"x", 1}});
  EXPECT_EQ(read(dir_ / "summary.json"), "{\n  \"x\": 1\n}\n");
}

}  // namespace
}  // namespace parallax
