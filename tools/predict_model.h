// File: tools/predict_model.h
// `parallax predict model --hardware PRESET --model NAME [--batch B] [--sequence L] [--sms S]
// [--bandwidth-share β] [--dtype bf16|fp16|tf32] [--kernels]`: a model's forward latency on part of
// one GPU, and `parallax predict gemm --hardware PRESET --m M --n N --k K [--batch B] [--dtype D]
// [--sms S]`: one GEMM, both from the kernel model of models/op_kernels.h (JSON on stdout).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace CLI {
class App;
}

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

// Registers `predict model` and `predict gemm` under `predict`; returns them in that order.
std::pair<CLI::App*, CLI::App*> add_predict_model_subcommands(CLI::App& predict, PredictModelOptions& model,
                                                              PredictGemmOptions& gemm);
int predict_model_command(const PredictModelOptions& options);
int predict_gemm_command(const PredictGemmOptions& options);

}  // namespace parallax
