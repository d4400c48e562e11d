// File: models/network_shapes.h
// The catalog's DNNs as the operator sequence an eager PyTorch forward pass runs, with every
// operator's real shape at a given batch (and sequence length): convolutions as the implicit GEMM a
// cuDNN-like kernel computes (M = batch·H_out·W_out, N = C_out, K = C_in/groups·k_h·k_w, one
// product per group), linear layers and attention as GEMMs or batched GEMMs, and the elementwise,
// normalisation, pooling and concatenation operators between them, each its own kernel as in eager
// mode. Sizes are element counts; the caller multiplies by the element size of its dtype.
//
// Architectures, from their reference implementations (read for the structure, no code taken):
//   ResNet-50/101/152 (torchvision v1.5: stride in the 3x3 conv), DenseNet-121/169/201, Inception
//   v3 (eval: no auxiliary head computed, its weights still in the state dict), EfficientNet-B0
//   (torchvision), BERT-base/large (HF BertModel / BertForQuestionAnswering), GPT-2 small (HF
//   GPT2LMHeadModel, tied LM head, logits of the last token), Llama-2-7B/13B (HF LlamaForCausalLM,
//   logits of the last token). The unit test holds each model's parameter count and
//   multiply-accumulates against the published figures (torchvision's weight tables, HF configs)
//   and against scenarios/models/catalog.yaml's layer groups.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace parallax {

enum class OpKind : uint8_t {
  conv,         // implicit GEMM (groups > 1: `batch` products of one group each)
  depthwise,    // groups == channels: one k_h·k_w dot product per output element, memory-bound
  gemm,         // a linear layer: [m x k] by [k x n]
  batched_gemm, // attention scores / context: `batch` products (batch·heads)
  elementwise,  // batch norm (eval), activations, residual adds, scaling, rotary embedding
  norm,         // layer norm / RMS norm / softmax: a reduction per row, then elementwise
  pool,         // max / average pooling, global average pooling
  copy,         // concatenation (torch.cat writes a new tensor), embedding gathers
};

const char* to_string(OpKind k);

struct LayerOp {
  std::string name;          // "layer1.0.conv2", "encoder.3.attn.scores"
  OpKind kind = OpKind::elementwise;
  // The matrix-multiply view (conv, depthwise, gemm, batched_gemm): `batch` independent products of
  // [m x k] by [k x n]. Zero for the other kinds.
  int64_t m = 0, n = 0, k = 0, batch = 1;
  double macs = 0;               // multiply-accumulates (FLOPs = 2·macs); 0 for non-GEMM kinds
  double elements = 0;           // output elements written
  double input_elements = 0;     // activation elements read
  double weight_elements = 0;    // learnable parameters the op owns (weights, biases, norm scales)
  double weight_reads = 0;       // parameter elements it reads: all it owns, but only the rows an
                                 // embedding gathers, and a tied LM head's shared table
  double stat_elements = 0;      // batch-norm running statistics (state dict, read in eval)
};

struct NetworkShape {
  std::string model;
  int batch = 1;
  int64_t sequence = 0;  // tokens per sample for the transformers; 0 for vision models
  std::vector<LayerOp> ops;

  // In the state dict but not used by an eval forward pass (Inception's auxiliary head).
  double unused_weight_elements = 0;
  double unused_stat_elements = 0;

  double macs() const;
  double parameters() const;      // learnable parameters, as model cards count them
  double state_elements() const;  // + batch-norm running statistics: what a swap moves
};

// The catalog's models (scenarios/models/catalog.yaml names): resnet50, resnet101, resnet152,
// densenet121, densenet169, densenet201, inception_v3, efficientnet_b0, bert_base, bert_qa, gpt2,
// llama2_7b, llama2_13b. `sequence` 0 takes the catalog's input (128 tokens for bert_base and gpt2,
// 512 for bert_qa and the Llamas); vision models take none. Throws std::invalid_argument for an
// unknown model, batch < 1, or a sequence outside [1, the model's maximum positions].
NetworkShape network_shape(std::string_view model, int batch, int64_t sequence = 0);
const std::vector<std::string>& network_names();

}  // namespace parallax
