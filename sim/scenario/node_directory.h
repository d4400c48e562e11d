// File: sim/scenario/node_directory.h
// The node names of a machine and how users may write them: "gpu<i>", "host<i>", "host" for the
// only host, and switch names. Resolves a written name to its canonical one ("host" -> "host0")
// and lists the names for error messages. Used for links and for workload endpoints.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/platform/hardware_spec.h"

namespace parallax {

class NodeDirectory {
 public:
  NodeDirectory(int gpus, int hosts, const std::vector<NodeSpec>& switches);
  explicit NodeDirectory(const HardwareSpec& spec);

  // The canonical name, or nullopt when no such node exists.
  std::optional<std::string> resolve(std::string_view written) const;
  std::optional<NodeKind> kind_of(const std::string& canonical) const;

  // For a transfer endpoint: "" when `written` names a GPU or host, else why not ("unknown node
  // 'gpu9' (nodes: gpu0..gpu7, host0)" or "'sw0' is a switch; transfers run between GPUs and hosts").
  std::string endpoint_problem(std::string_view written) const;

  int gpu_count() const { return gpus_; }  // gpu0..gpu<count-1>

  // Every canonical name, GPUs first, then hosts, then switches.
  const std::vector<std::string>& names() const { return names_; }
  // "gpu0..gpu7, host0, nvswitch" — compact, for messages.
  std::string summary() const;

 private:
  int gpus_;
  int hosts_;
  std::vector<std::string> names_;
  std::vector<NodeSpec> switches_;
};

// The index in "gpu<i>" / "host<i>" (no sign, no leading zeros), or nullopt.
std::optional<int> numbered_name(std::string_view written, std::string_view prefix);

// Whether a switch may take this name: not empty, no spaces, and not one that GPUs and hosts use.
bool is_valid_switch_name(std::string_view name);

}  // namespace parallax
