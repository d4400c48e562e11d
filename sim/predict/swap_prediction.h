// File: sim/predict/swap_prediction.h
// `parallax predict swap --hardware PRESET --model NAME --path pcie|nvlink|none [--gpu G]
// [--loading pipelined|whole]`: the first request's latency with the model swapped in, from
// models/swap_cost.h, as JSON (`latency_s`, path bandwidth, groups, compute).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace parallax {

struct PredictSwapOptions {
  std::string hardware, model, path = "pcie", loading = "pipelined";
  int gpu = 0;
};

nlohmann::ordered_json predict_swap(const PredictSwapOptions& options);

}  // namespace parallax
