// File: sim/workload/chakra_reader.h
// A Chakra execution-trace set (one ET per rank) as a StepGraph (sim/workload/step_graph.h).
//
// Per rank, each node becomes part of one task:
//   COMP_NODE (is_cpu_op false)  compute: by work when it carries num_ops (FLOPs) and tensor_size
//                                (DRAM bytes), ASTRA-sim's roofline attributes, else by its recorded
//                                duration (KernelProfile::solo_s; the experiment scales it to the
//                                target GPU). Neither: a delay of 0.
//   any node with is_cpu_op      delay of its duration (host work, not re-timed: Chakra's PyTorch
//                                converter also marks the host side of a collective this way).
//   METADATA, MEM_LOAD/STORE     delay of its duration (usually 0: an ordering point).
//   COMM_COLL_NODE               collective: the k-th collective of process group `pg_name` on each
//                                member rank form one task. Members: `pg_ranks` (our attribute: the
//                                ranks in ring order) when present, else every rank whose ET has a
//                                collective of that group, ascending (no pg_name: one group).
//                                comm_type and comm_size (nccl-tests' S) must agree.
//   COMM_SEND_NODE / RECV_NODE   send: the k-th send from comm_src to comm_dst with comm_tag pairs
//                                with the k-th receive on comm_dst from comm_src with that tag.
// Durations: our attribute `duration_s` (double) when present, else duration_micros.
// Dependencies: data_deps, within the node's own ET (ids are per file), as Chakra's own feeder and
// generator use them; ctrl_deps too when ChakraReadOptions::follow_ctrl_deps. They are not followed
// by default because Chakra's PyTorch converter writes a node's call-tree parent there: in its
// feeder test trace (docs/chakra.md) they name nodes the ET lacks, nodes themselves, and, followed,
// close a cycle. A merged task depends on what any of its nodes depended on. Tasks come out in
// topological order, ties by (smallest node id, rank), so a set our writer wrote reads back in its
// original order.
// Every error is an InputError at the ET's path naming the node id and the field: truncated or
// malformed files, bad node or collective types, duplicate ids, dangling deps, cycles (also across
// ranks through matched communication), unmatched collectives or sends, missing ranks.
#pragma once

#include <string>
#include <vector>

#include "sim/workload/chakra_et_file.h"
#include "sim/workload/step_graph.h"

namespace parallax {

struct ChakraRankTrace {
  std::string path;  // for messages
  ChakraEtFile et;
};

struct ChakraReadOptions {
  bool follow_ctrl_deps = false;  // also ctrl_deps (strictly: each must name another node of the ET)
};

// What the reader met beyond the graph, for the summary.
struct ChakraReadStats {
  size_t nodes = 0;
  size_t host_nodes = 0;         // is_cpu_op: delays
  size_t ignored_ctrl_deps = 0;  // ctrl_deps not followed
};

// ranks[r] is rank r's trace.
StepGraph step_graph_of_chakra(const std::vector<ChakraRankTrace>& ranks, const ChakraReadOptions& options = {},
                               ChakraReadStats* stats = nullptr);

// The ETs `NAME.<rank>.et` in `dir` (Chakra's naming; one NAME, ranks 0..N-1, other files ignored),
// each read through the bounded reader.
std::vector<ChakraRankTrace> read_chakra_dir(const std::string& dir);

}  // namespace parallax
