// File: sim/scenario/gpu_partitioning_reader.cpp
#include "sim/scenario/gpu_partitioning_reader.h"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/config_tree.h"
#include "sim/scenario/embedded_config_tree.h"

namespace parallax {

namespace {

int read_int(const MapFields& f, std::string_view key, int lo, int hi) {
  return static_cast<int>(read_integer_in(f.required(key), f.path_of(key), lo, hi));
}

MigProfile read_profile(const ConfigNode& node, const std::string& path, const GpuPartitioning& g) {
  const MapFields f(node, path,
                    {"name", "compute_slices", "memory_slices", "sms", "memory_GiB", "max_instances", "starts"});
  MigProfile p;
  p.name = read_string(f.required("name"), f.path_of("name"));
  p.compute_slices = read_int(f, "compute_slices", 1, g.mig_compute_slices);
  p.memory_slices = read_int(f, "memory_slices", 1, g.mig_memory_slices);
  p.sms = read_int(f, "sms", 1, g.sms);
  p.memory_GiB = read_positive(f.required("memory_GiB"), f.path_of("memory_GiB"));
  p.max_instances = read_int(f, "max_instances", 1, g.mig_max_instances);
  const ConfigNode& starts = f.required("starts");
  if (starts.kind != ConfigNode::Kind::sequence || starts.items.empty())
    fail_at(starts, f.path_of("starts"), fmt::format("'{}' must be a non-empty list", f.path_of("starts")));
  for (size_t i = 0; i < starts.items.size(); ++i)
    p.starts.push_back(static_cast<int>(read_integer_in(starts.items[i], join_path(f.path_of("starts"), i), 0,
                                                        g.mig_memory_slices - p.memory_slices)));
  return p;
}

GpuPartitioning read_gpu_partitioning(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path,
                    {"name", "models", "sms", "sms_per_tpc", "green_context", "channel_colours", "mig", "sources"});
  GpuPartitioning g;
  g.name = read_string(f.required("name"), f.path_of("name"));
  g.models = read_string_list(f.required("models"), f.path_of("models"));
  g.sms = read_int(f, "sms", 1, 100'000);
  g.sms_per_tpc = read_int(f, "sms_per_tpc", 1, 16);
  const MapFields gc(f.required("green_context"), f.path_of("green_context"), {"min_sms", "multiple_sms"});
  g.green_min_sms = read_int(gc, "min_sms", 1, g.sms);
  g.green_multiple_sms = read_int(gc, "multiple_sms", 1, g.sms);
  g.channel_colours = read_int(f, "channel_colours", 1, 4096);
  const MapFields mig(f.required("mig"), f.path_of("mig"),
                      {"compute_slices", "memory_slices", "max_instances", "profiles"});
  g.mig_compute_slices = read_int(mig, "compute_slices", 1, 64);
  g.mig_memory_slices = read_int(mig, "memory_slices", 1, 64);
  g.mig_max_instances = read_int(mig, "max_instances", 1, 64);
  const ConfigNode& profiles = mig.required("profiles");
  if (profiles.kind != ConfigNode::Kind::sequence)
    fail_at(profiles, mig.path_of("profiles"), fmt::format("'{}' must be a list", mig.path_of("profiles")));
  for (size_t i = 0; i < profiles.items.size(); ++i) {
    MigProfile p = read_profile(profiles.items[i], join_path(mig.path_of("profiles"), i), g);
    if (g.find_profile(p.name) != nullptr)
      fail_at(profiles.items[i], join_path(mig.path_of("profiles"), i), fmt::format("profile '{}' listed twice", p.name));
    g.profiles.push_back(std::move(p));
  }
  const MapFields src(f.required("sources"), f.path_of("sources"), {"mig", "green_context", "channel_colours"});
  for (std::string_view k : {"mig", "green_context", "channel_colours"}) read_string(src.required(k), src.path_of(k));
  return g;
}

// Every GPU of a parsed partitioning file.
std::vector<GpuPartitioning> read_partitioning_tree(const ConfigNode& root) {
  const MapFields f(root, "", {"gpus"});
  const ConfigNode& list = f.required("gpus");
  if (list.kind != ConfigNode::Kind::sequence) fail_at(list, "gpus", "'gpus' must be a list");
  std::vector<GpuPartitioning> out;
  for (size_t i = 0; i < list.items.size(); ++i) out.push_back(read_gpu_partitioning(list.items[i], join_path("gpus", i)));
  return out;
}

}  // namespace

std::vector<GpuPartitioning> read_gpu_partitioning(std::string_view yaml, const std::string& file) {
  return read_partitioning_tree(parse_config_tree(yaml, file));
}

const std::vector<GpuPartitioning>& embedded_gpu_partitioning() {
  static const std::vector<GpuPartitioning> all = [] {
    // Parsed at build time (embedded_config_tree.h).
    const std::optional<ConfigNode> tree = embedded_config_tree(kEmbeddedPartitioningPath);
    if (!tree) throw std::logic_error("scenarios/partitioning/gpu-partitioning.yaml is not compiled in");
    return read_partitioning_tree(*tree);
  }();
  return all;
}

const GpuPartitioning& gpu_partitioning_for(std::string_view gpu_model) {
  std::vector<std::string> known;
  for (const GpuPartitioning& g : embedded_gpu_partitioning())
    for (const std::string& m : g.models) {
      if (m == gpu_model) return g;
      known.push_back(m);
    }
  throw InputError({}, "hardware.gpu.model",
                   fmt::format("no partitioning data (MIG profiles, green-context granularity) for GPU '{}'; known: {}",
                               gpu_model, fmt::join(known, ", ")));
}

}  // namespace parallax
