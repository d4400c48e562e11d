// File: sim/scenario/model_catalog_reader.cpp
#include "sim/scenario/model_catalog_reader.h"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/io/did_you_mean.h"
#include "sim/scenario/config_fields.h"
#include "sim/scenario/config_tree.h"
#include "sim/scenario/embedded_config_tree.h"

namespace parallax {

namespace {

constexpr size_t kGpuKinds = kCatalogGpuKinds.size();

int kind_index(const ConfigEntry& e, const std::string& path) {
  for (size_t k = 0; k < kGpuKinds; ++k)
    if (e.key == kCatalogGpuKinds[k]) return static_cast<int>(k);
  ConfigNode at;
  at.where = e.key_where;
  fail_at(at, join_path(path, e.key),
          fmt::format("unknown GPU kind '{}'{}; kinds: V100, A100, H100, H200", e.key,
                      did_you_mean_suffix(e.key, std::span<const std::string_view>(kCatalogGpuKinds))));
}

// Per-kind numbers in ms: {V100: 17}; 0 for a kind left out.
std::array<double, kGpuKinds> read_per_kind_ms(const ConfigNode& node, const std::string& path) {
  expect_map(node, path);
  std::array<double, kGpuKinds> out{};
  for (const ConfigEntry& e : node.entries) {
    const auto k = static_cast<size_t>(kind_index(e, path));
    out[k] = read_positive(e.value, join_path(path, e.key)) * 1e-3;
  }
  return out;
}

void read_layers(const ConfigNode& node, const std::string& path, int dtype_bytes, CatalogModel& m) {
  if (node.kind != ConfigNode::Kind::sequence || node.items.empty())
    fail_at(node, path, fmt::format("'{}' must be a non-empty list", path));
  for (size_t i = 0; i < node.items.size(); ++i) {
    const std::string p = join_path(path, i);
    const MapFields f(node.items[i], p, {"name", "params", "gmacs", "repeat", "unused"});
    const std::string name = read_string(f.required("name"), f.path_of("name"));
    const int64_t params = read_integer_in(f.required("params"), f.path_of("params"), 0, int64_t{1} << 40);
    const double gmacs = read_non_negative(f.required("gmacs"), f.path_of("gmacs"));
    int64_t repeat = 1;
    if (const ConfigNode* r = f.optional("repeat")) repeat = read_integer_in(*r, f.path_of("repeat"), 1, 1000);
    const bool unused = f.optional("unused") != nullptr && read_bool(*f.optional("unused"), f.path_of("unused"));
    if (unused && gmacs > 0) fail_at(f.node(), p, fmt::format("'{}' is unused but has gmacs", p));
    for (int64_t r = 0; r < repeat; ++r) {
      CatalogLayer l;
      l.name = repeat == 1 ? name : fmt::format("{}.{}", name, r);
      l.param_bytes = params * dtype_bytes;
      l.flops = 2e9 * gmacs;
      l.unused = unused;
      m.layers.push_back(std::move(l));
    }
  }
}

// Required source keys for the figures present; unknown keys are errors.
void check_sources(const MapFields& f, const ConfigNode& sources, const std::string& path, CatalogModel& m) {
  expect_map(sources, path);
  std::set<std::string> needed{"layers", "slo_ms", "native_footprint_GB", "heaviness"};
  if (m.cold_start_s > 0) needed.insert("cold_start_s");
  for (size_t k = 0; k < kGpuKinds; ++k) {
    if (m.measured_s[k] > 0) needed.insert(fmt::format("measured_ms.{}", kCatalogGpuKinds[k]));
    if (m.native_s[k] > 0) needed.insert(fmt::format("native_ms.{}", kCatalogGpuKinds[k]));
  }
  for (const ConfigEntry& e : sources.entries) {
    if (needed.count(e.key) == 0) {
      ConfigNode at;
      at.where = e.key_where;
      fail_at(at, join_path(path, e.key), fmt::format("'{}' names no figure of this model", join_path(path, e.key)));
    }
    m.sources[e.key] = read_string(e.value, join_path(path, e.key));
  }
  for (const std::string& key : needed)
    if (m.sources.count(key) == 0)
      fail_at(f.node(), path, fmt::format("'{}' lacks an entry for '{}'", path, key));
}

CatalogModel read_model(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"name", "heaviness", "dtype", "input", "slo_ms", "native_footprint_GB",
                                 "measured_ms", "native_ms", "cold_start_s", "sources", "layers"});
  CatalogModel m;
  m.name = read_string(f.required("name"), f.path_of("name"));
  const std::string h = read_choice(f.required("heaviness"), f.path_of("heaviness"), {"light", "median", "heavy"});
  m.heaviness = h == "light" ? Heaviness::light : h == "median" ? Heaviness::median : Heaviness::heavy;
  m.dtype_bytes = read_choice(f.required("dtype"), f.path_of("dtype"), {"fp32", "fp16"}) == "fp16" ? 2 : 4;
  m.input = read_string(f.required("input"), f.path_of("input"));
  m.slo_s = read_positive(f.required("slo_ms"), f.path_of("slo_ms")) * 1e-3;
  m.native_footprint_bytes = static_cast<int64_t>(
      read_positive(f.required("native_footprint_GB"), f.path_of("native_footprint_GB")) * 1e9);
  if (const ConfigNode* n = f.optional("cold_start_s")) m.cold_start_s = read_positive(*n, f.path_of("cold_start_s"));
  if (const ConfigNode* n = f.optional("measured_ms")) m.measured_s = read_per_kind_ms(*n, f.path_of("measured_ms"));
  if (const ConfigNode* n = f.optional("native_ms")) m.native_s = read_per_kind_ms(*n, f.path_of("native_ms"));
  read_layers(f.required("layers"), f.path_of("layers"), m.dtype_bytes, m);
  if (m.param_bytes() <= 0) fail_at(f.required("layers"), f.path_of("layers"), fmt::format("'{}' has no parameters", path));
  check_sources(f, f.required("sources"), f.path_of("sources"), m);
  return m;
}

// The catalog in a parsed file (`file` names it in the catalog).
ModelCatalog read_catalog_tree(const ConfigNode& root, const std::string& file) {
  const MapFields f(root, "", {"models"});
  const ConfigNode& list = f.required("models");
  if (list.kind != ConfigNode::Kind::sequence) fail_at(list, "models", "'models' must be a list");
  ModelCatalog catalog;
  catalog.file = file;
  for (size_t i = 0; i < list.items.size(); ++i) {
    CatalogModel m = read_model(list.items[i], join_path("models", i));
    if (catalog.find(m.name) != nullptr)
      fail_at(list.items[i], join_path("models", i), fmt::format("model '{}' is listed twice", m.name));
    catalog.models.push_back(std::move(m));
  }
  return catalog;
}

}  // namespace

ModelCatalog read_model_catalog(std::string_view yaml, const std::string& file) {
  return read_catalog_tree(parse_config_tree(yaml, file), file);
}

ModelCatalog load_model_catalog_file(const std::string& path) {
  return read_model_catalog(read_input_text(path), path);
}

const ModelCatalog& embedded_model_catalog() {
  static const ModelCatalog catalog = [] {
    // Parsed at build time (embedded_config_tree.h): 18 kB of YAML not scanned by every run.
    const std::optional<ConfigNode> tree = embedded_config_tree(kEmbeddedCatalogPath);
    if (!tree) throw std::logic_error("scenarios/models/catalog.yaml is not compiled in");
    return read_catalog_tree(*tree, std::string(kEmbeddedCatalogPath));
  }();
  return catalog;
}

}  // namespace parallax
