// File: models/network_shapes.cpp
#include "models/network_shapes.h"

#include <fmt/format.h>

#include <stdexcept>

namespace parallax {

const char* to_string(OpKind k) {
  switch (k) {
    case OpKind::conv: return "conv";
    case OpKind::depthwise: return "depthwise";
    case OpKind::gemm: return "gemm";
    case OpKind::batched_gemm: return "batched_gemm";
    case OpKind::elementwise: return "elementwise";
    case OpKind::norm: return "norm";
    case OpKind::pool: return "pool";
    case OpKind::copy: return "copy";
  }
  return "?";
}

double NetworkShape::macs() const {
  double s = 0;
  for (const LayerOp& o : ops) s += o.macs;
  return s;
}

double NetworkShape::parameters() const {
  double s = unused_weight_elements;
  for (const LayerOp& o : ops) s += o.weight_elements;
  return s;
}

double NetworkShape::state_elements() const {
  double s = parameters() + unused_stat_elements;
  for (const LayerOp& o : ops) s += o.stat_elements;
  return s;
}

namespace {

// One sample's activation: channels x height x width.
struct Act {
  int64_t c = 0, h = 0, w = 0;
  double size() const { return static_cast<double>(c) * h * w; }
};

int64_t conv_out(int64_t in, int k, int stride, int pad) { return (in + 2 * pad - k) / stride + 1; }

// Appends the ops of a vision model, one call per PyTorch module call of its forward pass.
class VisionBuilder {
 public:
  explicit VisionBuilder(NetworkShape& net) : net_(net), n_(net.batch) {}

  Act conv(const std::string& name, Act x, int64_t cout, int kh, int kw, int stride, int ph, int pw,
           int64_t groups = 1, bool bias = false) {
    const Act y{cout, conv_out(x.h, kh, stride, ph), conv_out(x.w, kw, stride, pw)};
    LayerOp op;
    op.name = name;
    op.kind = groups > 1 && groups == x.c && groups == cout ? OpKind::depthwise : OpKind::conv;
    op.m = n_ * y.h * y.w;
    op.n = cout / groups;
    op.k = x.c / groups * kh * kw;
    op.batch = groups;
    op.macs = static_cast<double>(op.m) * op.n * op.k * op.batch;
    op.elements = n_ * y.size();
    op.input_elements = n_ * x.size();
    op.weight_elements = static_cast<double>(cout) * (x.c / groups) * kh * kw + (bias ? cout : 0);
    op.weight_reads = op.weight_elements;
    net_.ops.push_back(std::move(op));
    return y;
  }
  Act conv(const std::string& name, Act x, int64_t cout, int k, int stride = 1, int pad = 0) {
    return conv(name, x, cout, k, k, stride, pad, pad);
  }
  // Batch norm in eval mode: a scale and shift per channel (weight, bias) from the running
  // statistics (mean, var), one elementwise pass.
  Act batch_norm(const std::string& name, Act x) {
    LayerOp& op = elementwise(name, x, 1);
    op.weight_elements = op.weight_reads = 2.0 * x.c;
    op.stat_elements = 2.0 * x.c;
    return x;
  }
  Act activation(const std::string& name, Act x) {
    elementwise(name, x, 1);
    return x;
  }
  Act add(const std::string& name, Act x) {
    elementwise(name, x, 2);
    return x;
  }
  // x times a per-channel factor (squeeze-and-excitation).
  Act scale(const std::string& name, Act x) {
    LayerOp& op = elementwise(name, x, 1);
    op.input_elements += static_cast<double>(n_) * x.c;
    return x;
  }
  Act pool(const std::string& name, Act x, int k, int stride, int pad) {
    const Act y{x.c, conv_out(x.h, k, stride, pad), conv_out(x.w, k, stride, pad)};
    push_pool(name, x, y);
    return y;
  }
  Act global_pool(const std::string& name, Act x) {
    const Act y{x.c, 1, 1};
    push_pool(name, x, y);
    return y;
  }
  // torch.cat along channels: every input is read and the whole result written.
  Act cat(const std::string& name, const std::vector<Act>& parts) {
    Act y = parts.front();
    y.c = 0;
    for (const Act& p : parts) y.c += p.c;
    LayerOp op;
    op.name = name;
    op.kind = OpKind::copy;
    op.elements = op.input_elements = n_ * y.size();
    net_.ops.push_back(std::move(op));
    return y;
  }
  // A linear layer over the batch's feature vectors.
  void linear(const std::string& name, int64_t in, int64_t out, bool bias = true) {
    LayerOp op;
    op.name = name;
    op.kind = OpKind::gemm;
    op.m = n_;
    op.n = out;
    op.k = in;
    op.macs = static_cast<double>(op.m) * op.n * op.k;
    op.elements = static_cast<double>(n_) * out;
    op.input_elements = static_cast<double>(n_) * in;
    op.weight_elements = op.weight_reads = static_cast<double>(in) * out + (bias ? out : 0);
    net_.ops.push_back(std::move(op));
  }
  // Conv (no bias) + batch norm + activation: torchvision's Conv2dNormActivation / BasicConv2d.
  Act conv_bn_act_hw(const std::string& name, Act x, int64_t cout, int kh, int kw, int stride, int ph, int pw,
                     bool act = true, int64_t groups = 1) {
    Act y = conv(name + ".conv", x, cout, kh, kw, stride, ph, pw, groups);
    y = batch_norm(name + ".bn", y);
    return act ? activation(name + ".act", y) : y;
  }
  Act conv_bn_act(const std::string& name, Act x, int64_t cout, int k, int stride = 1, int pad = 0, bool act = true,
                  int64_t groups = 1) {
    return conv_bn_act_hw(name, x, cout, k, k, stride, pad, pad, act, groups);
  }

