// File: sim/workload/chakra_writer.h
// A StepGraph as Chakra ETs, one per rank, that sim/workload/chakra_reader.h reads back into the
// same graph (deps as sets) and that Chakra's own tools parse. Task i becomes node id i on each
// rank it involves:
//   compute     COMP_NODE: num_ops = FLOPs, tensor_size = DRAM bytes (rounded to integers),
//               max_sms when set; by time: duration_micros and our `duration_s` (exact);
//   delay       COMP_NODE with is_cpu_op = true and its duration;
//   collective  COMM_COLL_NODE on every member: comm_type, comm_size (nccl-tests' S), pg_name
//               ("pg<k>", k-th distinct group) and our `pg_ranks` (the group in ring order);
//   send        COMM_SEND_NODE on the sender and COMM_RECV_NODE on the peer, comm_src, comm_dst,
//               comm_tag = i, comm_size.
// A dependency goes into data_deps of the dependent's node on each rank both tasks share; one
// that shares no rank cannot be said in per-rank ETs and throws std::invalid_argument, as does a
// graph whose deps do not point to earlier tasks, a send to itself, or an overlap schedule's
// copies task, join or comm-partition kernel (no Chakra node kind says them).
#pragma once

#include <string>
#include <vector>

#include "sim/workload/chakra_et_file.h"
#include "sim/workload/step_graph.h"

namespace parallax {

// ets[r] is rank r's ET.
std::vector<ChakraEtFile> chakra_ets_of(const StepGraph& graph);

// Writes NAME.<rank>.et for each rank into `dir` (created if missing), each through a temporary
// file and a rename. Returns the paths. Throws std::runtime_error when a file cannot be written.
std::vector<std::string> write_chakra_dir(const StepGraph& graph, const std::string& dir, const std::string& name);

}  // namespace parallax
