// File: sim/predict/collective_prediction.h
// What `parallax predict collective` and `predict overlap` answer, as JSON (tools/predict_command.h
// parses the options):
//   predict collective --hardware PRESET --op OP --gpus P --bytes N
//                      [--algo ring|double_ring|tree|p2p|auto] [--protocol LL|LL128|Simple|auto]
//                      [--calibration FILE]
//     OP: all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send_recv.
//     NCCL's choice (models/nccl_tuning.h): the fastest algorithm and protocol unless pinned.
//   predict overlap    --hardware PRESET --op ag_gemm|gemm_rs|gemm_ar --m M --n N --k K --tp P
// Rings run over GPUs 0..P−1 of the preset (sim/policies/overlap/ring_hops.h). Bad arguments
// throw InputError (exit 2). Fields: docs/overlap.md §parallax predict.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace parallax {

struct PredictCollectiveOptions {
  std::string hardware;
  std::string op;
  int64_t gpus = 0;
  std::string bytes;  // a byte count: "64MiB", "1e9", "4096"
  std::string algo = "auto";
  std::string protocol = "auto";
  std::string calibration;  // a calibration file with a fit for (op, gpus): its ring replaces the preset's
  int nodes = 1;            // copies of the preset's box joined by its fabric (hardware_spec.h FabricSpec)
};

struct PredictOverlapOptions {
  std::string hardware;
  std::string op;
  int64_t m = 0, n = 0, k = 0;
  int64_t tp = 0;
};

nlohmann::ordered_json predict_collective(const PredictCollectiveOptions& options);
nlohmann::ordered_json predict_overlap(const PredictOverlapOptions& options);

}  // namespace parallax
