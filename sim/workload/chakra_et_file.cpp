// File: sim/workload/chakra_et_file.cpp
#include "sim/workload/chakra_et_file.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>

#include <google/protobuf/stubs/logging.h>
#include <zlib.h>

#include "sim/io/input_error.h"
#include "sim/io/input_file.h"

namespace parallax {

namespace {

using ChakraProtoMsg::AttributeProto;

// What libprotobuf says about a message it cannot parse (invalid UTF-8 in a string field, ...): it
// logs that to stderr; parallax keeps it for the InputError instead. The handler is installed
// once per process (SetLogHandler is not thread-safe); the text is per thread (sweeps run in
// threads).
thread_local std::string protobuf_complaint;

void keep_protobuf_complaint(google::protobuf::LogLevel, const char*, int, const std::string& message) {
  protobuf_complaint = message;
}

// Parses `bytes` into `message`; false with the complaint kept when protobuf refuses them.
bool parse_message(google::protobuf::MessageLite& message, std::string_view bytes) {
  static std::once_flag installed;
  std::call_once(installed, [] { google::protobuf::SetLogHandler(keep_protobuf_complaint); });
  protobuf_complaint.clear();
  return message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
}

std::string complaint_suffix() { return protobuf_complaint.empty() ? "" : " (protobuf: " + protobuf_complaint + ")"; }

// A base-128 varint of at most 5 bytes (a uint32 length, as Chakra's WriteVarint32 writes it) at
// bytes[pos]; nullopt when the bytes end inside it or it does not fit 32 bits.
std::optional<uint32_t> read_length_prefix(std::string_view bytes, size_t& pos) {
  uint64_t value = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (pos >= bytes.size()) return std::nullopt;
    const auto byte = static_cast<uint8_t>(bytes[pos++]);
    value |= uint64_t{byte & 0x7fu} << shift;
    if ((byte & 0x80u) == 0) {
      if (value > std::numeric_limits<uint32_t>::max()) return std::nullopt;
      return static_cast<uint32_t>(value);
    }
  }
  return std::nullopt;
}

void append_length_prefix(std::string& out, size_t length) {
  do {
    auto byte = static_cast<uint8_t>(length & 0x7fu);
    length >>= 7;
    if (length != 0) byte |= 0x80u;
    out.push_back(static_cast<char>(byte));
  } while (length != 0);
}

// Message `index` (0 = the metadata) of the file: its bytes, or an InputError saying why not.
std::string_view next_message(std::string_view bytes, size_t& pos, size_t index, const std::string& path) {
  const size_t start = pos;
  const auto what = index == 0 ? std::string("GlobalMetadata") : fmt::format("node message {}", index);
  const auto length = read_length_prefix(bytes, pos);
  if (!length)
    throw InputError({path, 0, 0}, "",
                     fmt::format("truncated or malformed length prefix of {} at byte {}", what, start));
  if (*length > bytes.size() - pos)
    throw InputError({path, 0, 0}, "",
                     fmt::format("truncated file: {} at byte {} is {} bytes long, only {} remain", what,
                                 start, *length, bytes.size() - pos));
  const auto message = bytes.substr(pos, *length);
  pos += *length;
  return message;
}

bool is_integer_case(AttributeProto::ValueCase c) {
  switch (c) {
    case AttributeProto::kInt32Val: case AttributeProto::kInt64Val: case AttributeProto::kUint32Val:
    case AttributeProto::kUint64Val: case AttributeProto::kSint32Val: case AttributeProto::kSint64Val:
    case AttributeProto::kFixed32Val: case AttributeProto::kFixed64Val: case AttributeProto::kSfixed32Val:
    case AttributeProto::kSfixed64Val:
      return true;
    default:
      return false;
  }
}

// The integer member as a signed value; uint64 values above INT64_MAX saturate (then out of range).
int64_t integer_value(const AttributeProto& a) {
  const auto from_unsigned = [](uint64_t v) {
    return v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? std::numeric_limits<int64_t>::max()
                                                                          : static_cast<int64_t>(v);
  };
  switch (a.value_case()) {
    case AttributeProto::kInt32Val: return a.int32_val();
    case AttributeProto::kInt64Val: return a.int64_val();
    case AttributeProto::kUint32Val: return a.uint32_val();
    case AttributeProto::kUint64Val: return from_unsigned(a.uint64_val());
    case AttributeProto::kSint32Val: return a.sint32_val();
    case AttributeProto::kSint64Val: return a.sint64_val();
    case AttributeProto::kFixed32Val: return a.fixed32_val();
    case AttributeProto::kFixed64Val: return from_unsigned(a.fixed64_val());
    case AttributeProto::kSfixed32Val: return a.sfixed32_val();
    case AttributeProto::kSfixed64Val: return a.sfixed64_val();
    default: return 0;
  }
}

// The integer list member as signed values, or nullopt when the attribute holds no integer list.
std::optional<std::vector<int64_t>> integer_list(const AttributeProto& a) {
  const auto copy = [](const auto& values) {
    std::vector<int64_t> out;
    for (const auto v : values) {
      if constexpr (std::is_unsigned_v<std::decay_t<decltype(v)>>)
        out.push_back(v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                          ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(v));
      else
        out.push_back(static_cast<int64_t>(v));
    }
    return out;
  };
  switch (a.value_case()) {
    case AttributeProto::kInt32List: return copy(a.int32_list().values());
    case AttributeProto::kInt64List: return copy(a.int64_list().values());
    case AttributeProto::kUint32List: return copy(a.uint32_list().values());
    case AttributeProto::kUint64List: return copy(a.uint64_list().values());
    case AttributeProto::kSint32List: return copy(a.sint32_list().values());
    case AttributeProto::kSint64List: return copy(a.sint64_list().values());
    case AttributeProto::kFixed32List: return copy(a.fixed32_list().values());
    case AttributeProto::kFixed64List: return copy(a.fixed64_list().values());
    case AttributeProto::kSfixed32List: return copy(a.sfixed32_list().values());
    case AttributeProto::kSfixed64List: return copy(a.sfixed64_list().values());
    default: return std::nullopt;
  }
}

}  // namespace

