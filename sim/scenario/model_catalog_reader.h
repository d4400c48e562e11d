// File: sim/scenario/model_catalog_reader.h
// Reads the DNN model catalog (scenarios/models/catalog.yaml, compiled in) into the workload's
// ModelCatalog (sim/workload/model_catalog.h). Compute times are measured where the catalog gives
// `measured_ms` (spread over the groups by FLOP share), otherwise derived per group with the
// roofline of models/gemm_cost (flagged `measured = false`). Every figure must have a `sources:`
// entry; a missing or unknown one is an InputError at its file:line:col.
//
//   const ModelCatalog& catalog = embedded_model_catalog();
//   const CatalogModel& m = catalog.at("resnet152");         // InputError if unknown
//   double s = m.compute_s(catalog_gpu_kind("V100-SXM2-32GB"));  // 0.017
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/inference_kernels.h"
#include "sim/workload/model_catalog.h"

namespace parallax {

// Parses and validates a catalog; `file` names it in errors.
ModelCatalog read_model_catalog(std::string_view yaml, const std::string& file);
ModelCatalog load_model_catalog_file(const std::string& path);
// scenarios/models/catalog.yaml as compiled into the binary (parsed once).
const ModelCatalog& embedded_model_catalog();
inline constexpr std::string_view kEmbeddedCatalogPath = "scenarios/models/catalog.yaml";

// One request of catalog model `model` at `batch` as the kernels the colocate runs use
// (models/inference_kernels.h; memory-bound kernels get at least one block per 64 KiB of their
// bytes), shared by the simulator and the hardware trial so both run the same sequence. InputError
// (did-you-mean) for an unknown model.
std::vector<NamedKernel> colocate_request_kernels(std::string_view model, int batch);

}  // namespace parallax
