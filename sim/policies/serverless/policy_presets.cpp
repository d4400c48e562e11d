// File: sim/policies/serverless/policy_presets.cpp
#include "sim/policies/serverless/policy_presets.h"

#include <array>
#include <stdexcept>
#include <string>

namespace parallax {

namespace {
constexpr std::array<std::string_view, 6> kNames{"torpor", "torpor-lru", "torpor-fifo", "native", "keepalive", "naive"};
}  // namespace

std::span<const std::string_view> serverless_policy_names() { return kNames; }

ServerlessPolicy serverless_policy_preset(std::string_view name) {
  ServerlessPolicy p;
  p.name = std::string(name);
  if (name == "torpor") return p;
  if (name == "torpor-lru") {
    p.evictor = EvictorKind::lru;
  } else if (name == "torpor-fifo") {
    p.queue = QueueKind::fifo;
  } else if (name == "native") {
    p.hosting = HostingMode::native;
    p.queue = QueueKind::fifo;
  } else if (name == "keepalive") {
    p.hosting = HostingMode::keepalive;
    p.queue = QueueKind::fifo;
  } else if (name == "naive") {
    p.pipelined = false;
    p.evictor = EvictorKind::lru;
    p.selector = SelectorKind::random;
    p.queue = QueueKind::fifo;
  } else {
    throw std::invalid_argument("unknown serverless policy '" + std::string(name) + "'");
  }
  return p;
}

}  // namespace parallax
