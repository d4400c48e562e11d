// File: sim/scenario/model_catalog_reader.cpp
#include "sim/scenario/model_catalog_reader.h"

#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/layer_roofline.h"
#include "sim/io/did_you_mean.h"
#include "sim/scenario/config_fields.h"
#include "sim/scenario/config_tree.h"
#include "sim/scenario/embedded_config_tree.h"

namespace parallax {

namespace {

constexpr size_t kGpuKinds = kCatalogGpuKinds.size();

struct GpuFigures {
  double fp32_flops = 0, fp16_flops = 0, hbm_Bps = 0;
};

struct Derivation {
  double eta_compute = 0.75, eta_memory = 0.8, overhead_s = 5e-6;
};

int kind_index(const ConfigEntry& e, const std::string& path) {
  for (size_t k = 0; k < kGpuKinds; ++k)
    if (e.key == kCatalogGpuKinds[k]) return static_cast<int>(k);
  ConfigNode at;
  at.where = e.key_where;
  fail_at(at, join_path(path, e.key),
          fmt::format("unknown GPU kind '{}'{}; kinds: V100, A100, H100, H200", e.key,
                      did_you_mean_suffix(e.key, std::span<const std::string_view>(kCatalogGpuKinds))));
}

std::array<GpuFigures, kGpuKinds> read_gpus(const ConfigNode& node, const std::string& path) {
  expect_map(node, path);
  std::array<GpuFigures, kGpuKinds> out{};
  std::array<bool, kGpuKinds> seen{};
  for (const ConfigEntry& e : node.entries) {
    const int k = kind_index(e, path);
    const MapFields f(e.value, join_path(path, e.key), {"fp32_tflops", "fp16_tflops", "hbm_GBps", "source"});
    out[static_cast<size_t>(k)] = {read_positive(f.required("fp32_tflops"), f.path_of("fp32_tflops")) * 1e12,
                                   read_positive(f.required("fp16_tflops"), f.path_of("fp16_tflops")) * 1e12,
                                   read_positive(f.required("hbm_GBps"), f.path_of("hbm_GBps")) * 1e9};
    read_string(f.required("source"), f.path_of("source"));
    seen[static_cast<size_t>(k)] = true;
  }
  for (size_t k = 0; k < kGpuKinds; ++k)
    if (!seen[k]) fail_at(node, path, fmt::format("'{}' lacks GPU kind '{}'", path, kCatalogGpuKinds[k]));
  return out;
}

Derivation read_derivation(const ConfigNode& node, const std::string& path) {
  const MapFields f(node, path, {"eta_compute", "eta_memory", "overhead_us", "source"});
  Derivation d;
  d.eta_compute = read_positive(f.required("eta_compute"), f.path_of("eta_compute"));
  d.eta_memory = read_positive(f.required("eta_memory"), f.path_of("eta_memory"));
  d.overhead_s = read_non_negative(f.required("overhead_us"), f.path_of("overhead_us")) * 1e-6;
  read_string(f.required("source"), f.path_of("source"));
  return d;
}

// Per-kind numbers in ms: {V100: 17}. Marks `present`.
std::array<double, kGpuKinds> read_per_kind_ms(const ConfigNode& node, const std::string& path,
                                            std::array<bool, kGpuKinds>& present) {
  expect_map(node, path);
  std::array<double, kGpuKinds> out{};
  for (const ConfigEntry& e : node.entries) {
    const auto k = static_cast<size_t>(kind_index(e, path));
    out[k] = read_positive(e.value, join_path(path, e.key)) * 1e-3;
    present[k] = true;
  }
  return out;
}

void read_layers(const ConfigNode& node, const std::string& path, int dtype_bytes, CatalogModel& m) {
  if (node.kind != ConfigNode::Kind::sequence || node.items.empty())
    fail_at(node, path, fmt::format("'{}' must be a non-empty list", path));
  for (size_t i = 0; i < node.items.size(); ++i) {
    const std::string p = join_path(path, i);
    const MapFields f(node.items[i], p, {"name", "params", "gmacs", "repeat"});
    const std::string name = read_string(f.required("name"), f.path_of("name"));
    const int64_t params = read_integer_in(f.required("params"), f.path_of("params"), 0, int64_t{1} << 40);
    const double gmacs = read_non_negative(f.required("gmacs"), f.path_of("gmacs"));
    int64_t repeat = 1;
    if (const ConfigNode* r = f.optional("repeat")) repeat = read_integer_in(*r, f.path_of("repeat"), 1, 1000);
    for (int64_t r = 0; r < repeat; ++r) {
      CatalogLayer l;
      l.name = repeat == 1 ? name : fmt::format("{}.{}", name, r);
      l.param_bytes = params * dtype_bytes;
      l.flops = 2e9 * gmacs;
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
    if (m.measured[k]) needed.insert(fmt::format("measured_ms.{}", kCatalogGpuKinds[k]));
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

void fill_compute(CatalogModel& m, const std::array<double, kGpuKinds>& measured_s,
                  const std::array<GpuFigures, kGpuKinds>& gpus, const Derivation& d) {
  const double total_flops = m.flops();
  for (size_t k = 0; k < kGpuKinds; ++k) {
    for (CatalogLayer& l : m.layers) {
      if (m.measured[k]) {
        l.compute_s[k] = total_flops > 0 ? measured_s[k] * l.flops / total_flops
                                         : measured_s[k] / static_cast<double>(m.layers.size());
      } else {
        const double peak = m.dtype_bytes == 2 ? gpus[k].fp16_flops : gpus[k].fp32_flops;
        l.compute_s[k] = models::layer_roofline_time_s(l.flops, static_cast<double>(l.param_bytes), peak,
                                                       gpus[k].hbm_Bps, d.eta_compute, d.eta_memory, d.overhead_s);
      }
    }
  }
}

CatalogModel read_model(const ConfigNode& node, const std::string& path,
                        const std::array<GpuFigures, kGpuKinds>& gpus, const Derivation& d) {
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
  std::array<double, kGpuKinds> measured_s{};
  if (const ConfigNode* n = f.optional("measured_ms")) measured_s = read_per_kind_ms(*n, f.path_of("measured_ms"), m.measured);
  std::array<bool, kGpuKinds> has_native{};
  if (const ConfigNode* n = f.optional("native_ms")) m.native_s = read_per_kind_ms(*n, f.path_of("native_ms"), has_native);
  read_layers(f.required("layers"), f.path_of("layers"), m.dtype_bytes, m);
  if (m.param_bytes() <= 0) fail_at(f.required("layers"), f.path_of("layers"), fmt::format("'{}' has no parameters", path));
  check_sources(f, f.required("sources"), f.path_of("sources"), m);
  fill_compute(m, measured_s, gpus, d);
  return m;
}

// The catalog in a parsed file (`file` names it in the catalog).
ModelCatalog read_catalog_tree(const ConfigNode& root, const std::string& file) {
  const MapFields f(root, "", {"gpus", "derivation", "models"});
  const std::array<GpuFigures, kGpuKinds> gpus = read_gpus(f.required("gpus"), "gpus");
  const Derivation d = read_derivation(f.required("derivation"), "derivation");
  const ConfigNode& list = f.required("models");
  if (list.kind != ConfigNode::Kind::sequence) fail_at(list, "models", "'models' must be a list");
  ModelCatalog catalog;
  catalog.file = file;
  for (size_t i = 0; i < list.items.size(); ++i) {
    CatalogModel m = read_model(list.items[i], join_path("models", i), gpus, d);
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
