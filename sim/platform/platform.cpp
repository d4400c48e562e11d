// File: sim/platform/platform.cpp
#include "sim/platform/platform.h"

namespace parallax {

const char* to_string(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::all_reduce: return "all_reduce";
    case CollectiveOp::all_gather: return "all_gather";
    case CollectiveOp::reduce_scatter: return "reduce_scatter";
  }
  return "?";
}

}  // namespace parallax
