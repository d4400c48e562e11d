// File: sim/policies/multiplex/multiplex_presets.h
// Multiplexing policies by name, as scenarios list them: timeslice, mps, mig, dynamic_mig,
// elastic. Adding one
// = one policy file + one row in multiplex_presets.cpp.
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "sim/policies/multiplex/multiplex_policy.h"

namespace parallax {

std::span<const std::string_view> multiplex_policy_names();
// std::invalid_argument for an unknown name. `elastic_resize_cost`: elastic_multiplex.h;
// `timeslice_switch_cost`: static_multiplex.h; `mig_reconfig_cost` (> 0): dynamic_mig_multiplex.h.
std::unique_ptr<MultiplexPolicy> make_multiplex_policy(std::string_view name,
                                                       Time elastic_resize_cost = Time::zero(),
                                                       Time timeslice_switch_cost = Time::zero(),
                                                       Time mig_reconfig_cost = Time::seconds(1));

}  // namespace parallax