 private:
  LayerOp& elementwise(const std::string& name, Act x, int inputs) {
    LayerOp op;
    op.name = name;
    op.kind = OpKind::elementwise;
    op.elements = n_ * x.size();
    op.input_elements = inputs * op.elements;
    net_.ops.push_back(std::move(op));
    return net_.ops.back();
  }
  void push_pool(const std::string& name, Act x, Act y) {
    LayerOp op;
    op.name = name;
    op.kind = OpKind::pool;
    op.elements = n_ * y.size();
    op.input_elements = n_ * x.size();
    net_.ops.push_back(std::move(op));
  }

  NetworkShape& net_;
  int64_t n_;
};

// ---- ResNet (torchvision v1.5 Bottleneck) -------------------------------------------------------

void build_resnet(NetworkShape& net, std::vector<int> blocks) {
  VisionBuilder b(net);
  Act x{3, 224, 224};
  x = b.conv_bn_act("stem", x, 64, 7, 2, 3);
  x = b.pool("stem.maxpool", x, 3, 2, 1);
  const int64_t planes[] = {64, 128, 256, 512};
  for (int stage = 0; stage < 4; ++stage) {
    for (int i = 0; i < blocks[stage]; ++i) {
      const std::string name = fmt::format("layer{}.{}", stage + 1, i);
      const int stride = i == 0 && stage > 0 ? 2 : 1;
      const int64_t p = planes[stage];
      Act y = b.conv_bn_act(name + ".1", x, p, 1);
      y = b.conv_bn_act(name + ".2", y, p, 3, stride, 1);
      y = b.conv_bn_act(name + ".3", y, 4 * p, 1, 1, 0, false);
      if (i == 0) b.conv_bn_act(name + ".downsample", x, 4 * p, 1, stride, 0, false);
      y = b.add(name + ".add", y);
      x = b.activation(name + ".relu", y);
    }
  }
  x = b.global_pool("avgpool", x);
  b.linear("fc", x.c, 1000);
}

// ---- DenseNet (torchvision: growth 32, bottleneck 4x, compression 0.5) ---------------------------

void build_densenet(NetworkShape& net, std::vector<int> layers) {
  VisionBuilder b(net);
  Act x{3, 224, 224};
  x = b.conv_bn_act("stem", x, 64, 7, 2, 3);
  x = b.pool("stem.maxpool", x, 3, 2, 1);
  constexpr int64_t kGrowth = 32, kBottleneck = 4 * 32;
  for (size_t blk = 0; blk < layers.size(); ++blk) {
    std::vector<Act> features{x};
    for (int l = 0; l < layers[blk]; ++l) {
      const std::string name = fmt::format("denseblock{}.{}", blk + 1, l + 1);
      // Each layer concatenates everything before it (torch.cat), then BN-ReLU-conv twice.
      Act in = features.size() == 1 ? features.front() : b.cat(name + ".cat", features);
      Act y = b.batch_norm(name + ".bn1", in);
      y = b.activation(name + ".relu1", y);
      y = b.conv(name + ".conv1", y, kBottleneck, 1);
      y = b.batch_norm(name + ".bn2", y);
      y = b.activation(name + ".relu2", y);
      y = b.conv(name + ".conv2", y, kGrowth, 3, 1, 1);
      features.push_back(y);
    }
    x = b.cat(fmt::format("denseblock{}.out", blk + 1), features);
    if (blk + 1 < layers.size()) {
      const std::string name = fmt::format("transition{}", blk + 1);
      x = b.batch_norm(name + ".bn", x);
      x = b.activation(name + ".relu", x);
      x = b.conv(name + ".conv", x, x.c / 2, 1);
      x = b.pool(name + ".avgpool", x, 2, 2, 0);
    }
  }
  x = b.batch_norm("norm5", x);
  x = b.activation("relu5", x);
  x = b.global_pool("avgpool", x);
  b.linear("classifier", x.c, 1000);
}

// ---- Inception v3 (torchvision, eval) ------------------------------------------------------------

Act inception_a(VisionBuilder& b, const std::string& n, Act x, int64_t pool_features) {
  const Act b1 = b.conv_bn_act(n + ".branch1x1", x, 64, 1);
  Act b5 = b.conv_bn_act(n + ".branch5x5_1", x, 48, 1);
  b5 = b.conv_bn_act(n + ".branch5x5_2", b5, 64, 5, 1, 2);
  Act b3 = b.conv_bn_act(n + ".branch3x3dbl_1", x, 64, 1);
  b3 = b.conv_bn_act(n + ".branch3x3dbl_2", b3, 96, 3, 1, 1);
  b3 = b.conv_bn_act(n + ".branch3x3dbl_3", b3, 96, 3, 1, 1);
  Act bp = b.pool(n + ".avgpool", x, 3, 1, 1);
  bp = b.conv_bn_act(n + ".branch_pool", bp, pool_features, 1);
  return b.cat(n + ".cat", {b1, b5, b3, bp});
}

Act inception_b(VisionBuilder& b, const std::string& n, Act x) {
  const Act b3 = b.conv_bn_act(n + ".branch3x3", x, 384, 3, 2);
  Act bd = b.conv_bn_act(n + ".branch3x3dbl_1", x, 64, 1);
  bd = b.conv_bn_act(n + ".branch3x3dbl_2", bd, 96, 3, 1, 1);
  bd = b.conv_bn_act(n + ".branch3x3dbl_3", bd, 96, 3, 2);
  const Act bp = b.pool(n + ".maxpool", x, 3, 2, 0);
  return b.cat(n + ".cat", {b3, bd, bp});
}

Act inception_c(VisionBuilder& b, const std::string& n, Act x, int64_t c7) {
  const Act b1 = b.conv_bn_act(n + ".branch1x1", x, 192, 1);
  Act b7 = b.conv_bn_act(n + ".branch7x7_1", x, c7, 1);
  b7 = b.conv_bn_act_hw(n + ".branch7x7_2", b7, c7, 1, 7, 1, 0, 3);
  b7 = b.conv_bn_act_hw(n + ".branch7x7_3", b7, 192, 7, 1, 1, 3, 0);
  Act bd = b.conv_bn_act(n + ".branch7x7dbl_1", x, c7, 1);
  bd = b.conv_bn_act_hw(n + ".branch7x7dbl_2", bd, c7, 7, 1, 1, 3, 0);
  bd = b.conv_bn_act_hw(n + ".branch7x7dbl_3", bd, c7, 1, 7, 1, 0, 3);
  bd = b.conv_bn_act_hw(n + ".branch7x7dbl_4", bd, c7, 7, 1, 1, 3, 0);
  bd = b.conv_bn_act_hw(n + ".branch7x7dbl_5", bd, 192, 1, 7, 1, 0, 3);
  Act bp = b.pool(n + ".avgpool", x, 3, 1, 1);
  bp = b.conv_bn_act(n + ".branch_pool", bp, 192, 1);
  return b.cat(n + ".cat", {b1, b7, bd, bp});
}

Act inception_d(VisionBuilder& b, const std::string& n, Act x) {
  Act b3 = b.conv_bn_act(n + ".branch3x3_1", x, 192, 1);
  b3 = b.conv_bn_act(n + ".branch3x3_2", b3, 320, 3, 2);
  Act b7 = b.conv_bn_act(n + ".branch7x7x3_1", x, 192, 1);
  b7 = b.conv_bn_act_hw(n + ".branch7x7x3_2", b7, 192, 1, 7, 1, 0, 3);
  b7 = b.conv_bn_act_hw(n + ".branch7x7x3_3", b7, 192, 7, 1, 1, 3, 0);
  b7 = b.conv_bn_act(n + ".branch7x7x3_4", b7, 192, 3, 2);
  const Act bp = b.pool(n + ".maxpool", x, 3, 2, 0);
  return b.cat(n + ".cat", {b3, b7, bp});
}

Act inception_e(VisionBuilder& b, const std::string& n, Act x) {
  const Act b1 = b.conv_bn_act(n + ".branch1x1", x, 320, 1);
  const Act b3 = b.conv_bn_act(n + ".branch3x3_1", x, 384, 1);
  const Act b3a = b.conv_bn_act_hw(n + ".branch3x3_2a", b3, 384, 1, 3, 1, 0, 1);
  const Act b3b = b.conv_bn_act_hw(n + ".branch3x3_2b", b3, 384, 3, 1, 1, 1, 0);
  const Act b3c = b.cat(n + ".branch3x3.cat", {b3a, b3b});
  Act bd = b.conv_bn_act(n + ".branch3x3dbl_1", x, 448, 1);
  bd = b.conv_bn_act(n + ".branch3x3dbl_2", bd, 384, 3, 1, 1);
  const Act bda = b.conv_bn_act_hw(n + ".branch3x3dbl_3a", bd, 384, 1, 3, 1, 0, 1);
  const Act bdb = b.conv_bn_act_hw(n + ".branch3x3dbl_3b", bd, 384, 3, 1, 1, 1, 0);
  const Act bdc = b.cat(n + ".branch3x3dbl.cat", {bda, bdb});
  Act bp = b.pool(n + ".avgpool", x, 3, 1, 1);
  bp = b.conv_bn_act(n + ".branch_pool", bp, 192, 1);
  return b.cat(n + ".cat", {b1, b3c, bdc, bp});
}

void build_inception_v3(NetworkShape& net) {
  VisionBuilder b(net);
  Act x{3, 299, 299};
  x = b.conv_bn_act("Conv2d_1a_3x3", x, 32, 3, 2);
  x = b.conv_bn_act("Conv2d_2a_3x3", x, 32, 3);
  x = b.conv_bn_act("Conv2d_2b_3x3", x, 64, 3, 1, 1);
  x = b.pool("maxpool1", x, 3, 2, 0);
  x = b.conv_bn_act("Conv2d_3b_1x1", x, 80, 1);
  x = b.conv_bn_act("Conv2d_4a_3x3", x, 192, 3);
  x = b.pool("maxpool2", x, 3, 2, 0);
  x = inception_a(b, "Mixed_5b", x, 32);
  x = inception_a(b, "Mixed_5c", x, 64);
  x = inception_a(b, "Mixed_5d", x, 64);
  x = inception_b(b, "Mixed_6a", x);
  x = inception_c(b, "Mixed_6b", x, 128);
  x = inception_c(b, "Mixed_6c", x, 160);
  x = inception_c(b, "Mixed_6d", x, 160);
  x = inception_c(b, "Mixed_6e", x, 192);
  x = inception_d(b, "Mixed_7a", x);
  x = inception_e(b, "Mixed_7b", x);
  x = inception_e(b, "Mixed_7c", x);
  x = b.global_pool("avgpool", x);
  b.linear("fc", x.c, 1000);
  // AuxLogits runs only in training: conv0 768→128 1x1 and conv1 128→768 5x5 (each with batch
  // norm), fc 768→1000.
  net.unused_weight_elements = 768.0 * 128 + 2 * 128 + 128.0 * 768 * 25 + 2 * 768 + 768.0 * 1000 + 1000;
  net.unused_stat_elements = 2 * 128 + 2 * 768;
}

// ---- EfficientNet-B0 (torchvision MBConv with squeeze-and-excitation, SiLU) ----------------------

void build_efficientnet_b0(NetworkShape& net) {
  VisionBuilder b(net);
  Act x{3, 224, 224};
  x = b.conv_bn_act("stem", x, 32, 3, 2, 1);
  struct Stage {
    int expand, kernel, stride;
    int64_t out;
    int layers;
  };
  const Stage stages[] = {{1, 3, 1, 16, 1},  {6, 3, 2, 24, 2},  {6, 5, 2, 40, 2}, {6, 3, 2, 80, 3},
                          {6, 5, 1, 112, 3}, {6, 5, 2, 192, 4}, {6, 3, 1, 320, 1}};
  int index = 0;
  for (const Stage& s : stages) {
    for (int l = 0; l < s.layers; ++l, ++index) {
      const std::string name = fmt::format("features.{}", index);
      const int stride = l == 0 ? s.stride : 1;
      const Act in = x;
      const int64_t expanded = in.c * s.expand;
      Act y = in;
      if (s.expand != 1) y = b.conv_bn_act(name + ".expand", y, expanded, 1);
      y = b.conv_bn_act(name + ".depthwise", y, expanded, s.kernel, stride, (s.kernel - 1) / 2, true, expanded);
      // Squeeze-and-excitation: global pool, two 1x1 convs with bias, SiLU and sigmoid, scale.
      const int64_t squeeze = std::max<int64_t>(1, in.c / 4);
      Act se = b.global_pool(name + ".se.pool", y);
      se = b.conv(name + ".se.fc1", se, squeeze, 1, 1, 1, 0, 0, 1, true);
      se = b.activation(name + ".se.act", se);
      se = b.conv(name + ".se.fc2", se, expanded, 1, 1, 1, 0, 0, 1, true);
      b.activation(name + ".se.sigmoid", se);
      y = b.scale(name + ".se.scale", y);
      y = b.conv_bn_act(name + ".project", y, s.out, 1, 1, 0, false);
      if (stride == 1 && in.c == s.out) y = b.add(name + ".add", y);
      x = y;
    }
  }
  x = b.conv_bn_act("head", x, 1280, 1);
  x = b.global_pool("avgpool", x);
  b.linear("classifier", x.c, 1000);
}

// ---- Transformers -------------------------------------------------------------------------------

struct TransformerConfig {
  enum class Style { bert, gpt2, llama } style = Style::bert;
  int layers = 0;
  int64_t hidden = 0, heads = 0, intermediate = 0, vocab = 0, positions = 0;
  bool pooler = false;       // BertModel's pooler (dense + tanh on the first token)
  bool qa_head = false;      // BertForQuestionAnswering's span head (hidden → 2 per token)
  bool lm_last_token = false;  // LM head on the last token only
  bool tied_lm_head = false;   // GPT-2 shares the token embedding
};

class TransformerBuilder {
 public:
  TransformerBuilder(NetworkShape& net, const TransformerConfig& c)
      : net_(net), c_(c), b_(net.batch), s_(net.sequence), t_(b_ * s_) {}

