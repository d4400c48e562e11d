// File: sim/policies/multiplex/rigid_mig_multiplex.cpp
#include "sim/policies/multiplex/rigid_mig_multiplex.h"

#include <stdexcept>

namespace parallax {

void RigidMigMultiplex::setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) {
  if (gpu.partitioning == nullptr) throw std::invalid_argument("mig: the GPU has no partitioning data");
  layout_ = best_mig_layout(*gpu.partitioning, gpu.rates, services);
  shares_.clear();
  for (size_t i = 0; i < services.size(); ++i) {
    const MigInstance& inst = layout_.instances[i];
    ServiceShare s;
    s.partition = platform.create_partition(gpu.gpu, mig_partition_spec(inst, "mig-" + services[i].name + "-" + inst.profile));
    s.sms = inst.sms;
    s.bandwidth_share = inst.bandwidth_share;
    shares_.push_back(s);
  }
}

}  // namespace parallax
