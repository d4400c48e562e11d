// File: tests/support/link_count.h
// For tests of hardware presets and topology shapes: how many links join nodes `a` and `b` (either
// direction) in a HardwareSpec, and the bandwidth of the last one found.
#pragma once

#include <string_view>

#include "sim/scenario/scenario.h"

namespace parallax::test_support {

inline int count_links(const HardwareSpec& spec, std::string_view a, std::string_view b,
                       double* GBps = nullptr) {
  int n = 0;
  for (const LinkSpec& l : spec.links)
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) {
      ++n;
      if (GBps != nullptr) *GBps = l.bandwidth_Bps / 1e9;
    }
  return n;
}

}  // namespace parallax::test_support
