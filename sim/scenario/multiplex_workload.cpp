// File: sim/scenario/multiplex_workload.cpp
#include "sim/scenario/multiplex_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "models/network_shapes.h"
#include "sim/platform/mig_memory.h"
#include "sim/scenario/arrival_spec_reader.h"
#include "sim/scenario/config_fields.h"
#include "sim/io/did_you_mean.h"
#include "sim/scenario/gpu_partitioning_reader.h"
#include "sim/io/input_error.h"
#include "sim/scenario/model_catalog_reader.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

namespace {


constexpr std::string_view kServiceKeys[] = {"name", "model", "max_batch", "timeout_ms", "slo_ms", "arrivals"};

MultiplexServiceSpec read_service(const ConfigNode& node, const std::string& path, const WorkloadContext& context) {
  const MapFields f(node, path, kServiceKeys);
  MultiplexServiceSpec s;
  const ConfigNode& model = f.required("model");
  s.model = read_string(model, f.path_of("model"));
  const ModelCatalog& catalog = embedded_model_catalog();
  if (catalog.find(s.model) == nullptr)
    fail_at(model, f.path_of("model"),
            fmt::format("unknown model '{}'{}", s.model, did_you_mean_suffix(s.model, catalog.names())));
  s.name = s.model;
  if (const ConfigNode* n = f.optional("name")) s.name = read_string(*n, f.path_of("name"));
  s.max_batch = static_cast<int>(read_integer_in(f.required("max_batch"), f.path_of("max_batch"), 1, 1024));
  s.timeout_s = read_number_in(f.required("timeout_ms"), f.path_of("timeout_ms"), kWaitSecondsRange, 1e-3);
  s.slo_s = read_number_in(f.required("slo_ms"), f.path_of("slo_ms"), kSloSecondsRange, 1e-3);
  s.arrivals = read_arrival_process_spec(f.required("arrivals"), f.path_of("arrivals"), context);
  s.weight_bytes = static_cast<double>(catalog.find(s.model)->param_bytes());
  return s;
}

constexpr double kGiB = 1024.0 * 1024 * 1024;

// The services' weights against the GPU's memory (docs/multiplex.md, Memory): all of them at once
// under the whole-GPU policies, each in the largest MIG instance under mig (the layout search then
// gives a service only instances its weights fit in).
void check_memory(const ConfigNode& services, const std::string& services_path, const MultiplexWorkloadSpec& w,
                  const GpuSpec& gpu, const GpuPartitioning& parts) {
  const auto listed = [&](const char* p) { return std::find(w.policies.begin(), w.policies.end(), p) != w.policies.end(); };
  const auto describe = [](const MultiplexServiceSpec& s) {
    return weights_needed(fmt::format("service '{}' ({})", s.name, s.model), s.weight_bytes);
  };
  if (listed("mig") || listed("dynamic_mig")) {
    const MigProfile& largest = largest_memory_profile(parts);
    for (size_t i = 0; i < w.services.size(); ++i)
      if (!weights_fit(w.services[i].weight_bytes, largest))
        fail_at(services.items[i], join_path(services_path, i),
                fmt::format("{}, more than the largest MIG instance of a {} ({}: {:.3g} GiB, {} bytes)",
                            describe(w.services[i]), parts.name, largest.name, largest.memory_GiB,
                            mig_profile_memory_bytes(largest)));
  }
  if (listed("timeslice") || listed("mps") || listed("elastic")) {
    double total = 0;
    for (const MultiplexServiceSpec& s : w.services) total += s.weight_bytes;
    if (gpu.memory_bytes > 0 && total > static_cast<double>(gpu.memory_bytes))
      fail_at(services, services_path,
              fmt::format("the services' weights need {:.3g} GiB together, more than the {}'s {:.3g} GiB (largest: {})",
                          total / kGiB, gpu.model, static_cast<double>(gpu.memory_bytes) / kGiB,
                          describe(*std::max_element(w.services.begin(), w.services.end(), [](const auto& a, const auto& b) {
                            return a.weight_bytes < b.weight_bytes;
                          }))));
  }
}

// max_load_search: {enabled, lo, hi, tolerance}, each optional; lo < hi.
void read_max_load_search(const ConfigNode& node, const std::string& path, MultiplexWorkloadSpec& w) {
  const MapFields f(node, path, {"enabled", "lo", "hi", "tolerance"});
  w.max_load_search = true;
  if (const ConfigNode* e = f.optional("enabled")) w.max_load_search = read_bool(*e, f.path_of("enabled"));
  if (const ConfigNode* v = f.optional("lo")) w.max_load_lo = read_positive(*v, f.path_of("lo"));
  if (const ConfigNode* v = f.optional("hi")) w.max_load_hi = read_positive(*v, f.path_of("hi"));
  if (const ConfigNode* v = f.optional("tolerance")) w.max_load_tolerance = read_positive(*v, f.path_of("tolerance"));
  if (w.max_load_hi > 64) fail_at(*f.optional("hi"), f.path_of("hi"), fmt::format("'{}' must be at most 64 (times the offered load)", f.path_of("hi")));
  if (w.max_load_lo >= w.max_load_hi)
    fail_at(node, path, fmt::format("'{}': lo ({:g}) must be below hi ({:g})", path, w.max_load_lo, w.max_load_hi));
  if (w.max_load_tolerance >= w.max_load_hi - w.max_load_lo)
    fail_at(node, path, fmt::format("'{}': tolerance ({:g}) must be below hi - lo ({:g})", path, w.max_load_tolerance,
                                    w.max_load_hi - w.max_load_lo));
}

}  // namespace

