// File: tools/serverless_trace.cpp
#include "tools/serverless_trace.h"

#include <fmt/format.h>

#include <algorithm>

namespace parallax {

ChromeTraceStats write_serverless_trace(const std::filesystem::path& path, std::span<const ServerlessNode* const> nodes,
                                        const std::string& gpu_model) {
  ActivityLog log;
  TraceAnnotations notes;
  const int gpus = static_cast<int>(nodes.front()->pool_samples().size());
  log.gpu_models.assign(static_cast<size_t>(gpus) * nodes.size(), gpu_model);
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
  return write_chrome_trace_file(path, log, {}, notes);
}

}  // namespace parallax
