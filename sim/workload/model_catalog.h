// File: sim/workload/model_catalog.h
// The DNN model catalog as the workloads use it: per model its layer groups in first-use order
// with parameter bytes and FLOPs, the whole model's measured compute time on V100/A100/H100/H200
// where one exists, the SLO, the native per-function GPU footprint and Torpor's heaviness class.
// Plain data and lookups; reading it from YAML is sim/scenario/model_catalog_reader.h, the compute
// times a GPU gives the groups are sim/policies/serverless/catalog_models.h.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace parallax {

// The GPU kinds the catalog knows, in column order.
inline constexpr std::array<std::string_view, 4> kCatalogGpuKinds{"V100", "A100", "H100", "H200"};
// Index into kCatalogGpuKinds for a GPU model string ("V100-SXM2-32GB" -> 0), -1 if none matches.
int catalog_gpu_kind(std::string_view gpu_model);

// Torpor's classes (torpor:scripts/router.py): how much a PCIe swap slows the model down.
enum class Heaviness : uint8_t { light, median, heavy };
std::string_view to_string(Heaviness h);

struct CatalogLayer {
  std::string name;
  int64_t param_bytes = 0;
  double flops = 0;
  bool unused = false;  // in the state dict, never run by an eval forward pass (Inception's AuxLogits)
};

struct CatalogModel {
  std::string name;
  Heaviness heaviness = Heaviness::light;
  int dtype_bytes = 4;
  std::string input;
  double slo_s = 0;
  int64_t native_footprint_bytes = 0;  // one function's GPU memory when it runs natively
  double cold_start_s = 0;             // container + runtime + model start (keep-alive baseline); 0 = unknown
  std::array<double, kCatalogGpuKinds.size()> measured_s{};   // whole-model compute time, 0 = none
  std::array<double, kCatalogGpuKinds.size()> native_s{};     // PyTorch-native latency, 0 = unknown
  std::vector<CatalogLayer> layers;                           // `repeat` expanded
  std::map<std::string, std::string> sources;                 // figure -> citation

  int64_t param_bytes() const;
  double flops() const;
};

struct ModelCatalog {
  std::vector<CatalogModel> models;  // file order
  std::string file;
  const CatalogModel* find(std::string_view name) const;
  // InputError (no location) with did-you-mean when unknown.
  const CatalogModel& at(std::string_view name) const;
  std::vector<std::string> names() const;
};

}  // namespace parallax
