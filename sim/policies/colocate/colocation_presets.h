// File: sim/policies/colocate/colocation_presets.h
// Colocation policies by name, as scenarios list them: ls_alone, mps, static_split, mig, orion,
// temporal, sgdrc. Adding one = one policy file + one row in colocation_presets.cpp.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "sim/platform/mig_layout.h"
#include "sim/policies/colocate/colocation_policy.h"
#include "sim/policies/colocate/sgdrc_colocation.h"

namespace parallax {

struct ColocationPolicyOptions {
  int static_ls_sms = 64;               // static_split: LS green-context group
  MigPlacement mig_ls{"4g.71gb", 0};    // mig: the two instances
  MigPlacement mig_be{"3g.71gb", 4};
  double mps_ls_percentage = 100;       // mps: active-thread percentages
  double mps_be_percentage = 100;
  double orion_duration_threshold = 0.025;
  SgdrcEviction sgdrc_eviction = SgdrcEviction::kernel;
};

std::span<const std::string_view> colocation_policy_names();
// std::invalid_argument for an unknown name.
std::unique_ptr<ColocationPolicy> make_colocation_policy(std::string_view name, const ColocationPolicyOptions& options);

}  // namespace parallax
