// File: sim/predict/model_prediction.h
// `parallax predict model --hardware PRESET --model NAME [--batch B] [--sequence L] [--sms S]
// [--bandwidth-share β] [--dtype bf16|fp16|tf32] [--kernels]`: a model's forward latency on part of
// one GPU, and `parallax predict gemm --hardware PRESET --m M --n N --k K [--batch B] [--dtype D]
// [--sms S]`: one GEMM, both from the kernel model of models/op_kernels.h (JSON).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace parallax {

struct PredictModelOptions {
  std::string hardware, model, dtype = "bf16";
  int batch = 1;
  int64_t sequence = 0;
  std::optional<int> sms;
  double bandwidth_share = 1.0;
  bool kernels = false;
};

struct PredictGemmOptions {
  std::string hardware, dtype = "bf16";
  int64_t m = 0, n = 0, k = 0, batch = 1;
  std::optional<int> sms;
};

nlohmann::ordered_json predict_model(const PredictModelOptions& options);
nlohmann::ordered_json predict_gemm(const PredictGemmOptions& options);

}  // namespace parallax
