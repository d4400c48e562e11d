// File: sim/policies/serverless/policy_presets.h
// The named policies a scenario can list, each a ServerlessPolicy differing from Torpor's in the
// choices named:
//   torpor       swap, pipelined 2 MiB groups, two-class LRU, Algorithm 1 selection, RRC queue
//   torpor-lru   torpor with the plain LRU evictor (Torpor's Fig. 11/12 "LRU" ablation)
//   torpor-fifo  torpor with one FIFO queue (the "FIFO" ablation)
//   native       every function's model pinned to a GPU (first fit by native footprint)
//   keepalive    INFless-like containers: cold start, then kept warm for 60 s; LRU when full
//   naive        swap whole models, LRU, random GPU via the host, FIFO
#pragma once

#include <span>
#include <string_view>

#include "sim/policies/serverless/serverless_policy.h"

namespace parallax {

std::span<const std::string_view> serverless_policy_names();
// std::invalid_argument for an unknown name.
ServerlessPolicy serverless_policy_preset(std::string_view name);

}  // namespace parallax
