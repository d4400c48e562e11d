// File: sim/workload/model_catalog.cpp
#include "sim/workload/model_catalog.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/io/did_you_mean.h"
#include "sim/io/input_error.h"

namespace parallax {

int catalog_gpu_kind(std::string_view gpu_model) {
  for (size_t k = 0; k < kCatalogGpuKinds.size(); ++k)
    if (gpu_model.find(kCatalogGpuKinds[k]) != std::string_view::npos) return static_cast<int>(k);
  return -1;
}

std::string_view to_string(Heaviness h) {
  switch (h) {
    case Heaviness::light: return "light";
    case Heaviness::median: return "median";
    case Heaviness::heavy: return "heavy";
  }
  return "?";
}

int64_t CatalogModel::param_bytes() const {
  int64_t b = 0;
  for (const CatalogLayer& l : layers) b += l.param_bytes;
  return b;
}

double CatalogModel::flops() const {
  double f = 0;
  for (const CatalogLayer& l : layers) f += l.flops;
  return f;
}

const CatalogModel* ModelCatalog::find(std::string_view name) const {
  for (const CatalogModel& m : models)
    if (m.name == name) return &m;
  return nullptr;
}

std::vector<std::string> ModelCatalog::names() const {
  std::vector<std::string> out;
  for (const CatalogModel& m : models) out.push_back(m.name);
  return out;
}

const CatalogModel& ModelCatalog::at(std::string_view name) const {
  if (const CatalogModel* m = find(name)) return *m;
  const std::vector<std::string> all = names();
  throw InputError({}, "model", fmt::format("unknown model '{}'{}; models: {}", name, did_you_mean_suffix(name, all),
                                            fmt::join(all, ", ")));
}

}  // namespace parallax
