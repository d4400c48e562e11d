// File: tests/support/cli_harness.h
// Running the `parallax` binary from a GoogleTest case the way a user runs it: the binary and the
// source tree come from the environment meson sets for the test (PARALLAX_BIN,
// PARALLAX_SOURCE_DIR); stdout and stderr are captured together, and the exit status is kept
// apart so a test can assert "exit 2 with file:line". One copy for every CLI test in the tree.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace parallax::cli_test {

inline const std::string kBinary = std::getenv("PARALLAX_BIN") ? std::getenv("PARALLAX_BIN") : "parallax";
inline const std::filesystem::path kSource =
    std::getenv("PARALLAX_SOURCE_DIR") ? std::getenv("PARALLAX_SOURCE_DIR") : ".";

struct Result {
  int code;            // exit status, -1 when the command did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs a shell command line and captures what it prints.
inline Result run_shell(const std::string& command) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (!p) return {-1, "popen failed"};
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// `parallax ARGS`.
inline Result run(const std::string& args) { return run_shell(kBinary + " " + args); }

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// An empty folder under the system's temporary directory, unique to this process and `name`.
inline std::filesystem::path fresh_temp_dir(const std::string& prefix, const std::string& name) {
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() / (prefix + "_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace parallax::cli_test
