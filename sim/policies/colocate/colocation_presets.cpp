// File: sim/policies/colocate/colocation_presets.cpp
#include "sim/policies/colocate/colocation_presets.h"

#include <array>
#include <stdexcept>

#include "sim/policies/colocate/orion_colocation.h"
#include "sim/policies/colocate/sgdrc_colocation.h"
#include "sim/policies/colocate/static_colocation.h"
#include "sim/policies/colocate/temporal_colocation.h"

namespace parallax {

namespace {

struct Row {
  std::string_view name;
  std::unique_ptr<ColocationPolicy> (*make)(const ColocationPolicyOptions&);
};

constexpr std::array<Row, 7> kRows{{
    {"ls_alone", [](const ColocationPolicyOptions&) -> std::unique_ptr<ColocationPolicy> { return std::make_unique<LsAlone>(); }},
    {"mps", [](const ColocationPolicyOptions& o) -> std::unique_ptr<ColocationPolicy> {
       return std::make_unique<MpsShare>(o.mps_ls_percentage, o.mps_be_percentage);
     }},
    {"static_split", [](const ColocationPolicyOptions& o) -> std::unique_ptr<ColocationPolicy> {
       return std::make_unique<StaticSplit>(o.static_ls_sms);
     }},
    {"mig", [](const ColocationPolicyOptions& o) -> std::unique_ptr<ColocationPolicy> {
       return std::make_unique<MigSplit>(o.mig_ls, o.mig_be);
     }},
    {"orion", [](const ColocationPolicyOptions& o) -> std::unique_ptr<ColocationPolicy> {
       return std::make_unique<OrionColocation>(o.orion_duration_threshold);
     }},
    {"temporal", [](const ColocationPolicyOptions&) -> std::unique_ptr<ColocationPolicy> {
       return std::make_unique<TemporalColocation>();
     }},
    {"sgdrc", [](const ColocationPolicyOptions& o) -> std::unique_ptr<ColocationPolicy> {
       return std::make_unique<SgdrcColocation>(o.sgdrc_eviction);
     }},
}};

}  // namespace

std::span<const std::string_view> colocation_policy_names() {
  static const std::array<std::string_view, kRows.size()> names = [] {
    std::array<std::string_view, kRows.size()> out{};
    for (size_t i = 0; i < kRows.size(); ++i) out[i] = kRows[i].name;
    return out;
  }();
  return names;
}

std::unique_ptr<ColocationPolicy> make_colocation_policy(std::string_view name, const ColocationPolicyOptions& options) {
  for (const Row& r : kRows)
    if (r.name == name) return r.make(options);
  throw std::invalid_argument("unknown colocation policy '" + std::string(name) + "'");
}

}  // namespace parallax
