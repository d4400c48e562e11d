// File: hw/nccl_api.cpp
#include "hw/nccl_api.h"

#include "hw/cuda_check.h"

namespace parallax::hw {

NcclApi::NcclApi() {
  lib.bind(comm_init_all, "ncclCommInitAll");
  lib.bind(comm_destroy, "ncclCommDestroy");
  lib.bind(all_reduce, "ncclAllReduce");
  lib.bind(all_gather, "ncclAllGather");
  lib.bind(reduce_scatter, "ncclReduceScatter");
  lib.bind(group_start, "ncclGroupStart");
  lib.bind(group_end, "ncclGroupEnd");
  lib.bind(error_string, "ncclGetErrorString");
}

void NcclApi::check(ncclResult_t r, const char* call, int device) const {
  if (r != ncclSuccess) throw_library_error("NCCL", static_cast<int>(r), error_string(r), call, device);
}

const NcclApi& nccl_api() {
  static const NcclApi api;  // a failed load throws and is retried on the next call
  return api;
}

}  // namespace parallax::hw
