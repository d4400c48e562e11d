// File: sim/experiment/serverless_trace.cpp
#include "sim/experiment/serverless_trace.h"

#include <fmt/format.h>

#include <algorithm>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"

namespace parallax {

ChromeTraceStats write_serverless_trace(std::ostream& out, std::span<const ServerlessNode* const> nodes,
                                        const HardwareSpec& hardware, const std::string& policy,
                                        const ChromeTraceOptions& options) {
  ActivityLog log;
  TraceAnnotations notes;
  const int gpus = static_cast<int>(nodes.front()->pool_samples().size());
  // The link directions and routes of one node, from the platform every node is a copy of; node
  // n's directions follow node n-1's, named "node<n> ..." when there are several nodes.
  Engine engine;
  ActivityLog one_node;
  SimPlatform platform(engine, hardware, &one_node);
  Topology& topo = platform.topology();
  const size_t per_node = one_node.link_directions.size();
  for (size_t n = 0; n < nodes.size(); ++n)
    for (const LinkDirectionInfo& d : one_node.link_directions)
      log.link_directions.push_back(
          {nodes.size() > 1 ? fmt::format("node{} {}", n, d.name) : d.name, d.link_kind, d.bandwidth_Bps});
  log.gpu_models.assign(static_cast<size_t>(gpus) * nodes.size(), hardware.gpus.at(0).model);
  for (size_t n = 0; n < nodes.size(); ++n) {
    const ServerlessNode& node = *nodes[n];
    const int base = static_cast<int>(n) * gpus;
    for (const RequestRecord& r : node.requests()) {
      if (r.state != RequestState::finished) continue;
      const std::string gpu = fmt::format("gpu{}", base + r.gpu);
      const ServedFunction& f = node.functions()[r.function];
      const std::string& model = node.models()[f.model].name;
      const char* path_name = r.swap == SwapSource::host ? "pcie" : r.swap == SwapSource::peer ? "nvlink" : "local";
      if (r.swap != SwapSource::none) {
        ActivityRecord c;
        c.kind = ActivityKind::copy;
        c.name = fmt::format("load {} {}", f.name, model);
        c.src = r.swap == SwapSource::host ? std::string("host0") : fmt::format("gpu{}", base + r.source);
        c.dst = gpu;
        c.issued = c.start = r.dispatch;
        c.end = r.loaded;
        c.bytes = static_cast<double>(node.models()[f.model].param_bytes);
        const int from = r.swap == SwapSource::host ? topo.host_node(0) : topo.gpu_node(r.source);
        for (uint32_t d : topo.route(from, topo.gpu_node(r.gpu)).directions)
          c.links.push_back(static_cast<int>(n * per_node + d));
        log.records.push_back(std::move(c));
      }
      ActivityRecord k;
      k.kind = ActivityKind::kernel;
      k.name = fmt::format("{} {} {}", f.name, model, path_name);
      k.src = k.dst = gpu;
      k.issued = k.start = r.dispatch;
      k.end = r.finish;
      log.records.push_back(std::move(k));
    }
    for (int g = 0; g < gpus; ++g) {
      const std::string gpu = fmt::format("gpu{}", base + g);
      TraceCounter memory{gpu, "model memory", "GB", {}}, evictions{gpu, "evictions", "models", {}};
      for (const PoolSample& p : node.pool_samples()[static_cast<size_t>(g)]) {
        memory.samples.push_back({p.at, static_cast<double>(p.used_bytes) / 1e9});
        evictions.samples.push_back({p.at, static_cast<double>(p.evictions)});
      }
      notes.counters.push_back(std::move(memory));
      notes.counters.push_back(std::move(evictions));
    }
  }
  // Ids in start order (copies before the kernel of the same request at equal starts).
  std::stable_sort(log.records.begin(), log.records.end(),
                   [](const ActivityRecord& a, const ActivityRecord& b) { return a.start < b.start; });
  for (size_t i = 0; i < log.records.size(); ++i) log.records[i].id = i + 1;
  TracePhase phase{"policy " + policy, Time::zero(), Time::zero()};
  for (const ActivityRecord& r : log.records) phase.end = std::max(phase.end, r.end);
  notes.phases.push_back(std::move(phase));
  return write_chrome_trace(out, log, options, notes);
}

}  // namespace parallax
