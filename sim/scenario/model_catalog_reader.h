// File: sim/scenario/model_catalog_reader.h
// Reads the DNN model catalog (scenarios/models/catalog.yaml, compiled in) into the workload's
// ModelCatalog (sim/workload/model_catalog.h): layer groups, and the whole model's compute time
// where the catalog gives `measured_ms`; the groups' times on a GPU are
// sim/policies/serverless/catalog_models.h's. Every figure must have a `sources:` entry; a missing
// or unknown one is an InputError at its file:line:col.
//
//   const ModelCatalog& catalog = embedded_model_catalog();
//   const CatalogModel& m = catalog.at("resnet152");                  // InputError if unknown
//   double s = m.measured_s[catalog_gpu_kind("V100-SXM2-32GB")];     // 0.017
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/workload/model_catalog.h"

namespace parallax {

// Parses and validates a catalog; `file` names it in errors.
ModelCatalog read_model_catalog(std::string_view yaml, const std::string& file);
ModelCatalog load_model_catalog_file(const std::string& path);
// scenarios/models/catalog.yaml as compiled into the binary (parsed once).
const ModelCatalog& embedded_model_catalog();
inline constexpr std::string_view kEmbeddedCatalogPath = "scenarios/models/catalog.yaml";

}  // namespace parallax