  void build() {
    embeddings();
    for (int l = 0; l < c_.layers; ++l) layer(fmt::format("layers.{}", l));
    head();
  }

 private:
  using Style = TransformerConfig::Style;

  LayerOp& push(const std::string& name, OpKind kind, double elements, double inputs) {
    LayerOp op;
    op.name = name;
    op.kind = kind;
    op.elements = elements;
    op.input_elements = inputs;
    net_.ops.push_back(std::move(op));
    return net_.ops.back();
  }
  void linear(const std::string& name, int64_t rows, int64_t in, int64_t out, bool bias) {
    LayerOp& op = push(name, OpKind::gemm, static_cast<double>(rows) * out, static_cast<double>(rows) * in);
    op.m = rows;
    op.n = out;
    op.k = in;
    op.macs = static_cast<double>(rows) * out * in;
    op.weight_elements = op.weight_reads = static_cast<double>(in) * out + (bias ? out : 0);
  }
  void elementwise(const std::string& name, double elements, int inputs = 1) {
    push(name, OpKind::elementwise, elements, inputs * elements);
  }
  // LayerNorm (scale and bias) or RMSNorm (scale only) over rows of `hidden`.
  void norm(const std::string& name, int64_t rows) {
    const double e = static_cast<double>(rows) * c_.hidden;
    LayerOp& op = push(name, OpKind::norm, e, e);
    op.weight_elements = op.weight_reads = (c_.style == Style::llama ? 1.0 : 2.0) * c_.hidden;
  }
  void gather(const std::string& name, int64_t table_rows, int64_t rows) {
    const double e = static_cast<double>(rows) * c_.hidden;
    LayerOp& op = push(name, OpKind::copy, e, 0);
    op.weight_elements = static_cast<double>(table_rows) * c_.hidden;
    op.weight_reads = e;
  }

