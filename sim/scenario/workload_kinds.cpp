// File: sim/scenario/workload_kinds.cpp
#include "sim/scenario/workload_kinds.h"

#include <array>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/chakra_workload.h"
#include "sim/scenario/cluster_packing_workload.h"
#include "sim/scenario/colocate_workload.h"
#include "sim/scenario/config_fields.h"
#include "sim/io/did_you_mean.h"
#include "sim/scenario/multiplex_workload.h"
#include "sim/scenario/overlap_workload.h"
#include "sim/scenario/schema_recorder.h"
#include "sim/scenario/serverless_workload.h"
#include "sim/scenario/training_workload.h"
#include "sim/scenario/transfer_workload.h"

namespace parallax {

namespace {

struct WorkloadKind {
  std::string_view name;
  WorkloadReader read;
};

constexpr std::array<WorkloadKind, 8> kKinds{{
    {"transfers", read_transfer_workload},
    {"overlap", read_overlap_workload},
    {"serverless", read_serverless_workload},
    {"colocate", read_colocate_workload},
    {"multiplex", read_multiplex_workload},
    {"cluster_packing", read_cluster_packing_workload},
    {"training", read_training_workload},
    {"chakra", read_chakra_workload},
}};

}  // namespace

std::span<const std::string_view> workload_kind_names() {
  static const std::array<std::string_view, kKinds.size()> names = [] {
    std::array<std::string_view, kKinds.size()> out{};
    for (size_t i = 0; i < kKinds.size(); ++i) out[i] = kKinds[i].name;
    return out;
  }();
  return names;
}

WorkloadReader workload_reader(std::string_view kind) {
  for (const WorkloadKind& k : kKinds)
    if (k.name == kind) return k.read;
  return nullptr;
}

void read_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                   Scenario& scenario) {
  expect_map(workload, path);
  const ConfigEntry* kind = find_entry(workload, "kind");
  const std::string kind_path = join_path(path, "kind");
  if (kind == nullptr) fail_at(workload, kind_path, fmt::format("missing required key '{}'", kind_path));
  if (SchemaRecorder* r = active_schema_recorder(); r != nullptr && kind->value.kind == ConfigNode::Kind::scalar)
    r->workload_kind(kind->value.scalar);  // docs/scenario-reference.md: one table per kind
  const std::string name = read_string(kind->value, kind_path);
  for (const WorkloadKind& k : kKinds) {
    if (k.name != name) continue;
    scenario.workload_kind = name;
    k.read(workload, path, context, scenario);
    return;
  }
  fail_at(kind->value, kind_path,
          fmt::format("unknown workload kind '{}'{}; kinds: {}", name, did_you_mean_suffix(name, workload_kind_names()),
                      fmt::join(workload_kind_names(), ", ")));
}

}  // namespace parallax
