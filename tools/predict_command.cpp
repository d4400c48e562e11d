// File: tools/predict_command.cpp
#include "tools/predict_command.h"

#include <cstdio>

#include "sim/report/json_output.h"

namespace parallax {

PredictCommands::PredictCommands(CLI::App& app) {
  predict_ = app.add_subcommand("predict", "Ask a cost model directly (JSON on stdout)");
  predict_->require_subcommand(1);
  CLI::App* c = collective_ = predict_->add_subcommand("collective", "Time of one collective on a preset's ring");
  c->add_option("--hardware", pc_.hardware, "hardware preset")->required();
  c->add_option("--op", pc_.op, "all_reduce | all_gather | reduce_scatter | all_to_all | broadcast | reduce | send_recv")->required();
  c->add_option("--gpus", pc_.gpus, "GPUs 0..P-1 (across the fabric's nodes: P/nodes on each)")->required()->check(CLI::Range(int64_t{2}, int64_t{65536}));
  c->add_option("--bytes", pc_.bytes, "nccl-tests' S, e.g. 64MiB")->required();
  c->add_option("--algo", pc_.algo, "ring | double_ring | tree | p2p | nvls | nvls_tree | pat | auto")->capture_default_str();
  c->add_option("--protocol", pc_.protocol, "LL | LL128 | Simple | auto")->capture_default_str();
  c->add_option("--calibration", pc_.calibration, "use the protocols fitted in this calibration file (parallax fit --nccl-tests)");
  c->add_option("--nodes", pc_.nodes, "copies of the preset's box joined by its fabric (dgx-a100, dgx-h100)")
      ->check(CLI::Range(1, 16384))->capture_default_str();

  CLI::App* o = overlap_ = predict_->add_subcommand("overlap", "Every overlap strategy for one GEMM + collective");
  o->add_option("--hardware", po_.hardware, "hardware preset")->required();
  o->add_option("--op", po_.op, "ag_gemm | gemm_rs | gemm_ar")->required();
  o->add_option("--m", po_.m, "GEMM rows (tokens)")->required()->check(CLI::Range(int64_t{1}, int64_t{1} << 24));
  o->add_option("--n", po_.n, "GEMM columns")->required()->check(CLI::Range(int64_t{1}, int64_t{1} << 24));
  o->add_option("--k", po_.k, "GEMM inner dimension")->required()->check(CLI::Range(int64_t{1}, int64_t{1} << 24));
  o->add_option("--tp", po_.tp, "tensor-parallel GPUs")->required()->check(CLI::Range(int64_t{1}, int64_t{65536}));

  CLI::App* q = schedule_ = predict_->add_subcommand("schedule", "The rings a topology-aware IntraFusion runs on some GPUs");
  q->add_option("--hardware", pq_.hardware, "hardware preset")->required();
  q->add_option("--op", pq_.op, "all_gather | reduce_scatter")->required();
  q->add_option("--gpus", pq_.gpus, "GPU ids of one box, e.g. 0,1,2,3")->required()->delimiter(',');
  q->add_option("--bytes", pq_.bytes, "nccl-tests' S, e.g. 64MiB")->capture_default_str();

  CLI::App* s = swap_ = predict_->add_subcommand("swap", "First-request latency with the model swapped in");
  s->add_option("--hardware", ps_.hardware, "hardware preset")->required();
  s->add_option("--model", ps_.model, "model catalog name, e.g. resnet152")->required();
  s->add_option("--path", ps_.path, "pcie | nvlink | none")->capture_default_str();
  s->add_option("--gpu", ps_.gpu, "destination GPU")->check(CLI::Range(0, 65535))->capture_default_str();
  s->add_option("--loading", ps_.loading, "pipelined | whole")->capture_default_str();

  CLI::App* m = model_ = predict_->add_subcommand("model", "A model's forward latency on part of one GPU, per kernel on request");
  m->add_option("--hardware", pm_.hardware, "hardware preset (its first GPU)")->required();
  m->add_option("--model", pm_.model, "resnet50 | resnet101 | resnet152 | densenet121 | densenet169 | densenet201 | "
                                      "inception_v3 | efficientnet_b0 | bert_base | bert_qa | gpt2 | llama2_7b | llama2_13b")
      ->required();
  m->add_option("--batch", pm_.batch, "samples per forward pass")->check(CLI::Range(1, 1 << 20))->capture_default_str();
  m->add_option("--sequence", pm_.sequence, "tokens per sample (transformers; default: the catalog's input)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  m->add_option("--sms", pm_.sms, "SMs the model may use (default: all)");
  m->add_option("--bandwidth-share", pm_.bandwidth_share, "share of HBM bandwidth, in (0, 1]")->capture_default_str();
  m->add_option("--dtype", pm_.dtype, "bf16 | fp16 | tf32")->capture_default_str();
  m->add_flag("--kernels", pm_.kernels, "list every kernel: grid, blocks per SM, SMs used, FLOPs, bytes, time");

  CLI::App* g = gemm_ = predict_->add_subcommand("gemm", "One GEMM's time and FLOP/s from the kernel model");
  g->add_option("--hardware", pg_.hardware, "hardware preset (its first GPU)")->required();
  const auto dim = CLI::Range(int64_t{1}, int64_t{2147483647});
  g->add_option("--m", pg_.m, "rows of A and C")->required()->check(dim);
  g->add_option("--n", pg_.n, "columns of B and C")->required()->check(dim);
  g->add_option("--k", pg_.k, "inner dimension")->required()->check(dim);
  g->add_option("--batch", pg_.batch, "independent products (batched GEMM)")->check(CLI::Range(int64_t{1}, int64_t{1} << 20))
      ->capture_default_str();
  g->add_option("--dtype", pg_.dtype, "bf16 | fp16 | tf32")->capture_default_str();
  g->add_option("--sms", pg_.sms, "SMs the GEMM may use (default: all)");
}

int PredictCommands::run() const {
  const nlohmann::ordered_json answer = collective_->parsed() ? predict_collective(pc_)
                                        : overlap_->parsed()  ? predict_overlap(po_)
                                        : schedule_->parsed() ? predict_schedule(pq_)
                                        : swap_->parsed()     ? predict_swap(ps_)
                                        : model_->parsed()    ? predict_model(pm_)
                                                              : predict_gemm(pg_);
  std::fputs(format_json(answer).c_str(), stdout);
  return 0;
}

}  // namespace parallax