  void embeddings() {
    const double e = static_cast<double>(t_) * c_.hidden;
    switch (c_.style) {
      case Style::bert:
        gather("embeddings.word", c_.vocab, t_);
        gather("embeddings.position", c_.positions, t_);
        gather("embeddings.token_type", 2, t_);
        elementwise("embeddings.add", e, 3);
        norm("embeddings.norm", t_);
        break;
      case Style::gpt2:
        gather("wte", c_.vocab, t_);
        gather("wpe", c_.positions, t_);
        elementwise("embeddings.add", e, 2);
        break;
      case Style::llama:
        gather("embed_tokens", c_.vocab, t_);
        break;
    }
  }

  void attention(const std::string& n) {
    const int64_t d = c_.hidden / c_.heads;
    const bool bias = c_.style != Style::llama;
    const double hidden_e = static_cast<double>(t_) * c_.hidden;
    if (c_.style == Style::gpt2) {
      linear(n + ".qkv", t_, c_.hidden, 3 * c_.hidden, true);
    } else {
      linear(n + ".q", t_, c_.hidden, c_.hidden, bias);
      linear(n + ".k", t_, c_.hidden, c_.hidden, bias);
      linear(n + ".v", t_, c_.hidden, c_.hidden, bias);
    }
    if (c_.style == Style::llama) {
      elementwise(n + ".rotary_q", hidden_e, 2);
      elementwise(n + ".rotary_k", hidden_e, 2);
    }
    const double scores = static_cast<double>(b_) * c_.heads * s_ * s_;
    LayerOp& qk = push(n + ".scores", OpKind::batched_gemm, scores, 2 * hidden_e);
    qk.m = s_;
    qk.n = s_;
    qk.k = d;
    qk.batch = b_ * c_.heads;
    qk.macs = scores * d;
    elementwise(n + ".scale_mask", scores, 2);
    push(n + ".softmax", OpKind::norm, scores, scores);
    LayerOp& pv = push(n + ".context", OpKind::batched_gemm, hidden_e, scores + hidden_e);
    pv.m = s_;
    pv.n = d;
    pv.k = s_;
    pv.batch = b_ * c_.heads;
    pv.macs = scores * d;
    linear(n + ".out", t_, c_.hidden, c_.hidden, bias);
  }

