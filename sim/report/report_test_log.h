// File: sim/report/report_test_log.h
// A hand-made ActivityLog shared by the report tests, small enough to check every event by hand:
//
//   t (µs)     0    1    2    3    5    6    7    8    9   10
//   gpu0 kernels   [gemm ...........................................]   id 1, 0-10
//   gpu0 p0             [attn]                                        id 2, 1-2
//   host0→gpu0     [h2d ...........]                                  id 8, 0-3, link 2
//   gpu0→gpu1           [a ................]                          id 3, 1-5, links 0 1
//   gpu0→gpu1                [b ..............]                       id 4, 2-6, links 0 1
//   all_reduce                                 [......... ]           id 5, 7-9 (collective)
//   ring step gpu0→gpu1                        [s0 ]                  id 6, 7-8, links 0 1
//   ring step gpu1→gpu0                             [s1 ]             id 7, 8-9, no links
//
// a and b overlap without nesting, so gpu0 "copies out" and gpu1 "copies in" need two lanes.
#pragma once

#include "sim/platform/activity_record.h"

namespace parallax::testing {

inline ActivityRecord make_record(uint64_t id, ActivityKind kind, const char* name, const char* src,
                                  const char* dst, int64_t start_us, int64_t end_us) {
  ActivityRecord r;
  r.id = id;
  r.kind = kind;
  r.name = name;
  r.src = src;
  r.dst = dst;
  r.issued = Time::us(start_us);
  r.start = Time::us(start_us);
  r.end = Time::us(end_us);
  return r;
}

inline ActivityLog make_test_log() {
  ActivityLog log;
  log.gpu_models = {"H100-SXM5", "H100-SXM5"};
  log.link_directions = {{"gpu0→nvswitch", "nvlink", 450e9},
                         {"nvswitch→gpu1", "nvlink", 450e9},
                         {"host0→gpu0", "pcie", 64e9}};
  constexpr double MiB = 1 << 20;
  auto& rs = log.records;
  rs.push_back(make_record(1, ActivityKind::kernel, "gemm", "gpu0", "gpu0", 0, 10));
  rs.back().flops = 1e12;
  rs.push_back(make_record(2, ActivityKind::kernel, "attn, \"fused\"", "gpu0", "gpu0", 1, 2));
  rs.back().partition = "p0";
  rs.push_back(make_record(3, ActivityKind::copy, "a", "gpu0", "gpu1", 1, 5));
  rs.back().bytes = MiB;
  rs.back().links = {0, 1};
  rs.push_back(make_record(4, ActivityKind::copy, "b", "gpu0", "gpu1", 2, 6));
  rs.back().bytes = MiB;
  rs.back().links = {0, 1};
  rs.push_back(make_record(5, ActivityKind::collective, "all_reduce", "gpu0", "", 7, 9));
  rs.back().bytes = 2 * MiB;
  rs.push_back(make_record(6, ActivityKind::copy, "s0", "gpu0", "gpu1", 7, 8));
  rs.back().parent = 5;
  rs.back().bytes = MiB;
  rs.back().links = {0, 1};
  rs.push_back(make_record(7, ActivityKind::copy, "s1", "gpu1", "gpu0", 8, 9));
  rs.back().parent = 5;
  rs.back().bytes = MiB;
  rs.push_back(make_record(8, ActivityKind::copy, "h2d", "host0", "gpu0", 0, 3));
  rs.back().bytes = 4 * MiB;
  rs.back().links = {2};
  return log;
}

}  // namespace parallax::testing
