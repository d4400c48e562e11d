// File: hw/driver_api.cpp
#include "hw/driver_api.h"

#include <atomic>
#include <mutex>

#include <cuda_runtime_api.h>

#include "hw/cuda_check.h"

namespace parallax::hw {

namespace {

std::atomic<const DriverApi*> loaded{nullptr};

template <typename F>
void resolve(F& fn, const char* symbol) {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status{};
  // A missing symbol is not an error here: callers check for null (e.g. green contexts).
  if (cudaGetDriverEntryPointByVersion(symbol, &p, CUDA_VERSION, cudaEnableDefault, &status) == cudaSuccess &&
      status == cudaDriverEntryPointSuccess)
    fn = reinterpret_cast<F>(p);
  else
    cudaGetLastError();
}

}  // namespace

const DriverApi& driver_api() {
  static std::once_flag once;
  static DriverApi api;
  std::call_once(once, [] {
    resolve(api.cuGetErrorName, "cuGetErrorName");
    resolve(api.cuGetErrorString, "cuGetErrorString");
    resolve(api.cuDeviceGet, "cuDeviceGet");
    resolve(api.cuDeviceGetDevResource, "cuDeviceGetDevResource");
    resolve(api.cuDevSmResourceSplitByCount, "cuDevSmResourceSplitByCount");
    resolve(api.cuDevResourceGenerateDesc, "cuDevResourceGenerateDesc");
    resolve(api.cuGreenCtxCreate, "cuGreenCtxCreate");
    resolve(api.cuGreenCtxDestroy, "cuGreenCtxDestroy");
    resolve(api.cuGreenCtxStreamCreate, "cuGreenCtxStreamCreate");
    resolve(api.cuGreenCtxGetDevResource, "cuGreenCtxGetDevResource");
    resolve(api.cuStreamDestroy, "cuStreamDestroy");
    if (!api.cuDeviceGet)
      throw CudaError("cudaGetDriverEntryPointByVersion(\"cuDeviceGet\") found no driver entry point", 0);
    loaded.store(&api);
  });
  return api;
}

const DriverApi* driver_api_if_loaded() { return loaded.load(); }

}  // namespace parallax::hw
