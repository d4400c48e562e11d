// File: hw/sweep_plan.cpp
#include "hw/sweep_plan.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hw/green_split.h"

namespace parallax::hw {

namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;
constexpr int64_t kGiB = 1024 * kMiB;

// Fractions of the ceilings used only for time estimates (never for results).
constexpr double kGemmEfficiency = 0.7;
constexpr double kCopyEfficiency = 0.8;
constexpr double kPageableBps = 12e9;       // pageable host memory goes through a staging copy
constexpr double kCopyKernelPerSmBps = 60e9;  // one SM of the copy kernel, reads + writes
constexpr double kLaunchOverheadS = 5e-6;
constexpr double kPinPerByteS = 0.25 / kGiB;  // cudaMallocHost page-locking cost
constexpr int kIntensityBlocksPerSm = 8;

using Config = std::vector<std::pair<std::string, std::string>>;

std::string str(int64_t v) { return std::to_string(v); }

struct Builder {
  SweepPlan plan;
  double target_s;  // time budget of one case's repetitions

  void add(std::string family, std::string id, Config config, double one_s, int warmup = 2) {
    PlanCase c;
    c.family = std::move(family);
    c.id = std::move(id);
    c.config = std::move(config);
    c.warmup = warmup;
    c.reps = reps_for(one_s, target_s);
    c.estimated_seconds = (c.warmup + c.reps) * one_s + 2e-3;  // + per-case setup
    plan.cases.push_back(std::move(c));
  }
};

double gemm_seconds(const DeviceFacts& d, int64_t m, int64_t n, int64_t k) {
  const double flops = 2.0 * m * n * k;
  const double bytes = 2.0 * (m * k + k * n + m * n);
  return std::max(flops / (kGemmEfficiency * d.peak_flops), bytes / (kCopyEfficiency * d.hbm_Bps)) +
         kLaunchOverheadS;
}

double copy_kernel_seconds(const DeviceFacts& d, int64_t bytes, int sms) {
  const double bw = std::min(d.hbm_Bps * kCopyEfficiency, sms * kCopyKernelPerSmBps);
  return 2.0 * static_cast<double>(bytes) / bw + kLaunchOverheadS;
}

void plan_gemm(Builder& b, const DeviceFacts& d, bool quick) {
  std::vector<std::array<int64_t, 3>> shapes;
  const std::vector<int64_t> squares =
      quick ? std::vector<int64_t>{1024, 4096, 8192} : std::vector<int64_t>{256, 512, 1024, 2048, 4096, 8192, 16384};
  for (int64_t s : squares) shapes.push_back({s, s, s});
  // Token-count sweeps of transformer projections (Llama-class hidden 4096, FFN 14336).
  const std::vector<int64_t> tokens =
      quick ? std::vector<int64_t>{16, 1024, 8192} : std::vector<int64_t>{1, 16, 64, 256, 1024, 4096, 16384};
  const std::vector<std::array<int64_t, 2>> nk =
      quick ? std::vector<std::array<int64_t, 2>>{{4096, 4096}}
            : std::vector<std::array<int64_t, 2>>{{4096, 4096}, {14336, 4096}, {4096, 14336}};
  for (int64_t m : tokens)
    for (auto [n, k] : nk) shapes.push_back({m, n, k});
  for (const char* dtype : {"bf16", "fp16"}) {
    std::set<std::array<int64_t, 3>> seen;
    for (auto [m, n, k] : shapes) {
      if (!seen.insert({m, n, k}).second) continue;
      b.add("gemm", fmt::format("gemm/{}/{}x{}x{}", dtype, m, n, k),
            {{"dtype", dtype}, {"m", str(m)}, {"n", str(n)}, {"k", str(k)}}, gemm_seconds(d, m, n, k), 3);
    }
  }
}

void plan_copy(Builder& b, const DeviceFacts& d, bool quick) {
  const std::vector<int64_t> host_sizes =
      quick ? std::vector<int64_t>{2 * kMiB, 128 * kMiB}
            : std::vector<int64_t>{64 * kKiB, 2 * kMiB, 16 * kMiB, 128 * kMiB, 1 * kGiB};
  for (const char* kind : {"h2d", "d2h"})
    for (const char* mem : {"pinned", "pageable"})
      for (int64_t bytes : host_sizes) {
        const double bw = std::string_view(mem) == "pinned" ? d.host_link_Bps * kCopyEfficiency : kPageableBps;
        b.add("copy", fmt::format("copy/{}/{}/{}", kind, mem, bytes),
              {{"kind", kind}, {"host_memory", mem}, {"bytes", str(bytes)}},
              static_cast<double>(bytes) / bw + 10e-6);
      }
  const std::vector<int64_t> device_sizes =
      quick ? std::vector<int64_t>{256 * kMiB, 2 * kGiB}
            : std::vector<int64_t>{16 * kMiB, 256 * kMiB, 1 * kGiB, 4 * kGiB};
  for (int64_t bytes : device_sizes)
    b.add("copy", fmt::format("copy/d2d/none/{}", bytes), {{"kind", "d2d"}, {"host_memory", "none"}, {"bytes", str(bytes)}},
          copy_kernel_seconds(d, bytes, d.sms));
}

void plan_launch(Builder& b, bool quick) {
  const std::vector<int> counts = quick ? std::vector<int>{1, 1000} : std::vector<int>{1, 10, 1000};
  for (int n : counts)
    b.add("launch", fmt::format("launch/launch/{}", n), {{"what", "launch"}, {"kernels", str(n)}},
          n * kLaunchOverheadS + 20e-6);
  b.add("launch", "launch/sync/1", {{"what", "sync"}, {"kernels", "1"}}, 1000 * 5e-6);
  b.add("launch", "launch/event_record/1", {{"what", "event_record"}, {"kernels", "1"}}, 1000 * 3e-6);
}

// The two kernels of the co-run matrix, sized to run ~20 ms alone on the whole GPU.
struct CorunKernel {
  const char* name;
  double flops;
  double dram_bytes;
};

void plan_corun(Builder& b, const DeviceFacts& d, bool quick) {
  const double solo_s = 0.02;
  const CorunKernel kernels[] = {{"compute", d.fp32_flops * solo_s, 0},
                                 {"memory", 0, std::round(d.hbm_Bps * solo_s / kGiB) * kGiB}};
  const int blocks = d.sms * kIntensityBlocksPerSm;
  const GpuPartitioning rules = green_rules(d.name, d.sms, d.green_min_sms, d.green_multiple_sms);
  const std::vector<int> asked = quick ? std::vector<int>{32, 64} : std::vector<int>{16, 32, 64};
  // Each split: the kernel's group of s SMs and the co-runner's group with the remaining SMs.
  std::vector<std::pair<int, int>> splits;
  for (int s : asked) {
    const GreenSplit split = split_green_groups(rules, {s});
    splits.push_back({split.groups[0], split.remaining});
  }
  const auto time_on = [&](const CorunKernel& k, int sms) {
    const double share = static_cast<double>(sms) / d.sms;
    const double bw = std::min(d.hbm_Bps, sms * kCopyKernelPerSmBps);  // few SMs cannot draw all of HBM
    return std::max(k.flops / (d.fp32_flops * share), k.dram_bytes / bw) + kLaunchOverheadS;
  };
  const auto add = [&](const CorunKernel& k, const CorunKernel* w, int sms, int with_sms) {
    const std::string s = sms == 0 ? "all" : str(sms);
    const std::string ws = w == nullptr || with_sms == 0 ? "all" : str(with_sms);
    // The co-runner does three times its solo work, so it outlasts the measured kernel.
    const double wf = w ? 3 * w->flops : 0, wb = w ? 3 * w->dram_bytes : 0;
    const double one = time_on(k, sms == 0 ? d.sms : sms) * (w ? 2.0 : 1.0) +
                       (w ? time_on(*w, with_sms == 0 ? d.sms : with_sms) * 3 : 0);
    b.add("corun", fmt::format("corun/{}@{}/{}@{}", k.name, s, w ? w->name : "none", ws),
          {{"kernel", k.name},
           {"flops", fmt::format("{:.0f}", k.flops)},
           {"dram_bytes", fmt::format("{:.0f}", k.dram_bytes)},
           {"blocks", str(blocks)},
           {"with", w ? w->name : "none"},
           {"with_flops", fmt::format("{:.0f}", wf)},
           {"with_dram_bytes", fmt::format("{:.0f}", wb)},
           {"with_blocks", w ? str(blocks) : "0"},
           {"sms", s},
           {"with_sms", ws}},
          one, 1);
  };
  std::set<int> solo_sizes{0};
  for (auto [s, rest] : splits) {
    solo_sizes.insert(s);
    solo_sizes.insert(rest);
  }
  for (const CorunKernel& k : kernels)
    for (int s : solo_sizes) add(k, nullptr, s, 0);
  for (const CorunKernel& k : kernels)
    for (const CorunKernel& w : kernels) {
      add(k, &w, 0, 0);
      for (auto [s, rest] : splits) add(k, &w, s, rest);
    }
}

void plan_swap(Builder& b, const DeviceFacts& d, const std::vector<PlanOptions::Model>& models, bool quick) {
  const int64_t cap = quick ? 2 * kGiB : 16 * kGiB;
  const PlanOptions::Model* sweep_model = nullptr;
  for (const PlanOptions::Model& m : models) {
    if (m.bytes > cap || m.bytes > d.memory_bytes / 4) continue;
    if (!sweep_model && m.bytes >= 100 * kMiB) sweep_model = &m;
    std::vector<int64_t> groups{0, 2 * kMiB};
    if (sweep_model == &m)
      groups = quick ? std::vector<int64_t>{0, kMiB / 2, 2 * kMiB, 16 * kMiB}
                     : std::vector<int64_t>{0, kMiB / 2, 1 * kMiB, 2 * kMiB, 4 * kMiB, 8 * kMiB, 16 * kMiB};
    const double one = static_cast<double>(m.bytes) / (d.host_link_Bps * kCopyEfficiency) + m.layers * 20e-6;
    for (int64_t g : groups)
      b.add("swap", fmt::format("swap/{}/{}", m.name, g),
            {{"model", m.name}, {"model_bytes", str(m.bytes)}, {"layers", str(m.layers)}, {"group_bytes", str(g)},
             {"path", "pcie"}},
            one, 1);
  }
}

// The overlap families: the policy's task graphs of one tensor-parallel GEMM + reduce-scatter of
// an 8-GPU group on one GPU (hw/overlap_trial.h), the collective's hops played by a copy kernel on
// comm_sms SMs. The GEMMs are the intensity kernel at the FP32 rate, so the shapes are sized to
// keep GEMM and communication within an order of magnitude of each other.
constexpr int kOverlapTp = 8;
constexpr double kFreshPlatformS = 0.05;  // a CudaPlatform per repetition: probe, context, warm-up
constexpr int kOverlapMaxReps = 5;

struct OverlapShape {
  int64_t m, n, k;
};

OverlapTrial overlap_trial_for(const DeviceFacts& d, const OverlapShape& g) {
  OverlapTrial t;
  t.op = "gemm_rs";
  t.m = g.m;
  t.n = g.n;
  t.k = g.k;
  t.tp = kOverlapTp;
  t.sms = d.sms;
  t.green_min_sms = d.green_min_sms;
  t.green_multiple_sms = d.green_multiple_sms;
  t.flops_per_s = d.fp32_flops;
  t.hbm_Bps = d.hbm_Bps;
  t.launch_s = kLaunchOverheadS;
  return t;
}

void add_overlap(Builder& b, const DeviceFacts& d, const OverlapTrial& t, std::string id) {
  // Per-GPU GEMM m x n x k/tp at the FP32 rate, the copies on comm_sms SMs, a launch per kernel.
  const double gemm = 2.0 * t.m * t.n * (t.k / t.tp) / (kGemmEfficiency * d.fp32_flops) * d.sms /
                      (t.strategy == "sequential" ? d.sms : d.sms - t.comm_sms);
  const double comm = 2.0 * static_cast<double>(overlap_copy_bytes(t)) / std::min(d.hbm_Bps, t.comm_sms * kCopyKernelPerSmBps);
  const double kernels = (t.tp - 1) * (t.strategy == "interdecom" ? t.d : 1) + t.d;
  const double one = (t.strategy == "sequential" ? gemm + comm : std::max(gemm, comm)) + kernels * kLaunchOverheadS;
  PlanCase c;
  c.family = std::string(overlap_family(t));
  c.id = std::move(id);
  c.config = overlap_trial_config(t);
  c.warmup = 1;
  c.reps = std::min(kOverlapMaxReps, reps_for(one, b.target_s));
  c.estimated_seconds = (c.warmup + c.reps) * (one + kFreshPlatformS);
  b.plan.cases.push_back(std::move(c));
}

std::vector<OverlapShape> overlap_shapes(bool quick) {
  // Per GPU 8192x8192x1024 (GEMM-heavy) and 16384x8192x256 (communication-heavy).
  if (quick) return {{8192, 8192, 8192}};
  return {{8192, 8192, 8192}, {16384, 8192, 2048}};
}

void plan_interdecom(Builder& b, const DeviceFacts& d, bool quick) {
  const std::vector<int> ds = quick ? std::vector<int>{1, 4, 16} : std::vector<int>{1, 2, 4, 8, 16};
  const std::vector<int> comm = quick ? std::vector<int>{16} : std::vector<int>{8, 16, 32};
  for (const OverlapShape& g : overlap_shapes(quick))
    for (int sms : comm)
      for (int dd : ds) {
        OverlapTrial t = overlap_trial_for(d, g);
        t.strategy = "interdecom";
        t.d = dd;
        t.comm_sms = sms;
        add_overlap(b, d, t, fmt::format("interdecom/{}x{}x{}/tp{}/d{}/sms{}", g.m, g.n, g.k, t.tp, dd, sms));
      }
}

// The sequential baseline (stolen_sms 0: GEMM on every SM, then the copies on comm_sms SMs) and
// IntraFusion's SM stealing at each comm_sms.
void plan_intrafusion(Builder& b, const DeviceFacts& d, bool quick) {
  const std::vector<int> comm = quick ? std::vector<int>{16} : std::vector<int>{8, 16, 32};
  for (const OverlapShape& g : overlap_shapes(quick)) {
    OverlapTrial seq = overlap_trial_for(d, g);
    seq.strategy = "sequential";
    seq.comm_sms = 16;
    add_overlap(b, d, seq, fmt::format("intrafusion/{}x{}x{}/tp{}/sequential", g.m, g.n, g.k, seq.tp));
    for (int sms : comm) {
      OverlapTrial t = overlap_trial_for(d, g);
      t.strategy = "intrafusion";
      t.comm_sms = split_green_groups(green_rules(d.name, d.sms, d.green_min_sms, d.green_multiple_sms), {sms}).groups[0];
      add_overlap(b, d, t, fmt::format("intrafusion/{}x{}x{}/tp{}/stolen{}", g.m, g.n, g.k, t.tp, t.comm_sms));
    }
  }
}

// sm_scaling (issue 17 part 1): the streaming and the FMA intensity kernel alone on s SMs, so that
// `parallax fit` gets bandwidth per SM and FLOP rate per SM. Each kernel's work is sized to take
// ~2 ms alone on the whole GPU. Ridge rows: the intensity kernel with both FLOPs and bytes, at
// T_comp / T_mem = 0.5 ... 2 around the ridge point on 32 SMs (where the per-SM cap binds) and the
// whole GPU: how far their times exceed max(T_comp, T_mem) gives the smoothing exponent p of
// models/kernel_time.h (measurement_fit.h).
void plan_sm_scaling(Builder& b, const DeviceFacts& d, bool quick) {
  std::vector<int> sms = quick ? std::vector<int>{8, 32, d.sms} : std::vector<int>{8, 16, 32, 64, d.sms};
  std::sort(sms.begin(), sms.end());
  sms.erase(std::unique(sms.begin(), sms.end()), sms.end());
  const double solo_s = 2e-3;
  const double stream_bytes = std::round(d.hbm_Bps * solo_s / kMiB) * kMiB;
  const double fma_flops = std::round(d.fp32_flops * solo_s / 1e9) * 1e9;
  for (int s : sms) {
    const double bw = std::min(d.hbm_Bps, s * kCopyKernelPerSmBps);
    b.add("sm_scaling", fmt::format("sm_scaling/stream/{}", s),
          {{"kernel", "stream"}, {"sms", str(s)}, {"flops", "0"}, {"dram_bytes", fmt::format("{:.0f}", stream_bytes)}},
          stream_bytes / bw + kLaunchOverheadS);
    b.add("sm_scaling", fmt::format("sm_scaling/fma/{}", s),
          {{"kernel", "fma"}, {"sms", str(s)}, {"flops", fmt::format("{:.0f}", fma_flops)}, {"dram_bytes", "0"}},
          fma_flops / (d.fp32_flops * s / d.sms) + kLaunchOverheadS);
  }
  const std::vector<double> ratios = quick ? std::vector<double>{0.5, 1, 2} : std::vector<double>{0.5, 0.7, 1, 1.4, 2};
  for (int s : quick ? std::vector<int>{d.sms} : std::vector<int>{std::min(32, d.sms), d.sms}) {
    const double t_mem = stream_bytes / std::min(d.hbm_Bps, s * kCopyKernelPerSmBps);
    for (double ratio : ratios) {
      const double flops = std::round(ratio * t_mem * d.fp32_flops * s / d.sms / 1e6) * 1e6;
      b.add("sm_scaling", fmt::format("sm_scaling/ridge/{}/{}", s, ratio),
            {{"kernel", "ridge"}, {"sms", str(s)}, {"flops", fmt::format("{:.0f}", flops)},
             {"dram_bytes", fmt::format("{:.0f}", stream_bytes)}},
            (1 + ratio) * t_mem + kLaunchOverheadS);  // at most T_comp + T_mem (p = 1)
    }
  }
}

// Colocate: every policy that runs on one GPU at two LS loads, each a trial of `duration_s` real
// seconds with the BE loop; the node sees the GPU at the intensity kernel's FP32 rate.
void plan_colocate(Builder& b, const DeviceFacts& d, bool quick) {
  const std::vector<double> loads = quick ? std::vector<double>{0.3} : std::vector<double>{0.2, 0.5};
  for (std::string_view policy : kRealtimeColocatePolicies)
    for (double load : loads) {
      ColocateTrial t;
      t.policy = std::string(policy);
      t.ls_load = load;
      t.duration_s = quick ? 0.75 : 1.5;
      t.sms = d.sms;
      t.green_min_sms = d.green_min_sms;
      t.green_multiple_sms = d.green_multiple_sms;
      // static_split: LS gets about half the GPU, in whole green-context groups.
      t.static_ls_sms = std::max(d.green_min_sms, d.sms / 2 / d.green_multiple_sms * d.green_multiple_sms);
      t.flops_per_s = d.fp32_flops;
      t.hbm_Bps = d.hbm_Bps;
      t.launch_s = kLaunchOverheadS;
      PlanCase c;
      c.family = "colocate";
      c.id = fmt::format("colocate/{}/load{}", policy, load);
      c.config = colocate_trial_config(t);
      c.reps = 1;
      c.metrics = colocate_metrics(policy);
      // The trial, the BE kernel and LS requests in flight at its end, partitions and the platform.
      c.estimated_seconds = t.duration_s + 0.3;
      b.plan.cases.push_back(std::move(c));
    }
}

// Serverless: Torpor's policy replaying a seeded trace of three catalog models in real time.
void plan_serverless(Builder& b, const DeviceFacts& d, bool quick) {
  ServerlessTrial t;
  t.duration_s = quick ? 5 : 10;
  t.flops_per_s = d.fp32_flops;
  t.launch_s = kLaunchOverheadS;
  t.host_link_Bps = d.host_link_Bps;
  PlanCase c;
  c.family = "serverless";
  c.id = fmt::format("serverless/{}/{}s", t.policy, t.duration_s);
  c.config = serverless_trial_config(t);
  c.reps = 1;
  c.metrics = serverless_metrics();
  // The trace, the queue it leaves, the platform and the GPU memory pool.
  c.estimated_seconds = t.duration_s + 1.0;
  b.plan.cases.push_back(std::move(c));
}

// Multiplex: each policy that runs on one GPU serving resnet50 and bert_qa (batch <= 8) at two
// offered loads (fractions of the GPU's FP32 rate, split evenly between the services), each a
// trial of `duration_s` real seconds.
void plan_multiplex(Builder& b, const DeviceFacts& d, const std::vector<PlanOptions::Model>& models, bool quick) {
  MultiplexTrial base;
  base.duration_s = quick ? 0.5 : 1.0;
  base.sms = d.sms;
  base.green_min_sms = d.green_min_sms;
  base.green_multiple_sms = d.green_multiple_sms;
  base.flops_per_s = d.fp32_flops;
  base.hbm_Bps = d.hbm_Bps;
  base.launch_s = kLaunchOverheadS;
  std::vector<double> flops;
  for (const std::string& name : base.models)
    for (const PlanOptions::Model& m : models)
      if (m.name == name && m.flops > 0) flops.push_back(m.flops);
  if (flops.size() != base.models.size()) return;  // the catalog lacks a model: no multiplex cases
  const std::vector<double> loads = quick ? std::vector<double>{0.4} : std::vector<double>{0.3, 0.6};
  for (std::string_view policy : kRealtimeMultiplexPolicies)
    for (double load : loads) {
      MultiplexTrial t = base;
      t.policy = std::string(policy);
      t.rates_per_s.clear();
      for (double f : flops)
        t.rates_per_s.push_back(std::round(load / static_cast<double>(flops.size()) * kGemmEfficiency * d.fp32_flops / f));
      PlanCase c;
      c.family = "multiplex";
      c.id = fmt::format("multiplex/{}/load{}", policy, load);
      c.config = multiplex_trial_config(t);
      c.reps = 1;
      c.metrics = multiplex_metrics();
      // The trial, the batches in flight at its end, partitions and the platform.
      c.estimated_seconds = t.duration_s + 0.3;
      b.plan.cases.push_back(std::move(c));
    }
}

}  // namespace

