// File: sim/scenario/training_workload.cpp
#include "sim/scenario/training_workload.h"

#include <optional>

#include <fmt/format.h>

#include "sim/scenario/config_fields.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/workload_kinds.h"

namespace parallax {

namespace {

int64_t positive_int(const MapFields& f, std::string_view key, int64_t max) {
  return read_integer_in(f.required(key), f.path_of(key), 1, max);
}

}  // namespace

void read_training_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext&,
                            Scenario& scenario) {
  const MapFields f(workload, path,
                    {"kind", "model", "parallel", "global_batch", "micro_batch", "schedule", "virtual_stages",
                     "recompute", "overlap", "gradient_reduce", "gradient_bucket"});
  TrainingWorkloadSpec& w = scenario.training;
  TrainingConfig& c = w.config;

  const ConfigNode& model_node = f.required("model");
  const MapFields m(model_node, f.path_of("model"), {"layers", "hidden", "heads", "seq_len", "vocab", "moe"});
  c.model.layers = positive_int(m, "layers", 10'000);
  c.model.hidden = positive_int(m, "hidden", 1'000'000);
  c.model.heads = positive_int(m, "heads", 100'000);
  c.model.seq_len = positive_int(m, "seq_len", 10'000'000);
  c.model.vocab = positive_int(m, "vocab", 100'000'000);
  if (c.model.hidden % c.model.heads != 0)
    fail_at(m.required("heads"), m.path_of("heads"),
            fmt::format("'{}': hidden {} is not divisible by heads {}", m.path_of("heads"), c.model.hidden, c.model.heads));

  const ConfigNode* moe_node = m.optional("moe");
  std::optional<MapFields> moe;
  if (moe_node != nullptr) {
    moe.emplace(*moe_node, m.path_of("moe"), std::initializer_list<std::string_view>{"experts", "top_k", "every", "capacity_factor"});
    MoeConfig& e = c.model.moe;
    e.experts = read_integer_in(moe->required("experts"), moe->path_of("experts"), 2, 1'000'000);
    if (const ConfigNode* k = moe->optional("top_k")) e.top_k = read_integer_in(*k, moe->path_of("top_k"), 1, e.experts);
    if (const ConfigNode* n = moe->optional("every")) e.every = read_integer_in(*n, moe->path_of("every"), 1, c.model.layers);
    if (const ConfigNode* cf = moe->optional("capacity_factor")) e.capacity_factor = read_positive(*cf, moe->path_of("capacity_factor"));
  }

  const ConfigNode& parallel_node = f.required("parallel");
  const MapFields p(parallel_node, f.path_of("parallel"), {"tp", "pp", "dp", "ep"});
  c.tp = positive_int(p, "tp", 1'000'000);
  c.pp = positive_int(p, "pp", 1'000'000);
  c.dp = positive_int(p, "dp", 1'000'000);
  if (const ConfigNode* ep = p.optional("ep")) {
    c.ep = read_integer_in(*ep, p.path_of("ep"), 1, 1'000'000);
    if (moe_node == nullptr)
      fail_at(*ep, p.path_of("ep"), fmt::format("'{}': expert parallelism needs MoE layers (model.moe)", p.path_of("ep")));
    // Megatron-Core's rule before MoE parallel folding: EP groups are carved out of the DP group.
    if (c.dp % c.ep != 0)
      fail_at(*ep, p.path_of("ep"),
              fmt::format("'{}': ep {} does not divide parallel.dp {} (the experts are split over data-parallel "
                          "replicas, as Megatron-Core and DeepSpeed-MoE require)",
                          p.path_of("ep"), c.ep, c.dp));
    if (c.model.moe.experts % c.ep != 0)
      fail_at(*ep, p.path_of("ep"),
              fmt::format("'{}': ep {} does not divide model.moe.experts {}", p.path_of("ep"), c.ep, c.model.moe.experts));
  }
  const int64_t gpus = c.tp * c.pp * c.dp;
  const int64_t cluster = cluster_gpu_count(scenario.hardware);
  if (gpus > cluster)
    fail_at(parallel_node, f.path_of("parallel"),
            fmt::format("'{}': tp·pp·dp = {}·{}·{} = {} GPUs, the cluster has {} (hardware.nodes × GPUs per node)",
                        f.path_of("parallel"), c.tp, c.pp, c.dp, gpus, cluster));
  const auto divides = [&](const MapFields& fields, std::string_view key, int64_t value, int64_t what,
                           std::string_view what_name) {
    if (value % what != 0)
      fail_at(fields.required(key), fields.path_of(key),
              fmt::format("'{}': {} {} is not divisible by {} {}", fields.path_of(key), key, value, what_name, what));
  };
  divides(m, "heads", c.model.heads, c.tp, "parallel.tp");
  divides(m, "vocab", c.model.vocab, c.tp, "parallel.tp");
  divides(m, "layers", c.model.layers, c.pp, "parallel.pp");
  if (moe && (c.model.layers / c.pp) % c.model.moe.every != 0)
    fail_at(moe->required("every"), moe->path_of("every"),
            fmt::format("'{}': a stage's {} layers (layers / pp) are not a multiple of every {}", moe->path_of("every"),
                        c.model.layers / c.pp, c.model.moe.every));

  c.global_batch = positive_int(f, "global_batch", 100'000'000);
  divides(f, "global_batch", c.global_batch, c.dp, "parallel.dp");
  const ConfigNode& mb = f.required("micro_batch");
  w.micro_batch_where = mb.where;
  if (mb.kind == ConfigNode::Kind::scalar && mb.scalar == "auto") {
    c.micro_batch = 0;
  } else {
    c.micro_batch = read_integer_in(mb, f.path_of("micro_batch"), 1, 100'000'000);
    if ((c.global_batch / c.dp) % c.micro_batch != 0)
      fail_at(mb, f.path_of("micro_batch"),
              fmt::format("'{}': global_batch / dp = {} sequences per replica is not a multiple of micro_batch {}",
                          f.path_of("micro_batch"), c.global_batch / c.dp, c.micro_batch));
    if ((c.model.seq_len * c.micro_batch) % c.tp != 0)
      fail_at(mb, f.path_of("micro_batch"),
              fmt::format("'{}': the tokens of a micro-batch (seq_len · micro_batch = {}) are not divisible by tp {} "
                          "(sequence parallelism)",
                          f.path_of("micro_batch"), c.model.seq_len * c.micro_batch, c.tp));
  }

  if (const ConfigNode* s = f.optional("schedule")) {
    const std::string name = read_choice(*s, f.path_of("schedule"), {"gpipe", "1f1b", "interleaved", "auto"});
    c.schedule = name == "gpipe"         ? PipelineSchedule::gpipe
                 : name == "1f1b"        ? PipelineSchedule::one_f_one_b
                 : name == "interleaved" ? PipelineSchedule::interleaved
                                         : PipelineSchedule::automatic;
  }
  const ConfigNode* v = f.optional("virtual_stages");
  if (v != nullptr && c.schedule != PipelineSchedule::interleaved && c.schedule != PipelineSchedule::automatic)
    fail_at(*v, f.path_of("virtual_stages"),
            fmt::format("'{}' applies to schedule interleaved or auto only", f.path_of("virtual_stages")));
  c.virtual_stages = v != nullptr ? read_integer_in(*v, f.path_of("virtual_stages"), 2, 1'000) : 2;
  if (c.schedule == PipelineSchedule::interleaved) {
    const ConfigNode& at = v != nullptr ? *v : f.required("schedule");
    const std::string at_path = f.path_of(v != nullptr ? "virtual_stages" : "schedule");
    if (c.pp < 2) fail_at(f.required("schedule"), f.path_of("schedule"), "interleaved needs parallel.pp >= 2");
    if (c.model.layers % (c.pp * c.virtual_stages) != 0)
      fail_at(at, at_path,
              fmt::format("'{}': layers {} are not divisible by pp · virtual_stages = {}", at_path, c.model.layers,
                          c.pp * c.virtual_stages));
    if (moe && (c.model.layers / (c.pp * c.virtual_stages)) % c.model.moe.every != 0)
      fail_at(at, at_path,
              fmt::format("'{}': a model chunk's {} layers are not a multiple of model.moe.every {}", at_path,
                          c.model.layers / (c.pp * c.virtual_stages), c.model.moe.every));
    if (c.micro_batch > 0 && (c.global_batch / (c.dp * c.micro_batch)) % c.pp != 0)
      fail_at(at, at_path,
              fmt::format("'{}': interleaving needs the micro-batches per replica ({}) to be a multiple of pp {}",
                          at_path, c.global_batch / (c.dp * c.micro_batch), c.pp));
  }
  if (const ConfigNode* r = f.optional("recompute")) {
    const std::string name = read_choice(*r, f.path_of("recompute"), {"none", "selective", "full"});
    c.recompute = name == "none" ? Recompute::none : name == "selective" ? Recompute::selective : Recompute::full;
  }
  if (const ConfigNode* o = f.optional("overlap")) {
    const MapFields of(*o, f.path_of("overlap"), {"strategy"});
    const std::string name = read_choice(of.required("strategy"), of.path_of("strategy"),
                                         {"none", "sequential", "intrafusion", "interdecom", "auto"});
    c.overlap = name == "none"          ? TrainingOverlap::none
                : name == "sequential"  ? TrainingOverlap::sequential
                : name == "intrafusion" ? TrainingOverlap::intrafusion
                : name == "interdecom"  ? TrainingOverlap::interdecom
                                        : TrainingOverlap::automatic;
    if (c.overlap != TrainingOverlap::none && c.tp < 2)
      fail_at(of.required("strategy"), of.path_of("strategy"),
              fmt::format("'{}': an overlap strategy rewrites TP GEMM + collective pairs; parallel.tp is 1",
                          of.path_of("strategy")));
  }
  if (const ConfigNode* g = f.optional("gradient_reduce"))
    c.gradient_reduce = read_choice(*g, f.path_of("gradient_reduce"), {"all_reduce", "reduce_scatter"}) == "all_reduce"
                            ? GradientReduce::all_reduce
                            : GradientReduce::reduce_scatter;
  if (const ConfigNode* b = f.optional("gradient_bucket")) {
    const int64_t bytes = read_byte_count(*b, f.path_of("gradient_bucket"));
    if (bytes < 1) fail_at(*b, f.path_of("gradient_bucket"), fmt::format("'{}' must be positive", f.path_of("gradient_bucket")));
    c.gradient_bucket_bytes = static_cast<double>(bytes);
  }
}

}  // namespace parallax
