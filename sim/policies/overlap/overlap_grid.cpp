// File: sim/policies/overlap/overlap_grid.cpp
// Cartesian expansion of the overlap grid (overlap_grid.h).
#include "sim/policies/overlap/overlap_grid.h"

#include <stdexcept>

#include <fmt/format.h>

namespace parallax {

namespace {

void layer_shape(const std::string& layer, int64_t h, int64_t& n, int64_t& k) {
  if (layer == "qkv") { n = 3 * h; k = h; }
  else if (layer == "proj") { n = h; k = h; }
  else if (layer == "fc1") { n = 4 * h; k = h; }
  else if (layer == "fc2") { n = h; k = 4 * h; }
  else throw std::invalid_argument(fmt::format("unknown layer '{}'; layers: qkv, proj, fc1, fc2", layer));
}

}  // namespace

std::vector<OverlapGridPoint> expand_overlap_grid(const OverlapGridSpec& spec) {
  std::vector<OverlapGridPoint> out;
  for (const std::string& op_name : spec.ops) {
    models::OverlapOp op;
    if (!models::parse_overlap_op(op_name, op))
      throw std::invalid_argument(fmt::format("unknown operator pair '{}'; ops: ag_gemm, gemm_rs, gemm_ar", op_name));
    for (int64_t tp : spec.tp)
      for (int64_t h : spec.hidden)
        for (int64_t m : spec.tokens)
          for (const std::string& layer : spec.layers) {
            OverlapGridPoint pt;
            pt.problem.op = op;
            pt.problem.m = m;
            pt.problem.tp = tp;
            layer_shape(layer, h, pt.problem.n, pt.problem.k);
            models::check_overlap_problem(pt.problem);
            pt.hidden = h;
            pt.layer = layer;
            out.push_back(std::move(pt));
          }
  }
  return out;
}

}  // namespace parallax
