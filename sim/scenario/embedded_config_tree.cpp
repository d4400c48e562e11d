// File: sim/scenario/embedded_config_tree.cpp
#include "sim/scenario/embedded_config_tree.h"

#include <string>

namespace parallax {

namespace {

// The node at records[next] and everything below it; moves `next` past them.
ConfigNode rebuild(const EmbeddedConfigTree& tree, size_t& next, const std::string& file) {
  const EmbeddedConfigRecord& r = tree.records[next++];
  ConfigNode out;
  out.kind = r.kind;
  out.where = SourceLocation{file, r.line, r.column};
  out.scalar = tree.text.substr(r.scalar_at, r.scalar_size);
  if (r.kind == ConfigNode::Kind::sequence) {
    out.items.reserve(r.children);
    for (uint32_t c = 0; c < r.children; ++c) out.items.push_back(rebuild(tree, next, file));
  } else if (r.kind == ConfigNode::Kind::map) {
    out.entries.reserve(r.children);
    for (uint32_t c = 0; c < r.children; ++c) {
      const EmbeddedConfigRecord& k = tree.records[next];
      ConfigEntry entry{std::string(tree.text.substr(k.key_at, k.key_size)), SourceLocation{file, k.key_line, k.key_column}, {}};
      entry.value = rebuild(tree, next, file);
      out.entries.push_back(std::move(entry));
    }
  }
  return out;
}

}  // namespace

std::optional<ConfigNode> embedded_config_tree(std::string_view path) {
  for (const EmbeddedConfigTree& t : embedded_config_trees()) {
    if (t.path != path) continue;
    size_t next = 0;
    return rebuild(t, next, std::string(path));
  }
  return std::nullopt;
}

}  // namespace parallax
