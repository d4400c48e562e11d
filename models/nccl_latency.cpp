// File: models/nccl_latency.cpp
// Tables of REFERENCE.md §2.2 (NVIDIA/nccl src/graph/tuning.cc), in microseconds.
#include "models/nccl_latency.h"

#include <array>
#include <cstddef>

namespace parallax::models {
namespace {

constexpr double kMicro = 1e-6;

std::size_t index(Protocol protocol) {
  switch (protocol) {
    case Protocol::ll: return 0;
    case Protocol::ll128: return 1;
    case Protocol::simple: return 2;
  }
  return 2;
}

// {LL, LL128, Simple}
constexpr std::array<double, 3> kRingBase_us{6.6, 14.0, 8.4};
constexpr std::array<double, 3> kTreeBase_us{6.8, 14.0, 8.4};
constexpr std::array<double, 3> kNvlinkRing_us{0.6, 1.9, 3.4};
constexpr std::array<double, 3> kNvlinkTree_us{0.6, 1.25, 4.0};
constexpr std::array<double, 3> kPcieRing_us{1.0, 2.5, 5.7};
// tuning.cc (NVIDIA/nccl 5067397) lists PCI tree {1.0, 1.9, 4.0} and then sets the Simple entry
// to the ring's 5.7 at init.
constexpr std::array<double, 3> kPcieTree_us{1.0, 1.9, 5.7};
constexpr std::array<double, 3> kNetRing_us{2.7, 4.0, 14.0};
constexpr std::array<double, 3> kNetTree_us{5.0, 8.5, 14.0};

}  // namespace

double nccl_base_latency_s(NcclAlgorithm algorithm, Protocol protocol) {
  const auto& table = algorithm == NcclAlgorithm::ring ? kRingBase_us : kTreeBase_us;
  return table[index(protocol)] * kMicro;
}

double nccl_hw_latency_s(NcclAlgorithm algorithm, LinkType link, Protocol protocol) {
  const bool ring = algorithm == NcclAlgorithm::ring;
  switch (link) {
    case LinkType::nvlink:
      return (ring ? kNvlinkRing_us : kNvlinkTree_us)[index(protocol)] * kMicro;
    case LinkType::pcie:
      return (ring ? kPcieRing_us : kPcieTree_us)[index(protocol)] * kMicro;
    case LinkType::net:
      return (ring ? kNetRing_us : kNetTree_us)[index(protocol)] * kMicro;
  }
  return 0.0;
}

RingParams nccl_uniform_ring(int64_t ranks, double bandwidth_Bps, LinkType link,
                             Protocol protocol) {
  RingParams ring;
  ring.base_latency_s = nccl_base_latency_s(NcclAlgorithm::ring, protocol);
  const double hop_latency_s = nccl_hw_latency_s(NcclAlgorithm::ring, link, protocol);
  ring.hops.assign(static_cast<std::size_t>(ranks < 0 ? 0 : ranks),
                   Hop{bandwidth_Bps, hop_latency_s, link});
  return ring;
}

}  // namespace parallax::models
