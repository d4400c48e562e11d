// File: sim/policies/multiplex/rigid_mig_multiplex.h
// Rigid MIG: each service gets one MIG instance for the whole run, the layout chosen by
// best_mig_layout (mig_layout_search.h) for the offered load. An instance is a platform partition
// with its profile's SMs and memory_slices/8 of HBM bandwidth; it never changes size, so a
// service's idle instance is a bubble nobody else can use.
#pragma once

#include <vector>

#include "sim/policies/multiplex/mig_layout_search.h"

namespace parallax {

class RigidMigMultiplex final : public MultiplexPolicy {
 public:
  std::string name() const override { return "mig"; }
  void setup(Platform& platform, const MultiplexGpu& gpu, std::span<const ServiceModel> services) override;
  ServiceShare nominal_share(int service) const override { return shares_.at(static_cast<size_t>(service)); }
  const MigSearchResult& layout() const { return layout_; }

 private:
  MigSearchResult layout_;
  std::vector<ServiceShare> shares_;
};

}  // namespace parallax
