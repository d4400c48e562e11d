// File: tests/property/random_workload.cpp
#include "tests/property/random_workload.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace parallax::property {

namespace {

int64_t random_bytes(RandomStream& rng) {
  return std::max<int64_t>(1, std::llround(std::exp(rng.uniform(0, std::log(1e9)))));
}

// Start times on a coarse grid half of the time (ties), anywhere in [0, 2 ms] otherwise.
Time random_start(RandomStream& rng) {
  if (rng.uniform01() < 0.5) return Time::us(static_cast<int64_t>(rng.uniform_int(5)) * 100);
  return Time::ps(static_cast<int64_t>(rng.uniform_int(2'000'000'000)));
}

Endpoint random_endpoint(int gpus, int hosts, RandomStream& rng) {
  if (hosts > 0 && rng.uniform01() < 0.2) return Endpoint::host(static_cast<int32_t>(rng.uniform_int(hosts)));
  return Endpoint::gpu(static_cast<int32_t>(rng.uniform_int(gpus)));
}

}  // namespace

RandomWorkload random_workload(int gpus, int hosts, RandomStream& rng) {
  RandomWorkload w;
  const int copies = 1 + static_cast<int>(rng.uniform_int(40));
  for (int i = 0; i < copies; ++i) {
    RandomCopy c;
    c.src = random_endpoint(gpus, hosts, rng);
    c.dst = random_endpoint(gpus, hosts, rng);
    if (c.src == c.dst && c.src.kind == Endpoint::Kind::host) continue;  // host to itself is no copy
    c.bytes = random_bytes(rng);
    c.start = random_start(rng);
    w.copies.push_back(c);
  }
  const int collectives = static_cast<int>(rng.uniform_int(4));
  for (int i = 0; i < collectives; ++i) {
    RandomCollective c;
    c.op = static_cast<CollectiveOp>(rng.uniform_int(3));
    std::vector<GpuId> all(gpus);
    std::iota(all.begin(), all.end(), 0);
    for (int k = gpus - 1; k > 0; --k)  // Fisher-Yates with our own stream (std::shuffle is not portable)
      std::swap(all[k], all[rng.uniform_int(static_cast<uint64_t>(k) + 1)]);
    const int size = 2 + static_cast<int>(rng.uniform_int(static_cast<uint64_t>(std::min(gpus, 8) - 1)));
    c.group.assign(all.begin(), all.begin() + size);
    c.bytes = random_bytes(rng);
    c.start = random_start(rng);
    w.collectives.push_back(std::move(c));
  }
  return w;
}

}  // namespace parallax::property
