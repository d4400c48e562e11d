// File: hw/nccl_api.h
// NCCL, dlopen'ed (libnccl.so.2) the first time a collective is asked for: a one-GPU machine and
// CI never need it, and the carried binary does not depend on where NCCL is installed.
// Communicators are single-process (ncclCommInitAll over the group's devices).
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "hw/shared_library.h"

namespace parallax::hw {

struct NcclApi {
  SharedLibrary lib{cuda_library_candidates("libnccl.so.2")};
  decltype(&::ncclCommInitAll) comm_init_all;
  decltype(&::ncclCommDestroy) comm_destroy;
  decltype(&::ncclAllReduce) all_reduce;
  decltype(&::ncclAllGather) all_gather;
  decltype(&::ncclReduceScatter) reduce_scatter;
  decltype(&::ncclGroupStart) group_start;
  decltype(&::ncclGroupEnd) group_end;
  decltype(&::ncclGetErrorString) error_string;
  NcclApi();
  // Throws CudaError naming the call, the device and NCCL's error text.
  void check(ncclResult_t r, const char* call, int device) const;
};

// Loads NCCL once (PlatformError listing the paths tried when it is absent).
const NcclApi& nccl_api();

}  // namespace parallax::hw

#define PX_NCCL(api, device, call) (api).check((call), #call, (device))