std::vector<PlanRow> plan_rows(const PlanCase& c) {
  if (c.metrics.empty()) return {{c.id, c.config, "", "s"}};
  std::vector<PlanRow> rows;
  for (const TrialMetric& m : c.metrics) {
    PlanRow r{c.id + "/" + m.name, c.config, m.name, m.unit};
    r.config.push_back({"metric", m.name});
    rows.push_back(std::move(r));
  }
  return rows;
}

const std::string& PlanCase::get(std::string_view key) const {
  for (const auto& [k, v] : config)
    if (k == key) return v;
  throw std::invalid_argument(fmt::format("case {} has no config key '{}'", id, key));
}

int64_t PlanCase::get_int(std::string_view key) const {
  const std::string& v = get(key);
  size_t used = 0;
  const long long x = std::stoll(v, &used);
  if (used != v.size()) throw std::invalid_argument(fmt::format("case {}: {}={} is not an integer", id, key, v));
  return x;
}

std::string PlanCase::config_string() const {
  std::string s;
  for (const auto& [k, v] : config) {
    if (!s.empty()) s += ';';
    s += k + '=' + v;
  }
  return s;
}

double SweepPlan::estimated_seconds() const {
  double t = setup_seconds;
  for (const PlanCase& c : cases) t += c.estimated_seconds;
  return t;
}

