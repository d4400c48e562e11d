// File: models/network_shapes_test.cpp
#include "models/network_shapes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

namespace parallax {
namespace {

struct Published {
  const char* model;
  double parameters;  // learnable parameters
  double gmacs;       // 0: none published for this input
};

// torchvision's weight tables (num_params, "GFLOPS" = multiply-accumulates at 224x224, Inception at
// 299x299) [pytorch.org/vision/stable/models/generated/torchvision.models.<name>.html]; the HF
// model cards' parameter counts (bert-base-uncased BertModel, gpt2, meta-llama/Llama-2-7b-hf,
// Llama-2-13b-hf).
constexpr Published kPublished[] = {
    {"resnet50", 25557032, 4.09},      {"resnet101", 44549160, 7.80},     {"resnet152", 60192808, 11.51},
    {"densenet121", 7978856, 2.83},    {"densenet169", 14149480, 3.36},   {"densenet201", 20013928, 4.29},
    {"inception_v3", 27161264, 5.71},  {"efficientnet_b0", 5288548, 0.39}, {"bert_base", 109482240, 0},
    {"gpt2", 124439808, 0},            {"llama2_7b", 6738415616, 0},      {"llama2_13b", 13015864320, 0}};

TEST(NetworkShapes, ParametersAndMacsMatchThePublishedFigures) {
  for (const Published& p : kPublished) {
    SCOPED_TRACE(p.model);
    const NetworkShape net = network_shape(p.model, 1);
    EXPECT_EQ(net.parameters(), p.parameters);
    // The tables round to two decimals (0.39 for EfficientNet-B0 is ±1.3 %).
    if (p.gmacs > 0) {
      EXPECT_NEAR(net.macs() / 1e9, p.gmacs, 0.0051);
    }
  }
}

TEST(NetworkShapes, TransformerMacsFollowTheSequence) {
  // GPT-2 prefill of 128 tokens, logits of the last one: 12 blocks of (12 h^2 s + 2 s^2 h) MACs
  // plus the LM head on one token (h x vocab).
  const NetworkShape g = network_shape("gpt2", 1);
  const double h = 768, s = 128;
  EXPECT_DOUBLE_EQ(g.macs(), 12 * (12 * h * h * s + 2 * s * s * h) + h * 50257);
  // Twice the batch, twice the MACs, same parameters.
  const NetworkShape g2 = network_shape("gpt2", 2);
  EXPECT_DOUBLE_EQ(g2.macs(), 2 * g.macs());
  EXPECT_EQ(g2.parameters(), g.parameters());
  EXPECT_EQ(network_shape("bert_qa", 1).sequence, 512);
  EXPECT_EQ(network_shape("bert_base", 1, 64).sequence, 64);
}

TEST(NetworkShapes, ConvolutionsAreImplicitGemms) {
  const NetworkShape r = network_shape("resnet50", 8);
  const auto find = [&](const char* name) {
    const auto it = std::find_if(r.ops.begin(), r.ops.end(), [&](const LayerOp& o) { return o.name == name; });
    EXPECT_NE(it, r.ops.end()) << name;
    return *it;
  };
  // layer1.0's 3x3 conv: 64 → 64 channels on 56x56, batch 8.
  const LayerOp c = find("layer1.0.2.conv");
  EXPECT_EQ(c.kind, OpKind::conv);
  EXPECT_EQ(c.m, 8 * 56 * 56);
  EXPECT_EQ(c.n, 64);
  EXPECT_EQ(c.k, 64 * 9);
  EXPECT_EQ(c.weight_elements, 64 * 64 * 9);
  // layer2.0 halves the map in its 3x3 conv (v1.5) and in the downsample.
  EXPECT_EQ(find("layer2.0.2.conv").m, 8 * 28 * 28);
  EXPECT_EQ(find("layer2.0.downsample.conv").m, 8 * 28 * 28);
  EXPECT_EQ(find("fc").m, 8);
  // Eager PyTorch's kernels: 53 convs, 53 batch norms, 49 ReLUs, 16 adds, 2 pools, the fc.
  const auto count = [&](OpKind k) { return std::count_if(r.ops.begin(), r.ops.end(), [&](const LayerOp& o) { return o.kind == k; }); };
  EXPECT_EQ(count(OpKind::conv), 53);
  EXPECT_EQ(count(OpKind::elementwise), 53 + 49 + 16);
  EXPECT_EQ(count(OpKind::pool), 2);
  EXPECT_EQ(r.ops.size(), 53u + 53 + 49 + 16 + 2 + 1);
}

TEST(NetworkShapes, DepthwiseConvolutionsAreOnePerChannel) {
  const NetworkShape e = network_shape("efficientnet_b0", 1);
  const auto dw = std::find_if(e.ops.begin(), e.ops.end(), [](const LayerOp& o) { return o.kind == OpKind::depthwise; });
  ASSERT_NE(dw, e.ops.end());
  EXPECT_EQ(dw->name, "features.0.depthwise.conv");
  EXPECT_EQ(dw->batch, 32);  // one product per channel
  EXPECT_EQ(dw->n, 1);
  EXPECT_EQ(dw->k, 9);
  EXPECT_EQ(dw->m, 112 * 112);
}

TEST(NetworkShapes, RefusesWhatItCannotShape) {
  EXPECT_THROW(network_shape("resnet5", 1), std::invalid_argument);
  EXPECT_THROW(network_shape("resnet50", 0), std::invalid_argument);
  EXPECT_THROW(network_shape("resnet50", 1, 128), std::invalid_argument);
  EXPECT_THROW(network_shape("gpt2", 1, 1025), std::invalid_argument);
  EXPECT_EQ(network_names().size(), 13u);
}

}  // namespace
}  // namespace parallax
