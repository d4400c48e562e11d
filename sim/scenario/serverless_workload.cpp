// File: sim/scenario/serverless_workload.cpp
#include "sim/scenario/serverless_workload.h"

#include <filesystem>

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"
#include "sim/io/did_you_mean.h"
#include "sim/scenario/model_catalog_reader.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

namespace {

std::vector<std::string> read_list(const ConfigNode& node, const std::string& path) {
  std::vector<std::string> out = read_string_list(node, path);
  if (out.empty()) fail_at(node, path, fmt::format("'{}' must not be empty", path));
  return out;
}

}  // namespace

void read_serverless_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                              Scenario& scenario) {
  const MapFields f(workload, path, {"kind", "functions", "models", "trace", "duration_s", "policies", "reserve_GiB", "nodes", "closed_form"});
  ServerlessWorkloadSpec& s = scenario.serverless;
  s.functions = read_integer_in(f.required("functions"), f.path_of("functions"), 1, 1'000'000);
  const ConfigNode& models = f.required("models");
  s.models = read_list(models, f.path_of("models"));
  const ModelCatalog& catalog = embedded_model_catalog();
  const std::vector<std::string> names = catalog.names();
  for (size_t i = 0; i < s.models.size(); ++i)
    if (catalog.find(s.models[i]) == nullptr)
      fail_at(models.items[i], join_path(f.path_of("models"), i),
              fmt::format("unknown model '{}'{}", s.models[i], did_you_mean_suffix(s.models[i], names)));
  const MapFields t(f.required("trace"), f.path_of("trace"), {"format", "path", "minute_cv"});
  // Every arrival trace reader (sim/workload/trace_source.h); docs/workloads.md has the formats.
  s.trace_format = read_choice(t.required("format"), t.path_of("format"),
                               {"torpor", "torpor_rates", "azure2019", "azure2021", "azure_llm"});
  const std::string written = read_string(t.required("path"), t.path_of("path"));
  std::filesystem::path resolved(written);
  if (resolved.is_relative()) resolved = (context.base_dir / resolved).lexically_normal();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(resolved, ec))
    fail_at(t.required("path"), t.path_of("path"),
            fmt::format("'{}': cannot open '{}' (resolved to '{}')", t.path_of("path"), written, resolved.string()));
  s.trace_path = resolved.string();
  if (const ConfigNode* cv = t.optional("minute_cv")) s.minute_cv = read_positive(*cv, t.path_of("minute_cv"));
  if (const ConfigNode* d = f.optional("duration_s")) s.duration_s = read_number_in(*d, f.path_of("duration_s"), kHorizonRange);
  if (s.trace_format == "torpor_rates" && s.duration_s == 0)  // mean rates have no end of their own
    fail_at(t.required("format"), t.path_of("format"),
            fmt::format("'{}: torpor_rates' needs '{}' (how long to draw arrivals at those rates)", t.path_of("format"),
                        f.path_of("duration_s")));
  if (const ConfigNode* p = f.optional("policies")) {
    s.policies = read_list(*p, f.path_of("policies"));
    for (size_t i = 0; i < s.policies.size(); ++i)
      read_choice(p->items[i], join_path(f.path_of("policies"), i),
                  {"torpor", "torpor-lru", "torpor-fifo", "native", "keepalive", "naive"});
  }
  if (const ConfigNode* n = f.optional("nodes")) {
    s.nodes = read_integer_in(*n, f.path_of("nodes"), 1, 4096);
    if (s.nodes > 1)
      for (size_t i = 0; i < s.policies.size(); ++i)
        if (s.policies[i] == "native" || s.policies[i] == "keepalive")
          fail_at(f.required("policies").items[i], join_path(f.path_of("policies"), i),
                  fmt::format("policy '{}' runs on one node; with nodes: {} use the swap policies", s.policies[i], s.nodes));
  }
  if (const ConfigNode* c = f.optional("closed_form")) s.closed_form = read_bool(*c, f.path_of("closed_form"));
  if (const ConfigNode* r = f.optional("reserve_GiB")) {
    s.reserve_GiB = read_positive(*r, f.path_of("reserve_GiB"));
    // A pool larger than the GPU it sits on cannot be held: every placement would fail and every
    // request be dropped, a run that looks valid but measures nothing.
    int64_t smallest = 0;
    for (const auto& gpu : scenario.hardware.gpus)
      if (smallest == 0 || gpu.memory_bytes < smallest) smallest = gpu.memory_bytes;
    if (smallest > 0 && s.reserve_GiB * 1073741824.0 > static_cast<double>(smallest))
      fail_at(*r, f.path_of("reserve_GiB"),
              fmt::format("'{}' is {:g} GiB, more than a GPU of this machine holds ({:g} GiB)", f.path_of("reserve_GiB"),
                          s.reserve_GiB, static_cast<double>(smallest) / 1073741824.0));
  }
  if (catalog_gpu_kind(scenario.hardware.gpus.empty() ? "" : scenario.hardware.gpus[0].model) < 0)
    fail_at(workload, path, fmt::format("the model catalog has no compute times for GPU '{}'",
                                        scenario.hardware.gpus.empty() ? "" : scenario.hardware.gpus[0].model));
}

}  // namespace parallax