size_t SweepPlan::count(std::string_view family) const {
  return static_cast<size_t>(std::count_if(cases.begin(), cases.end(), [&](const PlanCase& c) { return c.family == family; }));
}

int reps_for(double one_s, double target_s) {
  if (one_s <= 0) return 200;
  return static_cast<int>(std::clamp(std::ceil(target_s / one_s), 5.0, 200.0));
}

SweepPlan make_sweep_plan(const PlanOptions& options, const DeviceFacts& device) {
  std::vector<std::string> families;
  for (const std::string& f : options.families) {
    if (f == "overlap") {
      families.insert(families.end(), {"interdecom", "intrafusion"});
    } else {
      families.push_back(f);
    }
  }
  if (families.empty()) families.assign(std::begin(kMeasuredFamilies), std::end(kMeasuredFamilies));
  for (const std::string& f : families) {
    if (std::find(std::begin(kMeasuredFamilies), std::end(kMeasuredFamilies), f) != std::end(kMeasuredFamilies)) continue;
    throw std::invalid_argument(
        fmt::format("unknown family '{}'; measured: {} (overlap = interdecom,intrafusion)", f, fmt::join(kMeasuredFamilies, ",")));
  }
  const auto wanted = [&](std::string_view f) { return std::find(families.begin(), families.end(), f) != families.end(); };

  Builder b{{}, options.quick ? 0.03 : 0.1};
  b.plan.setup_seconds = 3.0;  // CUDA context, cuBLASLt handle, device buffers
  if (wanted("gemm")) plan_gemm(b, device, options.quick);
  if (wanted("copy")) {
    plan_copy(b, device, options.quick);
    b.plan.setup_seconds += (options.quick ? 128 * kMiB : 1 * kGiB) * kPinPerByteS;
  }
  if (wanted("launch")) plan_launch(b, options.quick);
  if (wanted("corun")) plan_corun(b, device, options.quick);
  if (wanted("sm_scaling")) plan_sm_scaling(b, device, options.quick);
  if (wanted("swap")) {
    const size_t before = b.plan.cases.size();
    plan_swap(b, device, options.models, options.quick);
    int64_t pinned = 0;
    for (size_t i = before; i < b.plan.cases.size(); ++i) pinned = std::max(pinned, b.plan.cases[i].get_int("model_bytes"));
    b.plan.setup_seconds += static_cast<double>(pinned) * kPinPerByteS;
  }
  if (wanted("interdecom")) plan_interdecom(b, device, options.quick);
  if (wanted("intrafusion")) plan_intrafusion(b, device, options.quick);
  if (wanted("colocate")) plan_colocate(b, device, options.quick);
  if (wanted("serverless")) plan_serverless(b, device, options.quick);
  if (wanted("multiplex")) plan_multiplex(b, device, options.models, options.quick);
  return std::move(b.plan);
}

}  // namespace parallax::hw