  void mlp(const std::string& n) {
    const double inner = static_cast<double>(t_) * c_.intermediate;
    if (c_.style == Style::llama) {
      linear(n + ".gate", t_, c_.hidden, c_.intermediate, false);
      linear(n + ".up", t_, c_.hidden, c_.intermediate, false);
      elementwise(n + ".silu", inner);
      elementwise(n + ".mul", inner, 2);
      linear(n + ".down", t_, c_.intermediate, c_.hidden, false);
    } else {
      linear(n + ".fc1", t_, c_.hidden, c_.intermediate, true);
      elementwise(n + ".gelu", inner);
      linear(n + ".fc2", t_, c_.intermediate, c_.hidden, true);
    }
  }

  void layer(const std::string& n) {
    const double e = static_cast<double>(t_) * c_.hidden;
    if (c_.style == Style::bert) {  // post-norm
      attention(n + ".attn");
      elementwise(n + ".attn.add", e, 2);
      norm(n + ".attn.norm", t_);
      mlp(n + ".mlp");
      elementwise(n + ".mlp.add", e, 2);
      norm(n + ".mlp.norm", t_);
    } else {  // pre-norm
      norm(n + ".norm1", t_);
      attention(n + ".attn");
      elementwise(n + ".attn.add", e, 2);
      norm(n + ".norm2", t_);
      mlp(n + ".mlp");
      elementwise(n + ".mlp.add", e, 2);
    }
  }

