// File: sim/scenario/colocate_workload.cpp
#include "sim/scenario/colocate_workload.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "models/network_shapes.h"
#include "sim/platform/green_context_groups.h"
#include "sim/platform/mig_layout.h"
#include "sim/platform/mig_memory.h"
#include "sim/scenario/arrival_spec_reader.h"
#include "sim/scenario/config_fields.h"
#include "sim/io/did_you_mean.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/scenario/model_catalog_reader.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

namespace {

std::string read_model(const MapFields& f) {
  const ConfigNode& node = f.required("model");
  const std::string name = read_string(node, f.path_of("model"));
  const ModelCatalog& catalog = embedded_model_catalog();
  if (catalog.find(name) == nullptr)
    fail_at(node, f.path_of("model"), fmt::format("unknown model '{}'{}", name, did_you_mean_suffix(name, catalog.names())));
  // Colocation runs the model's real kernels (sim/policies/colocate/colocation_kernels.h).
  const std::vector<std::string>& shaped = network_names();
  if (std::find(shaped.begin(), shaped.end(), name) == shaped.end())
    fail_at(node, f.path_of("model"), fmt::format("model '{}' has no layer shapes (models/network_shapes.h has {})", name,
                                                  fmt::join(shaped, ", ")));
  return name;
}

void read_mig_instance(const ConfigNode& node, const std::string& path, std::string& profile, int& start) {
  const MapFields f(node, path, {"profile", "start"});
  profile = read_string(f.required("profile"), f.path_of("profile"));
  start = static_cast<int>(read_integer_in(f.required("start"), f.path_of("start"), 0, 63));
}

// Under the mig policy each tenant's model must fit its instance's memory (sim/platform/mig_memory.h;
// docs/colocate.md, Memory). Located at workload.mig.<tenant> when the split is written out,
// else at the workload (the default 4g + 3g split).
void check_mig_memory(const GpuPartitioning& parts, const ConfigNode& where, const std::string& where_path,
                      const char* tenant, const std::string& model, const std::string& profile_name, int start) {
  const MigProfile& profile = *parts.find_profile(profile_name);  // check_mig_layout accepted it
  const double weights = static_cast<double>(embedded_model_catalog().find(model)->param_bytes());
  if (weights_fit(weights, profile)) return;
  fail_at(where, where_path,
          fmt::format("{}, more than MIG instance '{}' ({} at memory slice {}) holds: {:.3g} GiB ({} bytes)",
                      weights_needed(fmt::format("the {} model '{}'", tenant, model), weights), tenant, profile.name,
                      start, profile.memory_GiB, mig_profile_memory_bytes(profile)));
}

}  // namespace

