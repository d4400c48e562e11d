// File: sim/experiment/serverless_trace.h
// trace.json for a serverless run (docs/serverless.md "trace.json"): per GPU (node n's GPU g is
// "gpu<n*G+g>"), one kernel slice per request from dispatch to finish named "<function>
// <model> <local|pcie|nvlink>", one copy slice per model load from dispatch to the last group
// ready (from host0, or from the peer GPU) with a flow arrow from source to destination and, on
// every link direction of its route, a flow slice and the link's utilisation counters; two
// counters per GPU: model memory in use (GB) and evictions so far; and the policy as a phase.
// Built from the nodes' request records and pool samples, so loads computed in closed form show as
// well as those run on the platform. The link rates are each load's average (bytes / duration).
#pragma once

#include <ostream>
#include <span>
#include <string>

#include "sim/platform/hardware_spec.h"
#include "sim/policies/serverless/serverless_node.h"
#include "sim/report/chrome_trace.h"

namespace parallax {

ChromeTraceStats write_serverless_trace(std::ostream& out, std::span<const ServerlessNode* const> nodes,
                                        const HardwareSpec& hardware, const std::string& policy,
                                        const ChromeTraceOptions& options);

}  // namespace parallax
