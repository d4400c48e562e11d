// File: hw/cublaslt_gemm.h
// Real GEMMs by shape through cuBLASLt (bf16 or fp16 inputs and output, fp32 accumulation), the
// algorithm the fastest of cuBLASLt's heuristic's top 8 with a 64 MiB workspace (enough for
// Hopper's split-K and stream-K kernels), timed on the first run of each shape. libcublasLt is dlopen'ed, not linked: the `parallax` binary then
// starts on machines without the CUDA toolkit's libraries (CI, the carried binary on the GPU
// machine finds the toolkit's copy at run time) and only `parallax hw` needs it.
//
// Layout: column-major "TN" (A stored k x m and transposed, B k x n, C m x n), the fastest
// layout of cuBLASLt on Hopper; the FLOP count is 2·m·n·k either way.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>

namespace parallax::hw {

enum class GemmDtype { bf16, fp16 };
GemmDtype parse_gemm_dtype(const std::string& s);  // std::invalid_argument for anything else

class CublasLtGemm {
 public:
  explicit CublasLtGemm(int device);
  ~CublasLtGemm();
  CublasLtGemm(const CublasLtGemm&) = delete;
  CublasLtGemm& operator=(const CublasLtGemm&) = delete;

  // Enqueues C = A·B on `stream`. `sm_target` > 0 tells cuBLASLt the kernel will have that many
  // SMs (a green-context partition); 0 = the whole GPU. Throws CudaError naming the shape when no
  // algorithm exists. The first run of a shape times the candidate algorithms (it synchronises
  // `stream`); later runs only enqueue.
  void run(GemmDtype dtype, int64_t m, int64_t n, int64_t k, const void* a, const void* b, void* c,
           cudaStream_t stream, int sm_target = 0);

 private:
  struct Api;
  struct Plan;
  Plan& plan(GemmDtype dtype, int64_t m, int64_t n, int64_t k, int sm_target);

  int device_;
  std::unique_ptr<Api> api_;
  void* handle_ = nullptr;
  void* workspace_ = nullptr;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;  // timing the candidate algorithms
  std::map<std::tuple<int, int64_t, int64_t, int64_t, int>, std::unique_ptr<Plan>> plans_;
};

}  // namespace parallax::hw
