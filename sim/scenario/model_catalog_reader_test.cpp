// File: sim/scenario/model_catalog_reader_test.cpp
#include "sim/scenario/model_catalog_reader.h"

#include <gtest/gtest.h>

#include "sim/io/input_error.h"

namespace parallax {
namespace {

TEST(ModelCatalog, EmbeddedCatalogHasEveryModel) {
  const ModelCatalog& c = embedded_model_catalog();
  for (const char* name : {"resnet50", "resnet101", "resnet152", "densenet121", "densenet169", "densenet201",
                           "inception_v3", "efficientnet_b0", "bert_qa", "bert_base", "gpt2", "llama2_7b",
                           "llama2_13b"})
    EXPECT_NE(c.find(name), nullptr) << name;
  EXPECT_THROW(c.at("resnet15"), InputError);
}

TEST(ModelCatalog, ResNet152MatchesItsSources) {
  const CatalogModel& m = embedded_model_catalog().at("resnet152");
  EXPECT_EQ(m.param_bytes(), 60344232 * 4);              // 230.2 MiB
  EXPECT_NEAR(m.flops(), 2 * 11.5127e9, 0.01e9);
  const int v100 = catalog_gpu_kind("V100-SXM2-32GB");
  ASSERT_EQ(v100, 0);
  EXPECT_NEAR(m.measured_s[static_cast<size_t>(v100)], 0.017, 1e-12);  // Torpor Table 4 remoting
  EXPECT_NEAR(m.native_s[0], 0.025, 1e-12);
  EXPECT_EQ(m.measured_s[1], 0);                                       // A100: none
  EXPECT_EQ(m.heaviness, Heaviness::median);
  EXPECT_NEAR(m.slo_s, 0.080, 1e-12);
  EXPECT_EQ(m.layers.size(), 52u);  // stem, 50 bottleneck blocks, fc
}

TEST(ModelCatalog, RepeatExpandsLayers) {
  const CatalogModel& m = embedded_model_catalog().at("bert_qa");
  EXPECT_EQ(m.layers.size(), 26u);
  EXPECT_EQ(m.layers[1].name, "encoder_layer.0");
  EXPECT_NEAR(static_cast<double>(m.param_bytes()), 1.336e9, 0.001e9);
  const CatalogModel& l = embedded_model_catalog().at("llama2_7b");
  EXPECT_EQ(l.dtype_bytes, 2);
  EXPECT_NEAR(static_cast<double>(l.param_bytes()), 13.48e9, 0.01e9);
}

constexpr const char* kHead = R"(models:
  - name: m
    heaviness: light
    dtype: fp32
    input: x
    slo_ms: 80
    native_footprint_GB: 1
)";

std::string catalog_error_of(const std::string& tail) {
  try {
    read_model_catalog(std::string(kHead) + tail, "cat.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ModelCatalog, ErrorsAreLocated) {
  const std::string layers = "    layers: [{name: a, params: 10, gmacs: 1}]\n";
  const std::string sources =
      "    sources: {layers: a, slo_ms: b, native_footprint_GB: c, heaviness: d}\n";
  EXPECT_EQ(catalog_error_of(layers + sources), "no error");
  // A measured figure without a source.
  EXPECT_NE(catalog_error_of("    measured_ms: {V100: 3}\n" + layers + sources).find("lacks an entry for 'measured_ms.V100'"),
            std::string::npos);
  // A source for a figure that is not there.
  const std::string e = catalog_error_of(layers + "    sources: {layers: a, slo_ms: b, native_footprint_GB: c, heaviness: d, native_ms.V100: e}\n");
  EXPECT_NE(e.find("cat.yaml:9:"), std::string::npos) << e;
  EXPECT_NE(e.find("names no figure"), std::string::npos) << e;
  // Unknown GPU kind with did-you-mean, and a bad number.
  EXPECT_NE(catalog_error_of("    measured_ms: {V10: 3}\n" + layers + sources).find("did you mean 'V100'"), std::string::npos);
  EXPECT_NE(catalog_error_of("    layers: [{name: a, params: -1, gmacs: 1}]\n" + sources).find("cat.yaml:8:"), std::string::npos);
  EXPECT_NE(catalog_error_of(layers + sources + "    colour: red\n").find("unknown key"), std::string::npos);
  // An unused group runs nothing, so it cannot have multiply-accumulates.
  EXPECT_NE(catalog_error_of("    layers: [{name: a, params: 10, gmacs: 1, unused: true}]\n" + sources).find("unused but has gmacs"),
            std::string::npos);
}

TEST(ModelCatalog, InceptionAuxLogitsIsUnused) {
  const CatalogModel& m = embedded_model_catalog().at("inception_v3");
  ASSERT_EQ(m.layers.size(), 6u);
  EXPECT_EQ(m.layers[3].name, "aux_logits");
  EXPECT_TRUE(m.layers[3].unused);
  EXPECT_FALSE(m.layers[4].unused);
}

}  // namespace
}  // namespace parallax
