// File: sim/policies/multiplex/multiplex_presets.cpp
#include "sim/policies/multiplex/multiplex_presets.h"

#include <array>
#include <stdexcept>
#include <string>

#include "sim/policies/multiplex/dynamic_mig_multiplex.h"
#include "sim/policies/multiplex/elastic_multiplex.h"
#include "sim/policies/multiplex/rigid_mig_multiplex.h"
#include "sim/policies/multiplex/static_multiplex.h"

namespace parallax {

namespace {

struct Preset {
  std::string_view name;
  std::unique_ptr<MultiplexPolicy> (*make)(Time resize_cost, Time switch_cost, Time reconfig_cost);
};

constexpr std::array<Preset, 5> kPresets{{
    {"timeslice",
     [](Time, Time w, Time) { return std::unique_ptr<MultiplexPolicy>(std::make_unique<TimesliceMultiplex>(w)); }},
    {"mps", [](Time, Time, Time) { return std::unique_ptr<MultiplexPolicy>(std::make_unique<MpsMultiplex>()); }},
    {"mig", [](Time, Time, Time) { return std::unique_ptr<MultiplexPolicy>(std::make_unique<RigidMigMultiplex>()); }},
    {"dynamic_mig",
     [](Time, Time, Time r) { return std::unique_ptr<MultiplexPolicy>(std::make_unique<DynamicMigMultiplex>(r)); }},
    {"elastic",
     [](Time c, Time, Time) { return std::unique_ptr<MultiplexPolicy>(std::make_unique<ElasticMultiplex>(c)); }},
}};

}  // namespace

std::span<const std::string_view> multiplex_policy_names() {
  static const std::array<std::string_view, kPresets.size()> names = [] {
    std::array<std::string_view, kPresets.size()> out{};
    for (size_t i = 0; i < kPresets.size(); ++i) out[i] = kPresets[i].name;
    return out;
  }();
  return names;
}

std::unique_ptr<MultiplexPolicy> make_multiplex_policy(std::string_view name, Time elastic_resize_cost,
                                                       Time timeslice_switch_cost, Time mig_reconfig_cost) {
  for (const Preset& p : kPresets)
    if (p.name == name) return p.make(elastic_resize_cost, timeslice_switch_cost, mig_reconfig_cost);
  throw std::invalid_argument("unknown multiplex policy '" + std::string(name) + "'");
}

}  // namespace parallax
