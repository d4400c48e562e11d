// File: tools/predict_command.h
// `parallax predict collective|overlap|schedule|swap|model|gemm`: the options of each (docs/cli.md); the
// answers come from sim/predict (JSON on stdout). Registered on the app by one constructor call.
#pragma once

#include <CLI/CLI.hpp>

#include "sim/predict/collective_prediction.h"
#include "sim/predict/model_prediction.h"
#include "sim/predict/schedule_prediction.h"
#include "sim/predict/swap_prediction.h"

namespace parallax {

class PredictCommands {
 public:
  explicit PredictCommands(CLI::App& app);
  bool parsed() const { return predict_->parsed(); }
  int run() const;  // prints the parsed subcommand's answer

 private:
  CLI::App* predict_ = nullptr;
  CLI::App *collective_ = nullptr, *overlap_ = nullptr, *swap_ = nullptr, *model_ = nullptr, *gemm_ = nullptr, *schedule_ = nullptr;
  PredictCollectiveOptions pc_;
  PredictOverlapOptions po_;
  PredictSwapOptions ps_;
  PredictModelOptions pm_;
  PredictGemmOptions pg_;
  PredictScheduleOptions pq_;
};

}  // namespace parallax