  void head() {
    if (c_.pooler) {
      linear("pooler.dense", b_, c_.hidden, c_.hidden, true);
      elementwise("pooler.tanh", static_cast<double>(b_) * c_.hidden);
    }
    if (c_.qa_head) linear("qa_outputs", t_, c_.hidden, 2, true);
    if (c_.style != Style::bert) {
      norm("norm_final", t_);
      const int64_t rows = c_.lm_last_token ? b_ : t_;
      linear("lm_head", rows, c_.hidden, c_.vocab, false);
      if (c_.tied_lm_head) net_.ops.back().weight_elements = 0;  // the token embedding's table
    }
  }

  NetworkShape& net_;
  TransformerConfig c_;
  int64_t b_, s_, t_;
};

struct ModelEntry {
  const char* name;
  int64_t default_sequence;  // 0: a vision model
  int64_t max_sequence;
};

constexpr ModelEntry kModels[] = {
    {"resnet50", 0, 0},       {"resnet101", 0, 0},    {"resnet152", 0, 0},   {"densenet121", 0, 0},
    {"densenet169", 0, 0},    {"densenet201", 0, 0},  {"inception_v3", 0, 0}, {"efficientnet_b0", 0, 0},
    {"bert_base", 128, 512},  {"bert_qa", 512, 512},  {"gpt2", 128, 1024},    {"llama2_7b", 512, 4096},
    {"llama2_13b", 512, 4096}};

TransformerConfig transformer_config(std::string_view m) {
  using S = TransformerConfig::Style;
  TransformerConfig c;
  if (m == "bert_base") {
    c = {S::bert, 12, 768, 12, 3072, 30522, 512};
    c.pooler = true;
  } else if (m == "bert_qa") {
    c = {S::bert, 24, 1024, 16, 4096, 30522, 512};
    c.qa_head = true;
  } else if (m == "gpt2") {
    c = {S::gpt2, 12, 768, 12, 3072, 50257, 1024};
    c.lm_last_token = c.tied_lm_head = true;
  } else if (m == "llama2_7b") {
    c = {S::llama, 32, 4096, 32, 11008, 32000, 4096};
    c.lm_last_token = true;
  } else {  // llama2_13b
    c = {S::llama, 40, 5120, 40, 13824, 32000, 4096};
    c.lm_last_token = true;
  }
  return c;
}

}  // namespace

const std::vector<std::string>& network_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ModelEntry& e : kModels) v.emplace_back(e.name);
    return v;
  }();
  return names;
}