void read_multiplex_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                             Scenario& scenario) {
  const MapFields f(workload, path,
                    {"kind", "duration_s", "services", "policies", "trace_policy", "elastic_resize_cost_us",
                     "timeslice_switch_cost_us", "mig_reconfig_cost_ms", "mig_sizing",
                     "mig_peak_window_ms", "mig_peak_percentile", "slo_target", "max_load_search"});
  MultiplexWorkloadSpec& w = scenario.multiplex;
  w.duration_s = read_number_in(f.required("duration_s"), f.path_of("duration_s"), kHorizonRange);
  const ConfigNode& services = f.required("services");
  const std::string services_path = f.path_of("services");
  if (services.kind != ConfigNode::Kind::sequence || services.items.empty())
    fail_at(services, services_path, fmt::format("'{}' must be a non-empty list of services", services_path));
  for (size_t i = 0; i < services.items.size(); ++i) {
    w.services.push_back(read_service(services.items[i], join_path(services_path, i), context));
    for (size_t j = 0; j < i; ++j)
      if (w.services[j].name == w.services[i].name)
        fail_at(services.items[i], join_path(services_path, i),
                fmt::format("service name '{}' is used twice", w.services[i].name));
  }
  // Each value's own range first (above, for every service), then what the values give together.
  for (size_t i = 0; i < services.items.size(); ++i) {
    const MapFields service(services.items[i], join_path(services_path, i), kServiceKeys);
    check_arrival_draws(service.required("arrivals"), service.path_of("arrivals"), w.services[i].arrivals, w.duration_s);
  }
  const ConfigNode& policies = f.required("policies");
  w.policies = read_string_list(policies, f.path_of("policies"));
  if (w.policies.empty()) fail_at(policies, f.path_of("policies"), "'workload.policies' must not be empty");
  for (size_t i = 0; i < w.policies.size(); ++i)
    read_choice(policies.items[i], join_path(f.path_of("policies"), i), {"timeslice", "mps", "mig", "dynamic_mig", "elastic"});
  if (scenario.hardware.gpus.empty()) fail_at(workload, path, "the multiplex workload needs one GPU");
  const std::string& model = scenario.hardware.gpus[0].model;
  try {
    const GpuPartitioning& parts = gpu_partitioning_for(model);
    if (static_cast<int>(w.services.size()) > parts.mig_max_instances)
      fail_at(services, services_path,
              fmt::format("{} services, but MIG on a {} holds at most {} instances", w.services.size(), parts.name,
                          parts.mig_max_instances));
  } catch (const InputError& e) {
    fail_at(workload, path, e.what());
  }
  check_memory(services, services_path, w, scenario.hardware.gpus[0], gpu_partitioning_for(model));
  if (catalog_gpu_kind(model) < 0)
    fail_at(workload, path, fmt::format("the model catalog has no figures for GPU '{}'", model));
  if (const ConfigNode* c = f.optional("elastic_resize_cost_us")) {
    w.elastic_resize_cost_s = read_number_in(*c, f.path_of("elastic_resize_cost_us"), kDelaySecondsRange, 1e-6);
    // Elastic shares change before every kernel, so a batch can wait once per kernel of its model:
    // counted as one resize per kernel of every request (twice the expected arrivals + 100, each
    // batch launching its model's kernels once), the costs must fit the run with the horizon.
    double resizes = 0;
    for (const MultiplexServiceSpec& s : w.services)
      resizes += (2 * expected_arrivals(s.arrivals, w.duration_s) + 100) *
                 static_cast<double>(network_shape(s.model, 1).ops.size());
    if (w.duration_s + resizes * w.elastic_resize_cost_s > kMaxRunSeconds)
      fail_at(*c, f.path_of("elastic_resize_cost_us"),
              fmt::format("'{}': {} us per resize over up to {:.3g} kernel launches (one per kernel of twice the expected "
                          "arrivals) could add {:.3g} s to the run, past the {:g} s a run may span (the clock is int64 "
                          "picoseconds)",
                          f.path_of("elastic_resize_cost_us"), c->scalar, resizes, resizes * w.elastic_resize_cost_s,
                          kMaxRunSeconds));
  }
  if (const ConfigNode* c = f.optional("timeslice_switch_cost_us")) {
    w.timeslice_switch_cost_s = read_number_in(*c, f.path_of("timeslice_switch_cost_us"), kDelaySecondsRange, 1e-6);
    // At most one switch per batch: as for the resize cost, the switches must fit the run.
    double requests = 0;
    for (const MultiplexServiceSpec& s : w.services) requests += 2 * expected_arrivals(s.arrivals, w.duration_s) + 100;
    if (w.duration_s + requests * w.timeslice_switch_cost_s > kMaxRunSeconds)
      fail_at(*c, f.path_of("timeslice_switch_cost_us"),
              fmt::format("'{}': {} us per switch over up to {:.3g} requests could add {:.3g} s to the run, past the "
                          "{:g} s a run may span",
                          f.path_of("timeslice_switch_cost_us"), c->scalar, requests,
                          requests * w.timeslice_switch_cost_s, kMaxRunSeconds));
  }
  // At most one re-cut per 10 × cost (dynamic_mig_multiplex.h): the costs never outgrow the run.
  if (const ConfigNode* c = f.optional("mig_reconfig_cost_ms"))
    w.mig_reconfig_cost_s = read_number_in(*c, f.path_of("mig_reconfig_cost_ms"), kSloSecondsRange, 1e-3);
  if (const ConfigNode* m = f.optional("mig_sizing")) w.mig_sizing = read_choice(*m, f.path_of("mig_sizing"), {"mean", "peak"});
  if (const ConfigNode* m = f.optional("mig_peak_window_ms"))
    w.mig_peak_window_s = read_number_in(*m, f.path_of("mig_peak_window_ms"), kSloSecondsRange, 1e-3);
  if (const ConfigNode* m = f.optional("mig_peak_percentile")) {
    w.mig_peak_percentile = read_positive(*m, f.path_of("mig_peak_percentile"));
    if (w.mig_peak_percentile > 100)
      fail_at(*m, f.path_of("mig_peak_percentile"), "'workload.mig_peak_percentile' must be in (0, 100]");
  }
  if (const ConfigNode* t = f.optional("slo_target")) {
    w.slo_target = read_positive(*t, f.path_of("slo_target"));
    if (w.slo_target > 1) fail_at(*t, f.path_of("slo_target"), "'workload.slo_target' must be in (0, 1]");
  }
  if (const ConfigNode* m = f.optional("max_load_search")) {
    read_max_load_search(*m, f.path_of("max_load_search"), w);
    // The search's top probe draws every process over hi times the duration (then compressed).
    for (size_t i = 0; w.max_load_search && i < services.items.size(); ++i) {
      const MapFields service(services.items[i], join_path(services_path, i), kServiceKeys);
      check_arrival_draws(service.required("arrivals"), service.path_of("arrivals"), w.services[i].arrivals,
                          w.duration_s * w.max_load_hi);
    }
  }
  w.trace_policy = w.policies.back();
  if (const ConfigNode* t = f.optional("trace_policy")) {
    w.trace_policy = read_string(*t, f.path_of("trace_policy"));
    bool listed = false;
    for (const std::string& p : w.policies) listed = listed || p == w.trace_policy;
    if (!listed) fail_at(*t, f.path_of("trace_policy"), fmt::format("'{}' is not among workload.policies", w.trace_policy));
  }
}

}  // namespace parallax
