// File: tools/huge_page_heap.cpp
// Backs the process's heap with 2 MiB pages where the kernel allows it (transparent huge pages in
// "madvise" or "always" mode), from a constructor that runs before the other initialisers: there
// is no call to make. PARALLAX_HUGE_PAGES=0 in the environment turns it off (to compare, or on a
// host short of memory). Does nothing where the allocator is not glibc's (sanitizers).
//
// Why: on the development VM a 4 KiB page fault costs 10-14 us (touching 8 MiB of fresh 4 KiB
// pages: 23-28 ms; of 2 MiB pages: 0.5-0.6 ms), and a run's first touches of its heap were
// 15-20 % of its CPU (ring P=512: 1,042 faults; random N=10,000: 1,438). glibc does this itself
// under GLIBC_TUNABLES=glibc.malloc.hugetlb=1, but only when the environment says so before exec;
// this does the same from inside, with glibc's public knobs:
//  * the main arena's heap grows by 256 MiB of address space at a time (M_TOP_PAD; only what is
//    touched is ever backed) and keeps what is freed (M_TRIM_THRESHOLD),
//  * blocks up to 32 MiB come from that heap instead of a fresh mmap each (M_MMAP_THRESHOLD: a
//    vector or string doubling past 128 KiB took fresh pages at every step),
//  * the heap is grown once now, its 2 MiB-aligned part marked MADV_HUGEPAGE (the kernel backs
//    each 2 MiB with one page at its first touch), and the unaligned head of its free room is
//    taken by a block never freed, so that what the program allocates starts on a boundary (a
//    2 MiB range with a 4 KiB page in it stays 4 KiB pages; the head, up to 2 MiB at random with
//    the heap's start, took up to 450 faults).
// Before the initialisers of default priority: libstdc++'s streams, protobuf's descriptor pool and
// CLI11's validators allocate before main, and called from main this left 700 of ring P=512's 870
// faults where they were. Beyond the first 256 MiB the heap takes 4 KiB pages as before; threads'
// arenas are untouched. Nothing a run computes depends on it: outputs are the same bytes
// (docs/performance.md "Huge pages for the heap").
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace {

// The heap below the first 2 MiB boundary, of which only the header is ever touched; kept for the
// process's life (volatile: a malloc whose pointer is never read would be optimised away).
void* volatile heap_head = nullptr;

[[gnu::constructor(101)]] void back_heap_with_huge_pages() {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  constexpr size_t kHugePage = size_t{2} << 20;  // x86-64's PMD page; where it is larger, the advice is unused
  constexpr size_t kReserve = size_t{256} << 20;
  if (const char* v = std::getenv("PARALLAX_HUGE_PAGES"); v != nullptr && std::strcmp(v, "0") == 0) return;
  // A replaced allocator (ASan) answers mallopt with 0: leave it alone.
  if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1) return;  // glibc's largest on 64-bit targets
  mallopt(M_TRIM_THRESHOLD, 2 * kReserve);
  mallopt(M_TOP_PAD, kReserve);
  // A block a little larger than the top's free room makes the heap grow now, by the pad. malloc
  // writes the header of the new top at its start, so the advice begins past that page: a 2 MiB
  // range with a 4 KiB page touched before the advice would stay 4 KiB pages. volatile: a malloc
  // and free of an unused pointer would be optimised away.
  void* volatile grow = std::malloc(mallinfo2().keepcost + 64);
  if (grow == nullptr) return;
  const struct mallinfo2 info = mallinfo2();  // keepcost: the top's free room, now the grown one
  const auto end = reinterpret_cast<uintptr_t>(sbrk(0));
  if (info.keepcost >= kReserve && info.keepcost <= end) {  // else not glibc's heap after all
    const uintptr_t top = end - info.keepcost;
    const uintptr_t first = (top + 64 + kHugePage - 1) & ~(kHugePage - 1);
    const uintptr_t last = end & ~(kHugePage - 1);
    if (first < last) {
      madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // advice: failure is harmless
      // Ends at `first`, where malloc writes the top's header next: after the advice.
      heap_head = std::malloc(first - top - 2 * sizeof(size_t));
    }
  }
  std::free(grow);  // to the free lists, below `first`: small blocks come from it first
#endif
}

}  // namespace
