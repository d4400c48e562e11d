// File: tests/property/random_workload.h
// A random transfer-and-collective workload for a given machine, drawn from one RandomStream:
// copies between GPUs and hosts (within one GPU too), of sizes from 1 byte to 1 GB on a log
// scale, and ring collectives over random GPU groups; start times often coincide, so ties in the
// event order are exercised.
#pragma once

#include <vector>

#include "sim/engine/random_streams.h"
#include "sim/platform/platform.h"

namespace parallax::property {

struct RandomCopy {
  Endpoint src, dst;
  int64_t bytes = 0;
  Time start;
};

struct RandomCollective {
  CollectiveOp op = CollectiveOp::all_reduce;
  std::vector<GpuId> group;
  int64_t bytes = 0;
  Time start;
};

struct RandomWorkload {
  std::vector<RandomCopy> copies;
  std::vector<RandomCollective> collectives;
};

RandomWorkload random_workload(int gpus, int hosts, RandomStream& rng);

}  // namespace parallax::property
