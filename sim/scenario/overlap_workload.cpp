// File: sim/scenario/overlap_workload.cpp
// Reader of workload.kind == "overlap" (overlap_workload.h): strict keys, typed lists, ranges.
#include "sim/scenario/overlap_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/input_limits.h"
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

// A mode's keys given in the other mode: "'workload.ops' applies to mode grid only".
void reject_keys_of_other_mode(const MapFields& f, std::initializer_list<std::string_view> keys,
                               std::string_view other_mode) {
  for (std::string_view key : keys)
    if (const ConfigNode* n = f.optional(key))
      fail_at(*n, f.path_of(key), fmt::format("'{}' applies to mode {} only", f.path_of(key), other_mode));
}

std::vector<OverlapModelSpec> read_models(const ConfigNode& node, const std::string& path) {
  std::vector<OverlapModelSpec> out;
  const ConfigNode& list = expect_sequence(node, path);
  for (size_t i = 0; i < list.items.size(); ++i) {
    const MapFields m(list.items[i], join_path(path, i), {"name", "hidden", "heads", "layers"});
    OverlapModelSpec spec;
    spec.name = read_string(m.required("name"), m.path_of("name"));
    spec.hidden = read_integer_in(m.required("hidden"), m.path_of("hidden"), 64, 1 << 20);
    spec.heads = read_integer_in(m.required("heads"), m.path_of("heads"), 1, spec.hidden);
    spec.layers = read_integer_in(m.required("layers"), m.path_of("layers"), 1, 1024);
    if (spec.hidden % spec.heads != 0)
      fail_at(m.required("heads"), m.path_of("heads"),
              fmt::format("'{}': hidden {} is not divisible by heads {}", m.path_of("heads"), spec.hidden, spec.heads));
    out.push_back(std::move(spec));
  }
  return out;
}

// The largest GEMM of a configuration at the GPU's peak, and its output over the slowest link (twice,
// for an all-reduce), must fit a run with room to spare: the DES runs each configuration on its
// own clock, and efficiency below 1 (the GEMM model), degrees and ring steps stretch it further.
// Refused at `where` (the tokens, or seq_len, key) when a quarter of kMaxRunSeconds does not hold it
// (the clock's last guard, TimeRangeError, stays behind it for an efficiency under 1/4).
void check_overlap_span(const HardwareSpec& hw, int64_t tokens, int64_t hidden, int64_t tp, const ConfigNode& where,
                        const std::string& where_path) {
  double min_Bps = std::numeric_limits<double>::infinity();
  for (const LinkSpec& l : hw.links) min_Bps = std::min(min_Bps, l.bandwidth_Bps);
  const double m = static_cast<double>(tokens), h = static_cast<double>(hidden);
  const double flops = 2 * m * (4 * h) * h / static_cast<double>(tp);  // fc1 and fc2: the largest layers
  const double gemm_s = flops / hw.gpus.front().peak_flops;
  const double comm_s = 2 * (2 * m * 4 * h) / min_Bps;                 // bf16 output of fc1, all-reduced
  const double limit_s = kMaxRunSeconds / 4;
  if (gemm_s + comm_s > limit_s)
    fail_at(where, where_path,
            fmt::format("'{}': a layer of {} tokens, hidden {} over tp {} takes at least {:.3g} s of GEMM at the GPU's peak "
                        "and {:.3g} s over the slowest link, past the {:g} s one overlap configuration may take "
                        "(the clock is int64 picoseconds)",
                        where_path, tokens, hidden, tp, gemm_s, comm_s, limit_s));
}

}  // namespace

void read_overlap_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext&,
                           Scenario& scenario) {
  const MapFields f(workload, path,
                    {"kind", "mode", "ops", "tp", "hidden", "tokens", "layers", "max_degree", "default_degree",
                     "trace_config", "models", "seq_len", "micro_batch"});
  OverlapWorkloadSpec& out = scenario.overlap;
  if (const ConfigNode* n = f.optional("mode")) out.mode = read_choice(*n, f.path_of("mode"), {"grid", "end_to_end"});
  const bool grid = out.mode == "grid";
  reject_keys_of_other_mode(f, grid ? std::initializer_list<std::string_view>{"models", "seq_len", "micro_batch"}
                                    : std::initializer_list<std::string_view>{"ops", "hidden", "tokens", "layers"},
                            grid ? "end_to_end" : "grid");
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
  if (!grid) {
    out.models = read_models(f.required("models"), f.path_of("models"));
    if (const ConfigNode* n = f.optional("seq_len")) out.seq_len = read_integer_in(*n, f.path_of("seq_len"), 1, 1 << 20);
    if (const ConfigNode* n = f.optional("micro_batch"))
      out.micro_batch = read_integer_in(*n, f.path_of("micro_batch"), 1, 1 << 12);
  }
  const ConfigNode& tp_node = f.optional("tp") != nullptr ? *f.optional("tp") : workload;
  const std::vector<int64_t> tokens = grid ? out.tokens : std::vector<int64_t>{out.seq_len * out.micro_batch};
  for (int64_t tp : out.tp) {
    for (int64_t m : tokens)
      if (m % tp != 0)
        fail_at(tp_node, f.path_of("tp"), fmt::format("'{}': tokens {} is not divisible by tp {}", f.path_of("tp"), m, tp));
    for (const OverlapModelSpec& model : out.models)
      if (model.heads % tp != 0)
        fail_at(tp_node, f.path_of("tp"), fmt::format("'{}': model '{}' has {} heads, not divisible by tp {}",
                                                      f.path_of("tp"), model.name, model.heads, tp));
  }
  const ConfigNode& size_node = grid ? (f.optional("tokens") != nullptr ? *f.optional("tokens") : workload)
                                     : (f.optional("seq_len") != nullptr ? *f.optional("seq_len") : workload);
  const std::string size_path = f.path_of(grid ? "tokens" : "seq_len");
  for (int64_t tp : out.tp) {
    if (grid) {
      for (int64_t m : out.tokens)
        for (int64_t h : out.hidden) check_overlap_span(scenario.hardware, m, h, tp, size_node, size_path);
    } else {
      for (const OverlapModelSpec& model : out.models)
        check_overlap_span(scenario.hardware, out.seq_len * out.micro_batch, model.hidden, tp, size_node, size_path);
    }
  }
  const int64_t configs = grid ? static_cast<int64_t>(out.ops.size() * out.tp.size() * out.hidden.size() *
                                                      out.tokens.size() * out.layers.size())
                               : static_cast<int64_t>(out.models.size() * out.tp.size());
  if (const ConfigNode* n = f.optional("trace_config"))
    out.trace_config = read_integer_in(*n, f.path_of("trace_config"), 0, configs - 1);
}

}  // namespace parallax
