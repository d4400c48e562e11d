// File: sim/workload/chakra_et_file.h
// One Chakra execution-trace file in memory and back: a GlobalMetadata message, then Node messages,
// each preceded by its length as a base-128 varint (Chakra's protoio framing), the whole file
// optionally gzip-compressed (recognised by its magic bytes, as Chakra's reader does). The schema is sim/workload/chakra_et_def.proto. Typed access to node attributes,
// which Chakra writers fill with varying integer members (int32_val, int64_val, uint64_val ...):
// the getters accept any integer member and name the node and the attribute when the value has
// the wrong type or range.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/workload/chakra_et_def.pb.h"

namespace parallax {

struct ChakraEtFile {
  ChakraProtoMsg::GlobalMetadata metadata;
  std::vector<ChakraProtoMsg::Node> nodes;  // in file order
};

// `bytes` inflated when they start with gzip's magic (1f 8b), else unchanged. Throws InputError at
// `path` for a corrupt or truncated gzip stream, or one that inflates beyond kMaxInputFileBytes.
std::string inflate_chakra_et(std::string bytes, const std::string& path);

// Parses an ET held in `bytes` (not compressed). Throws InputError at `path` for an empty file, a truncated length
// prefix or message, or a message protobuf cannot parse, with the message's index and byte offset.
ChakraEtFile parse_chakra_et(std::string_view bytes, const std::string& path);
// The file's bytes: metadata, then each node, each length-prefixed.
std::string serialize_chakra_et(const ChakraEtFile& file);

// Attribute access on one node of the file at `path`; nullopt when the node has no attribute of
// that name. A value of the wrong type or out of range is an InputError naming the node's id and
// the attribute.
class ChakraNodeAttrs {
 public:
  ChakraNodeAttrs(const ChakraProtoMsg::Node& node, const std::string& path) : node_(node), path_(path) {}
  std::optional<int64_t> integer(std::string_view name, int64_t min, int64_t max) const;
  std::optional<double> real(std::string_view name) const;  // double_val or float_val, finite, >= 0
  std::optional<bool> boolean(std::string_view name) const;
  std::optional<std::string> text(std::string_view name) const;
  std::optional<std::vector<int64_t>> integers(std::string_view name, int64_t min, int64_t max) const;
  // An InputError at this node: "node id N ('name'): FIELD: MESSAGE", key FIELD.
  [[noreturn]] void fail(std::string_view field, std::string_view message) const;

 private:
  const ChakraProtoMsg::AttributeProto* find(std::string_view name) const;
  const ChakraProtoMsg::Node& node_;
  const std::string& path_;
};

}  // namespace parallax