std::string inflate_chakra_et(std::string bytes, const std::string& path) {
  if (bytes.size() < 2 || static_cast<uint8_t>(bytes[0]) != 0x1f || static_cast<uint8_t>(bytes[1]) != 0x8b)
    return bytes;
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)  // 16+: a gzip header, not zlib's
    throw std::runtime_error("zlib: inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(bytes.data());
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  int status = Z_OK;
  while (status == Z_OK) {
    if (out.size() >= kMaxInputFileBytes) {
      inflateEnd(&z);
      throw InputError({path, 0, 0}, "", fmt::format("gzip-compressed ET inflates beyond {} bytes", kMaxInputFileBytes));
    }
    const size_t done = out.size();
    out.resize(done + (size_t{1} << 20));
    z.next_out = reinterpret_cast<Bytef*>(out.data() + done);
    z.avail_out = static_cast<uInt>(out.size() - done);
    status = inflate(&z, Z_NO_FLUSH);
    out.resize(out.size() - z.avail_out);
    if (status == Z_BUF_ERROR && z.avail_in == 0) break;  // the input ended inside the stream
  }
  inflateEnd(&z);
  if (status != Z_STREAM_END)
    throw InputError({path, 0, 0}, "",
                     fmt::format("corrupt or truncated gzip stream (zlib status {})", status));
  return out;
}

ChakraEtFile parse_chakra_et(std::string_view bytes, const std::string& path) {
  if (bytes.empty()) throw InputError({path, 0, 0}, "", "empty file: an ET starts with its GlobalMetadata");
  ChakraEtFile file;
  size_t pos = 0;
  const auto metadata = next_message(bytes, pos, 0, path);
  if (!parse_message(file.metadata, metadata))
    throw InputError({path, 0, 0}, "", "malformed GlobalMetadata at byte 0 (not a Chakra ET?)" + complaint_suffix());
  while (pos < bytes.size()) {
    const size_t start = pos;
    const auto message = next_message(bytes, pos, file.nodes.size() + 1, path);
    auto& node = file.nodes.emplace_back();
    if (!parse_message(node, message))
      throw InputError({path, 0, 0}, "",
                       fmt::format("malformed node message {} at byte {}{}", file.nodes.size(), start, complaint_suffix()));
  }
  return file;
}

std::string serialize_chakra_et(const ChakraEtFile& file) {
  std::string out;
  const auto append = [&out](const google::protobuf::MessageLite& m) {
    const std::string bytes = m.SerializeAsString();
    append_length_prefix(out, bytes.size());
    out += bytes;
  };
  append(file.metadata);
  for (const auto& node : file.nodes) append(node);
  return out;
}

const AttributeProto* ChakraNodeAttrs::find(std::string_view name) const {
  for (const auto& a : node_.attr())
    if (a.name() == name) return &a;
  return nullptr;
}

void ChakraNodeAttrs::fail(std::string_view field, std::string_view message) const {
  throw InputError({path_, 0, 0}, std::string(field),
                   fmt::format("node id {} ('{}'): {}: {}", node_.id(), node_.name(), field, message));
}

std::optional<int64_t> ChakraNodeAttrs::integer(std::string_view name, int64_t min, int64_t max) const {
  const auto* a = find(name);
  if (a == nullptr) return std::nullopt;
  if (!is_integer_case(a->value_case())) fail(name, "expected an integer value");
  const int64_t v = integer_value(*a);
  if (v < min || v > max) fail(name, fmt::format("{} is outside [{}, {}]", v, min, max));
  return v;
}

std::optional<double> ChakraNodeAttrs::real(std::string_view name) const {
  const auto* a = find(name);
  if (a == nullptr) return std::nullopt;
  double v = 0;
  if (a->value_case() == AttributeProto::kDoubleVal) v = a->double_val();
  else if (a->value_case() == AttributeProto::kFloatVal) v = a->float_val();
  else fail(name, "expected a double_val or float_val");
  if (!std::isfinite(v) || v < 0) fail(name, fmt::format("{} is not a finite value >= 0", v));
  return v;
}

std::optional<bool> ChakraNodeAttrs::boolean(std::string_view name) const {
  const auto* a = find(name);
  if (a == nullptr) return std::nullopt;
  if (a->value_case() != AttributeProto::kBoolVal) fail(name, "expected a bool_val");
  return a->bool_val();
}

std::optional<std::string> ChakraNodeAttrs::text(std::string_view name) const {
  const auto* a = find(name);
  if (a == nullptr) return std::nullopt;
  if (a->value_case() != AttributeProto::kStringVal) fail(name, "expected a string_val");
  return a->string_val();
}

std::optional<std::vector<int64_t>> ChakraNodeAttrs::integers(std::string_view name, int64_t min,
                                                              int64_t max) const {
  const auto* a = find(name);
  if (a == nullptr) return std::nullopt;
  auto values = integer_list(*a);
  if (!values) fail(name, "expected an integer list");
  for (const auto v : *values)
    if (v < min || v > max) fail(name, fmt::format("{} is outside [{}, {}]", v, min, max));
  return values;
}

}  // namespace parallax
