// File: sim/policies/serverless/catalog_models.h
// Catalog models (scenarios/models/catalog.yaml) as the serverless policies see them: the one bridge
// from the model catalog to ServedModel, shared by `parallax run` and `bench serverless`
// (sim/experiment/serverless_sim.cpp), the hardware trial (hw/serverless_trial.cpp) and the property test.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/policies/serverless/served_model.h"

namespace parallax {

// `names`' catalog models with their layers' compute times on GPUs of model `gpu_model` (a catalog
// GPU kind, e.g. "H200-SXM"), each compute time multiplied by `compute_scale` (the hardware trial's
// measured-to-catalog ratio; 1 elsewhere). std::invalid_argument for a GPU kind the catalog lacks.
std::vector<ServedModel> served_models(std::span<const std::string> names, std::string_view gpu_model,
                                       double compute_scale = 1);

}  // namespace parallax
