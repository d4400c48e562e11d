// File: models/kernel_interference.cpp
#include "models/kernel_interference.h"

#include <algorithm>

namespace parallax {

double interference_slowdown(const InterferenceCoefficients& c, const TenantUtilisation& self,
                             const TenantUtilisation& other) {
  const double a = c.l2_self * self.l2 + c.l2_other * other.l2 + c.dram_self * self.dram +
                   c.dram_other * other.dram + c.constant;
  return std::max(1.0, a);
}

}  // namespace parallax
