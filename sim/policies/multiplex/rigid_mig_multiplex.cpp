// File: sim/policies/multiplex/rigid_mig_multiplex.cpp
#include "sim/policies/multiplex/rigid_mig_multiplex.h"

#include <stdexcept>

namespace parallax {

void RigidMigMultiplex::setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) {
  if (gpu.partitioning == nullptr) throw std::invalid_argument("mig: the GPU has no partitioning data");
  layout_ = best_mig_layout(*gpu.partitioning, gpu.rates, services);
  shares_ = create_mig_partitions(platform, gpu.gpu, layout_, services, [&](size_t i) {
    return "mig-" + services[i].name + "-" + layout_.instances[i].profile;
  });
}

}  // namespace parallax
