// File: sim/workload/alibaba_gpu_trace.h
// Readers for the Alibaba GPU-sharing cluster trace (alibaba/clusterdata cluster-trace-gpu-v2023,
// "openb"; Weng et al., ATC'23): the pod lists openb_pod_list_*.csv and the node lists
// openb_node_list_*.csv. Strict: every malformed row is an InputError "file:line: column 'NAME':
// ..." (exit 2 from the command line).
//
// Pods, one per row, in one of the two published layouts:
//   name,cpu_milli,memory_mib,num_gpu,gpu_milli                            (multigpu50: no times)
//   name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
// cpu_milli in thousandths of a core, memory_mib in MiB, gpu_milli in thousandths of one GPU.
// Rules checked per row: num_gpu 0 -> gpu_milli 0; num_gpu 1 -> gpu_milli 1..1000; num_gpu > 1 ->
// gpu_milli 1000 (the trace's convention: multi-GPU pods take whole GPUs); gpu_spec empty or
// '|'-separated model names; qos in {LS, BE, Burstable, Guaranteed}; pod_phase in {Running,
// Succeeded, Failed, Pending}; creation_time <= deletion_time (integer seconds); scheduled_time
// empty (never scheduled) or >= creation_time.
//
// Nodes: `sn,cpu_milli,memory_mib,gpu,model`; model empty exactly when gpu is 0.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace parallax {

struct AlibabaPod {
  std::string name;
  uint64_t cpu_milli = 0;
  uint64_t memory_mib = 0;
  int num_gpu = 0;
  int gpu_milli = 0;                   // per GPU; 1000 = a whole GPU
  std::vector<std::string> gpu_spec;   // allowed GPU models; empty = any
  std::string qos;                     // "" in the 5-column layout
  std::string pod_phase;               // "" in the 5-column layout
  bool has_times = false;              // the 11-column layout
  int64_t creation_s = 0;
  int64_t deletion_s = 0;
  int line = 0;                        // where the row is, for messages
};

struct AlibabaNode {
  std::string sn;
  uint64_t cpu_milli = 0;
  uint64_t memory_mib = 0;
  int gpus = 0;
  std::string model;                   // "" when gpus == 0
  int line = 0;
};

// Every row, in file order. Throws InputError on a bad header or row, or a file without rows.
// The stream overloads read the file's text from `in`, naming `source` in errors.
std::vector<AlibabaPod> read_alibaba_pods(const std::string& path);
std::vector<AlibabaPod> read_alibaba_pods(std::istream& in, const std::string& source);
std::vector<AlibabaNode> read_alibaba_nodes(const std::string& path);
std::vector<AlibabaNode> read_alibaba_nodes(std::istream& in, const std::string& source);

}  // namespace parallax
