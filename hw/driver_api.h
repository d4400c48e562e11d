// File: hw/driver_api.h
// The CUDA driver-API functions the backend needs (green contexts, error names), resolved at run
// time through cudaGetDriverEntryPointByVersion: linking -lcuda would make the binary fail to
// start on a machine without a driver (BUILD-NOTES.md). The ABI asked for is the one of the
// headers we compile against (CUDA_VERSION), so structs such as CUdevResource match.
#pragma once

#include <cuda.h>

namespace parallax::hw {

struct DriverApi {
  decltype(&::cuGetErrorName) cuGetErrorName = nullptr;
  decltype(&::cuGetErrorString) cuGetErrorString = nullptr;
  decltype(&::cuDeviceGet) cuDeviceGet = nullptr;
  // Green contexts (driver >= CUDA 12.4); null when the driver lacks them.
  decltype(&::cuDeviceGetDevResource) cuDeviceGetDevResource = nullptr;
  decltype(&::cuDevSmResourceSplitByCount) cuDevSmResourceSplitByCount = nullptr;
  decltype(&::cuDevResourceGenerateDesc) cuDevResourceGenerateDesc = nullptr;
  decltype(&::cuGreenCtxCreate) cuGreenCtxCreate = nullptr;
  decltype(&::cuGreenCtxDestroy) cuGreenCtxDestroy = nullptr;
  decltype(&::cuGreenCtxStreamCreate) cuGreenCtxStreamCreate = nullptr;
  decltype(&::cuGreenCtxGetDevResource) cuGreenCtxGetDevResource = nullptr;
  decltype(&::cuStreamDestroy) cuStreamDestroy = nullptr;

  bool has_green_contexts() const {
    return cuDeviceGetDevResource && cuDevSmResourceSplitByCount && cuDevResourceGenerateDesc && cuGreenCtxCreate &&
           cuGreenCtxDestroy && cuGreenCtxStreamCreate && cuStreamDestroy;
  }
};

// Resolves the functions once (the CUDA runtime must already have found a driver: call after a
// successful cudaGetDeviceCount). Throws CudaError when the entry-point query itself fails.
const DriverApi& driver_api();
// The table if driver_api() has run, else null (for error reporting, which must not throw).
const DriverApi* driver_api_if_loaded();

}  // namespace parallax::hw
