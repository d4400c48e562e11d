// File: sim/policies/serverless/catalog_models.cpp
#include "sim/policies/serverless/catalog_models.h"

#include <fmt/format.h>

#include <stdexcept>

#include "sim/scenario/model_catalog_reader.h"

namespace parallax {

namespace {

ModelClass model_class(Heaviness h) {
  return h == Heaviness::light ? ModelClass::light : h == Heaviness::median ? ModelClass::median : ModelClass::heavy;
}

}  // namespace

std::vector<ServedModel> served_models(std::span<const std::string> names, std::string_view gpu_model,
                                       double compute_scale) {
  const ModelCatalog& catalog = embedded_model_catalog();
  const int kind = catalog_gpu_kind(gpu_model);
  if (kind < 0) throw std::invalid_argument(fmt::format("no catalog compute times for GPU kind '{}'", gpu_model));
  const auto k = static_cast<size_t>(kind);
  std::vector<ServedModel> out;
  for (const std::string& name : names) {
    const CatalogModel& c = catalog.at(name);
    ServedModel m;
    m.name = c.name;
    m.heaviness = model_class(c.heaviness);
    for (const CatalogLayer& l : c.layers) m.layers.push_back({l.param_bytes, l.compute_s[k] * compute_scale});
    m.param_bytes = c.param_bytes();
    m.compute_s = c.compute_s(kind) * compute_scale;
    m.native_s = c.native_s[k];
    m.native_footprint_bytes = c.native_footprint_bytes;
    m.slo = Time::seconds(c.slo_s);
    m.cold_start = Time::seconds(c.cold_start_s);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace parallax
