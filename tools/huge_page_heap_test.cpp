// File: tools/huge_page_heap_test.cpp
// tools/huge_page_heap.cpp's constructor runs in this binary as in `parallax`: after it, a fresh
// block below 32 MiB comes from the heap, not from a mmap of its own, and where the kernel offers
// transparent huge pages the heap's allocations land on 2 MiB pages. Two of its drafts fail
// TouchedHeapIsBackedByHugePages: the advice given after malloc had written a header into the
// first 2 MiB (that range stays 4 KiB pages: 22 of 24 MiB huge), and no block holding the heap's
// unaligned head (the program's blocks fill it first: 2.1 MB of 4 KiB pages below the advice).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kOwnAllocator = true;  // the sanitizer's malloc: the constructor leaves it alone
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kOwnAllocator = true;
#else
constexpr bool kOwnAllocator = false;
#endif
#else
constexpr bool kOwnAllocator = false;
#endif

bool turned_off() {
  const char* v = std::getenv("PARALLAX_HUGE_PAGES");
  return v != nullptr && std::strcmp(v, "0") == 0;
}

std::string slurp(const char* path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A "Name:   N kB" line of a /proc file, in bytes (-1 when missing).
int64_t proc_kb(const std::string& text, const std::string& name) {
  const size_t at = text.find(name + ":");
  if (at == std::string::npos) return -1;
  return std::strtoll(text.c_str() + at + name.size() + 1, nullptr, 10) * 1024;
}

int64_t vmstat(const std::string& name) {
  std::istringstream in(slurp("/proc/vmstat"));
  std::string key;
  int64_t value = 0;
  while (in >> key >> value)
    if (key == name) return value;
  return -1;
}

TEST(HugePageHeap, BlocksBelow32MiBComeFromTheHeap) {
#if defined(__GLIBC__)
  if (kOwnAllocator || turned_off()) GTEST_SKIP() << "not glibc's allocator, or PARALLAX_HUGE_PAGES=0";
  const auto heap_end = reinterpret_cast<uintptr_t>(sbrk(0));
  const struct mallinfo2 info = mallinfo2();
  const uintptr_t heap_start = heap_end - info.arena;
  // glibc's default would mmap each of these (its threshold starts at 128 KiB).
  for (const size_t size : {size_t{1} << 20, size_t{16} << 20, size_t{31} << 20}) {
    const std::unique_ptr<char[]> block(new char[size]);
    const auto at = reinterpret_cast<uintptr_t>(block.get());
    EXPECT_GE(at, heap_start) << size << " bytes";
    EXPECT_LE(at + size, heap_end) << size << " bytes: not in the heap (mmapped?)";
  }
  EXPECT_GE(info.arena, size_t{256} << 20) << "the heap did not grow by its pad";
#else
  GTEST_SKIP() << "glibc only";
#endif
}

// The mappings of /proc/self/smaps with their resident and huge-page bytes.
struct Mapping {
  uintptr_t start = 0, end = 0;
  int64_t rss = 0, huge = 0;
};
std::vector<Mapping> mappings() {
  std::vector<Mapping> out;
  std::istringstream in(slurp("/proc/self/smaps"));
  std::string line;
  while (std::getline(in, line)) {
    uintptr_t a = 0, b = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &a, &b) == 2 && line.find(':') > line.find(' ')) {
      out.push_back({a, b, 0, 0});
    } else if (!out.empty()) {
      if (line.rfind("Rss:", 0) == 0) out.back().rss = proc_kb(line, "Rss");
      if (line.rfind("AnonHugePages:", 0) == 0) out.back().huge = proc_kb(line, "AnonHugePages");
    }
  }
  return out;
}

TEST(HugePageHeap, TouchedHeapIsBackedByHugePages) {
  const std::string mode = slurp("/sys/kernel/mm/transparent_hugepage/enabled");
  if (mode.find("[always]") == std::string::npos && mode.find("[madvise]") == std::string::npos)
    GTEST_SKIP() << "transparent huge pages off in this kernel: '" << mode << "'";
  if (kOwnAllocator || turned_off()) GTEST_SKIP() << "not glibc's allocator, or PARALLAX_HUGE_PAGES=0";
  const int64_t fallbacks = vmstat("thp_fault_fallback");
  // Small blocks first: they would fill an unaligned head of the heap if one were left free.
  std::vector<std::unique_ptr<char[]>> small;
  for (int i = 0; i < 64; ++i) {
    small.emplace_back(new char[64 << 10]);
    for (size_t j = 0; j < (64 << 10); j += 4096) small.back()[j] = 1;
  }
  constexpr size_t kSize = size_t{16} << 20;  // at least seven whole 2 MiB ranges
  const std::unique_ptr<char[]> block(new char[kSize]);
  for (size_t i = 0; i < kSize; i += 4096) block[i] = 1;
  const auto at = reinterpret_cast<uintptr_t>(block.get());
  const std::vector<Mapping> maps = mappings();
  const Mapping* advised = nullptr;
  const Mapping* head = nullptr;
  for (const Mapping& m : maps)
    if (m.start <= at && at < m.end) advised = &m;
  ASSERT_NE(advised, nullptr) << "no mapping holds the block";
  for (const Mapping& m : maps)
    if (m.end == advised->start) head = &m;
  if (advised->huge < advised->rss && vmstat("thp_fault_fallback") > fallbacks)
    GTEST_SKIP() << "the kernel had no free 2 MiB pages (thp_fault_fallback rose)";
  // Every page touched in the advised range is a huge one: none was touched before the advice.
  EXPECT_EQ(advised->huge, advised->rss) << "the advised heap holds 4 KiB pages";
  EXPECT_GE(advised->huge, int64_t{16} << 20);
  // Below it, the heap's unaligned head holds what came before the constructor and the blocks
  // carved from its freed growth block, not the program's allocations.
  ASSERT_NE(head, nullptr) << "no heap mapping below the advised one";
  const char* perturb = std::getenv("MALLOC_PERTURB_");  // glibc then writes every block it hands out
  if (perturb != nullptr && std::atoi(perturb) != 0) GTEST_SKIP() << "MALLOC_PERTURB_ wrote the padding block";
  EXPECT_LE(head->rss, int64_t{512} << 10) << "allocations went below the first 2 MiB boundary";
}

}  // namespace
