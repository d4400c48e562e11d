// File: sim/sweep/canonical_value.cpp
#include "sim/sweep/canonical_value.h"

#include <fmt/format.h>

namespace parallax {

namespace {

// Characters that may start or appear in a plain scalar without changing how YAML reads it. The
// set is deliberately narrow: anything else is quoted, which always round-trips.
bool plain_safe(std::string_view text) {
  if (text.empty()) return false;
  if (text == "null" || text == "~" || text == "Null" || text == "NULL") return false;
  const char first = text.front();
  if (first == '-' && text.size() > 1 && text[1] == ' ') return false;
  if (first == ' ' || text.back() == ' ') return false;
  for (const char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '_' || c == '-' || c == '+' || c == '/' || c == ' ';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string canonical_scalar(std::string_view text) {
  if (plain_safe(text)) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  out += '"';
  return out;
}

std::string canonical_value(const ConfigNode& node) {
  switch (node.kind) {
    case ConfigNode::Kind::null:
      return "null";
    case ConfigNode::Kind::scalar:
      return canonical_scalar(node.scalar);
    case ConfigNode::Kind::sequence: {
      std::string out = "[";
      for (size_t i = 0; i < node.items.size(); ++i) {
        if (i > 0) out += ", ";
        out += canonical_value(node.items[i]);
      }
      return out + "]";
    }
    case ConfigNode::Kind::map: {
      std::string out = "{";
      for (size_t i = 0; i < node.entries.size(); ++i) {
        if (i > 0) out += ", ";
        out += canonical_scalar(node.entries[i].key);
        out += ": ";
        out += canonical_value(node.entries[i].value);
      }
      return out + "}";
    }
  }
  return "null";
}

}  // namespace parallax
