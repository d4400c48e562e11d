// File: tools/parallax_main.cpp
// The `parallax` command line: parses, calls the libraries, prints. Nothing else lives here.
#include <cstdio>

int main() {
  std::puts("parallax " PARALLAX_VERSION);
  return 0;
}
