// File: sim/io/input_file_test.cpp
#include "sim/io/input_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace parallax {
namespace {

namespace fs = std::filesystem;

class InputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("parallax_io_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

std::string message_of(const std::string& path) {
  try {
    read_input_file(path);
  } catch (const InputFileError& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(InputFiles, ReadsARegularFileWhole) {
  EXPECT_EQ(read_input_file(file("a.yaml", "seed: 1\n")), "seed: 1\n");
  EXPECT_EQ(read_input_file(file("empty", "")), "");
}

// A FIFO is named from stat(), never opened: an open would wait for a writer forever.
TEST_F(InputFiles, FifosDevicesAndDirectoriesAreRefusedWithWhatTheyAre) {
  ASSERT_EQ(::mkfifo((dir_ / "pipe").c_str(), 0600), 0);
  EXPECT_NE(message_of((dir_ / "pipe").string()).find("a FIFO"), std::string::npos);
  EXPECT_NE(message_of("/dev/zero").find("a character device"), std::string::npos);
  EXPECT_NE(message_of(dir_.string()).find("a directory"), std::string::npos);
  EXPECT_NE(message_of((dir_ / "missing").string()).find("no such file or directory"), std::string::npos);
  EXPECT_THROW(open_input_stream("/dev/zero"), InputFileError);
}

TEST_F(InputFiles, AFileOverTheLimitIsRefused) {
  const std::string path = file("big", std::string(1000, 'x'));
  EXPECT_EQ(read_input_file(path, 1000).size(), 1000u);
  try {
    read_input_file(path, 999);
    FAIL() << "expected an error";
  } catch (const InputFileError& e) {
    EXPECT_NE(std::string(e.what()).find("the limit for an input file"), std::string::npos) << e.what();
  }
}

TEST(BoundedLines, SplitsLikeGetlineAndStopsAtTheLimit) {
  std::istringstream in("ab\n\ncdef\nlast");
  std::string line;
  EXPECT_EQ(read_bounded_line(in, line, 4), LineRead::line);
  EXPECT_EQ(line, "ab");
  EXPECT_EQ(read_bounded_line(in, line, 4), LineRead::line);
  EXPECT_EQ(line, "");
  EXPECT_EQ(read_bounded_line(in, line, 4), LineRead::line);
  EXPECT_EQ(line, "cdef");
  EXPECT_EQ(read_bounded_line(in, line, 4), LineRead::line);
  EXPECT_EQ(line, "last");
  EXPECT_EQ(read_bounded_line(in, line, 4), LineRead::end);

  std::istringstream nul(std::string(100, '\0') + "\nnext\n");  // a long NUL line, as in the issue
  EXPECT_EQ(read_bounded_line(nul, line, 10), LineRead::too_long);
  EXPECT_TRUE(line.empty());
}

}  // namespace
}  // namespace parallax
