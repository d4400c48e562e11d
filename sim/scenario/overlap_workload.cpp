// File: sim/scenario/overlap_workload.cpp
// Reader of workload.kind == "overlap" (overlap_workload.h): strict keys, typed lists, ranges.
#include "sim/scenario/overlap_workload.h"

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

namespace {

const ConfigNode& expect_sequence(const ConfigNode& node, const std::string& path) {
  if (node.kind != ConfigNode::Kind::sequence || node.items.empty())
    fail_at(node, path, fmt::format("'{}' must be a non-empty list", path));
  return node;
}

std::vector<std::string> read_choices(const ConfigNode& node, const std::string& path,
                                      std::initializer_list<std::string_view> choices) {
  std::vector<std::string> out;
  const ConfigNode& list = expect_sequence(node, path);
  for (size_t i = 0; i < list.items.size(); ++i) out.push_back(read_choice(list.items[i], join_path(path, i), choices));
  return out;
}

std::vector<int64_t> read_integers(const ConfigNode& node, const std::string& path, int64_t min, int64_t max) {
  std::vector<int64_t> out;
  const ConfigNode& list = expect_sequence(node, path);
  for (size_t i = 0; i < list.items.size(); ++i) out.push_back(read_integer_in(list.items[i], join_path(path, i), min, max));
  return out;
}

}  // namespace

void read_overlap_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext&,
                           Scenario& scenario) {
  const MapFields f(workload, path,
                    {"kind", "ops", "tp", "hidden", "tokens", "layers", "max_degree", "default_degree"});
  OverlapWorkloadSpec& out = scenario.overlap;
  const int64_t gpus = static_cast<int64_t>(scenario.hardware.gpus.size());
  if (const ConfigNode* n = f.optional("ops")) out.ops = read_choices(*n, f.path_of("ops"), {"ag_gemm", "gemm_rs", "gemm_ar"});
  if (const ConfigNode* n = f.optional("tp")) out.tp = read_integers(*n, f.path_of("tp"), 1, gpus);
  if (const ConfigNode* n = f.optional("hidden")) out.hidden = read_integers(*n, f.path_of("hidden"), 64, 1 << 20);
  if (const ConfigNode* n = f.optional("tokens")) out.tokens = read_integers(*n, f.path_of("tokens"), 1, 1 << 24);
  if (const ConfigNode* n = f.optional("layers"))
    out.layers = read_choices(*n, f.path_of("layers"), {"qkv", "proj", "fc1", "fc2"});
  if (const ConfigNode* n = f.optional("max_degree")) out.max_degree = read_integer_in(*n, f.path_of("max_degree"), 1, 1024);
  if (const ConfigNode* n = f.optional("default_degree"))
    out.default_degree = read_integer_in(*n, f.path_of("default_degree"), 1, out.max_degree);
  const ConfigNode* tp_node = f.optional("tp");
  for (size_t i = 0; i < out.tp.size(); ++i)
    for (int64_t m : out.tokens)
      if (m % out.tp[i] != 0)
        fail_at(tp_node != nullptr ? *tp_node : workload, f.path_of("tp"), fmt::format("'{}': tokens {} is not divisible by tp {}", f.path_of("tp"), m, out.tp[i]));
}

}  // namespace parallax