NetworkShape network_shape(std::string_view model, int batch, int64_t sequence) {
  const ModelEntry* entry = nullptr;
  for (const ModelEntry& e : kModels)
    if (model == e.name) entry = &e;
  if (!entry)
    throw std::invalid_argument(fmt::format("no shapes for model '{}' (one of: {})", model,
                                            fmt::join(network_names(), ", ")));
  if (batch < 1 || batch > 1 << 20)
    throw std::invalid_argument(fmt::format("batch {} out of range [1, 1048576]", batch));
  NetworkShape net;
  net.model = std::string(model);
  net.batch = batch;
  if (entry->default_sequence == 0) {
    if (sequence != 0) throw std::invalid_argument(fmt::format("{} takes no sequence length", model));
  } else {
    net.sequence = sequence == 0 ? entry->default_sequence : sequence;
    if (net.sequence < 1 || net.sequence > entry->max_sequence)
      throw std::invalid_argument(
          fmt::format("{}: sequence {} out of range [1, {}]", model, net.sequence, entry->max_sequence));
  }
  if (model == "resnet50") build_resnet(net, {3, 4, 6, 3});
  else if (model == "resnet101") build_resnet(net, {3, 4, 23, 3});
  else if (model == "resnet152") build_resnet(net, {3, 8, 36, 3});
  else if (model == "densenet121") build_densenet(net, {6, 12, 24, 16});
  else if (model == "densenet169") build_densenet(net, {6, 12, 32, 32});
  else if (model == "densenet201") build_densenet(net, {6, 12, 48, 32});
  else if (model == "inception_v3") build_inception_v3(net);
  else if (model == "efficientnet_b0") build_efficientnet_b0(net);
  else TransformerBuilder(net, transformer_config(model)).build();
  return net;
}

}  // namespace parallax