void read_colocate_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                            Scenario& scenario) {
  const MapFields f(workload, path,
                    {"kind", "ls", "be", "pairs", "duration_s", "policies", "slo_target", "sgdrc_eviction",
                     "static_ls_sms", "mig", "mps_be_percentage", "interference", "trace_policy"});
  ColocateWorkloadSpec& c = scenario.colocate;
  c.duration_s = read_number_in(f.required("duration_s"), f.path_of("duration_s"), kHorizonRange);
  // Where each pair's LS and BE are written, for the MIG memory check.
  struct PairNodes {
    const ConfigNode* ls;
    const ConfigNode* be;
    std::string ls_path, be_path;
  };
  std::vector<PairNodes> nodes;
  const auto read_pair = [&](const ConfigNode& ls_node, const std::string& ls_path, const ConfigNode& be_node,
                             const std::string& be_path) {
    ColocatePair p;
    const MapFields ls(ls_node, ls_path, {"model", "batch", "arrivals", "slo_ms"});
    p.ls_model = read_model(ls);
    p.ls_batch = static_cast<int>(read_integer_in(ls.required("batch"), ls.path_of("batch"), 1, 4096));
    p.ls_arrivals = read_arrival_process_spec(ls.required("arrivals"), ls.path_of("arrivals"), context);
    p.ls_slo_s = read_number_in(ls.required("slo_ms"), ls.path_of("slo_ms"), kSloSecondsRange, 1e-3);
    const MapFields be(be_node, be_path, {"model", "batch"});
    p.be_model = read_model(be);
    p.be_batch = static_cast<int>(read_integer_in(be.required("batch"), be.path_of("batch"), 1, 4096));
    check_arrival_draws(ls.required("arrivals"), ls.path_of("arrivals"), p.ls_arrivals, c.duration_s);
    c.pairs.push_back(std::move(p));
    nodes.push_back({&ls_node, &be_node, ls_path, be_path});
  };
  if (const ConfigNode* pairs = f.optional("pairs")) {
    if (f.optional("ls") || f.optional("be"))
      fail_at(*pairs, f.path_of("pairs"), "give either 'workload.pairs' or 'workload.ls' and 'workload.be', not both");
    if (pairs->kind != ConfigNode::Kind::sequence || pairs->items.empty())
      fail_at(*pairs, f.path_of("pairs"), "'workload.pairs' must be a non-empty list of {ls, be}");
    for (size_t i = 0; i < pairs->items.size(); ++i) {
      const std::string at = join_path(f.path_of("pairs"), i);
      const MapFields pf(pairs->items[i], at, {"ls", "be"});
      read_pair(pf.required("ls"), pf.path_of("ls"), pf.required("be"), pf.path_of("be"));
    }
    c.pairs_listed = true;
  } else {
    read_pair(f.required("ls"), f.path_of("ls"), f.required("be"), f.path_of("be"));
  }
  const ColocatePair& first = c.pairs.front();
  c.ls_model = first.ls_model;
  c.ls_batch = first.ls_batch;
  c.ls_arrivals = first.ls_arrivals;
  c.ls_slo_s = first.ls_slo_s;
  c.be_model = first.be_model;
  c.be_batch = first.be_batch;
  const ConfigNode& policies = f.required("policies");
  c.policies = read_string_list(policies, f.path_of("policies"));
  if (c.policies.empty()) fail_at(policies, f.path_of("policies"), "'workload.policies' must not be empty");
  for (size_t i = 0; i < c.policies.size(); ++i)
    read_choice(policies.items[i], join_path(f.path_of("policies"), i),
                {"ls_alone", "mps", "static_split", "mig", "orion", "temporal", "sgdrc"});
  if (const ConfigNode* t = f.optional("slo_target")) {
    c.slo_target = read_positive(*t, f.path_of("slo_target"));
    if (c.slo_target > 1) fail_at(*t, f.path_of("slo_target"), "'workload.slo_target' must be in (0, 1]");
  }
  if (const ConfigNode* e = f.optional("sgdrc_eviction"))
    c.sgdrc_eviction = read_choice(*e, f.path_of("sgdrc_eviction"), {"kernel", "block"});
  if (scenario.hardware.gpus.empty()) fail_at(workload, path, "the colocate workload needs one GPU");
  const std::string& model = scenario.hardware.gpus[0].model;
  const GpuPartitioning* parts = nullptr;
  try {
    parts = &gpu_partitioning_for(model);
  } catch (const InputError& e) {
    fail_at(workload, path, e.what());
  }
  if (catalog_gpu_kind(model) < 0)
    fail_at(workload, path, fmt::format("the model catalog has no figures for GPU '{}'", model));
  c.static_ls_sms = parts->sms / 2 / parts->green_multiple_sms * parts->green_multiple_sms;
  if (const ConfigNode* s = f.optional("static_ls_sms")) {
    c.static_ls_sms = static_cast<int>(read_integer_in(*s, f.path_of("static_ls_sms"), 1, parts->sms));
    const int be_sms = (parts->sms - c.static_ls_sms) / parts->green_multiple_sms * parts->green_multiple_sms;
    try {
      check_green_context_groups(*parts, {c.static_ls_sms, be_sms});
    } catch (const PartitionRuleError& e) {
      fail_at(*s, f.path_of("static_ls_sms"), fmt::format("rule '{}': {}", e.rule(), e.what()));
    }
  }
  // Default MIG split: the largest 4g profile for LS at 0 and a 3g for BE at 4.
  for (const MigProfile& p : parts->profiles) {
    if (p.compute_slices == 4 && c.mig_ls_profile.empty()) c.mig_ls_profile = p.name;
    if (p.compute_slices == 3 && c.mig_be_profile.empty()) c.mig_be_profile = p.name;
  }
  const ConfigNode* mig = f.optional("mig");
  const ConfigNode* mig_ls = &workload;  // where a memory error points: the instance, or the workload for the default split
  const ConfigNode* mig_be = &workload;
  std::string mig_ls_path = path, mig_be_path = path;
  if (mig) {
    const MapFields mf(*mig, f.path_of("mig"), {"ls", "be"});
    mig_ls = &mf.required("ls");
    mig_be = &mf.required("be");
    mig_ls_path = mf.path_of("ls");
    mig_be_path = mf.path_of("be");
    read_mig_instance(*mig_ls, mig_ls_path, c.mig_ls_profile, c.mig_ls_start);
    read_mig_instance(*mig_be, mig_be_path, c.mig_be_profile, c.mig_be_start);
  }
  try {
    check_mig_layout(*parts, {{c.mig_ls_profile, c.mig_ls_start}, {c.mig_be_profile, c.mig_be_start}});
  } catch (const PartitionRuleError& e) {
    fail_at(mig ? *mig : workload, mig ? f.path_of("mig") : path, fmt::format("rule '{}': {}", e.rule(), e.what()));
  }
  if (std::find(c.policies.begin(), c.policies.end(), "mig") != c.policies.end()) {
    for (size_t i = 0; i < c.pairs.size(); ++i) {
      // The default split is located at the pair's tenant when pairs are listed.
      const bool at_pair = !mig && c.pairs_listed;
      check_mig_memory(*parts, at_pair ? *nodes[i].ls : *mig_ls, at_pair ? nodes[i].ls_path : mig_ls_path, "ls",
                       c.pairs[i].ls_model, c.mig_ls_profile, c.mig_ls_start);
      check_mig_memory(*parts, at_pair ? *nodes[i].be : *mig_be, at_pair ? nodes[i].be_path : mig_be_path, "be",
                       c.pairs[i].be_model, c.mig_be_profile, c.mig_be_start);
    }
  }
  if (const ConfigNode* p = f.optional("mps_be_percentage")) {
    c.mps_be_percentage = read_positive(*p, f.path_of("mps_be_percentage"));
    if (c.mps_be_percentage > 100) fail_at(*p, f.path_of("mps_be_percentage"), "'mps_be_percentage' must be in (0, 100]");
  }
  if (const ConfigNode* i = f.optional("interference")) {
    const MapFields fi(*i, f.path_of("interference"), {"l2_self", "l2_other", "dram_self", "dram_other", "constant"});
    const auto num = [&](std::string_view k, double& out) {
      if (const ConfigNode* n = fi.optional(k)) out = read_number(*n, fi.path_of(k));
    };
    num("l2_self", c.interference.l2_self);
    num("l2_other", c.interference.l2_other);
    num("dram_self", c.interference.dram_self);
    num("dram_other", c.interference.dram_other);
    num("constant", c.interference.constant);
  }
  c.trace_policy = c.policies.back();
  if (const ConfigNode* t = f.optional("trace_policy")) {
    c.trace_policy = read_string(*t, f.path_of("trace_policy"));
    bool listed = false;
    for (const std::string& p : c.policies) listed = listed || p == c.trace_policy;
    if (!listed) fail_at(*t, f.path_of("trace_policy"), fmt::format("'{}' is not among workload.policies", c.trace_policy));
  }
}

}  // namespace parallax
