// File: sim/scenario/config_tree.cpp
#include "sim/scenario/config_tree.h"

#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace parallax {

namespace {

SourceLocation location_of(const YAML::Mark& mark, const std::string& file) {
  if (mark.is_null() || mark.line < 0) return SourceLocation{file, 0, 0};
  return SourceLocation{file, mark.line + 1, mark.column + 1};
}

// Counts the nodes a document expands to, visiting shared (aliased) nodes once per use, and
// stops at the budget: this bounds both the work here and the size of the tree built next.
bool within_budget(const YAML::Node& node, size_t& visited) {
  if (++visited > kMaxConfigNodes) return false;
  if (node.IsSequence()) {
    for (const YAML::Node& item : node)
      if (!within_budget(item, visited)) return false;
  } else if (node.IsMap()) {
    for (const auto& kv : node)
      if (!within_budget(kv.first, visited) || !within_budget(kv.second, visited)) return false;
  }
  return true;
}

class TreeBuilder {
 public:
  explicit TreeBuilder(const std::string& file) : file_(file) {}

  ConfigNode build(const YAML::Node& node, const SourceLocation& fallback) const {
    ConfigNode out;
    out.where = location_of(node.Mark(), file_);
    if (out.where.line == 0) out.where = fallback;
    switch (node.Type()) {
      case YAML::NodeType::Scalar:
        out.kind = ConfigNode::Kind::scalar;
        out.scalar = node.Scalar();
        break;
      case YAML::NodeType::Sequence:
        out.kind = ConfigNode::Kind::sequence;
        for (const YAML::Node& item : node) out.items.push_back(build(item, out.where));
        break;
      case YAML::NodeType::Map:
        out.kind = ConfigNode::Kind::map;
      {
        std::unordered_map<std::string, int> first_line;  // key -> line, for duplicates
        for (const auto& kv : node) add_entry(out, kv.first, kv.second, first_line);
        break;
      }
      default:
        out.kind = ConfigNode::Kind::null;
        break;
    }
    return out;
  }

 private:
  void add_entry(ConfigNode& map, const YAML::Node& key, const YAML::Node& value,
                 std::unordered_map<std::string, int>& first_line) const {
    const SourceLocation key_where = location_of(key.Mark(), file_);
    if (!key.IsScalar())
      throw InputError(key_where, "", fmt::format("mapping keys must be plain strings, got {}",
                                                  kind_name(key.IsMap() ? ConfigNode::Kind::map
                                                                        : ConfigNode::Kind::sequence)));
    const std::string& name = key.Scalar();
    const auto [earlier, inserted] = first_line.emplace(name, key_where.line);
    if (!inserted)
      throw InputError(key_where, name, fmt::format("duplicate key '{}' (first at line {})", name, earlier->second));
    map.entries.push_back(ConfigEntry{name, key_where, build(value, key_where)});
  }

  const std::string& file_;
};

}  // namespace

ConfigNode parse_config_tree(std::string_view text, const std::string& file) {
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(std::string(text));
  } catch (const YAML::Exception& e) {
    throw InputError(location_of(e.mark, file), "", fmt::format("YAML syntax error: {}", e.msg));
  }
  if (documents.empty()) return ConfigNode{ConfigNode::Kind::null, {}, {}, {}, SourceLocation{file, 0, 0}};
  if (documents.size() > 1)
    throw InputError(location_of(documents[1].Mark(), file), "",
                     "more than one YAML document ('---'); a file holds exactly one");
  size_t visited = 0;
  if (!within_budget(documents[0], visited))
    throw InputError(SourceLocation{file, 0, 0}, "",
                     fmt::format("document expands to more than {} nodes (aliases included); refusing it",
                                 kMaxConfigNodes));
  try {
    return TreeBuilder(file).build(documents[0], SourceLocation{file, 1, 1});
  } catch (const YAML::Exception& e) {
    throw InputError(location_of(e.mark, file), "", fmt::format("YAML error: {}", e.msg));
  }
}

std::string_view kind_name(ConfigNode::Kind kind) {
  switch (kind) {
    case ConfigNode::Kind::null: return "null";
    case ConfigNode::Kind::scalar: return "a scalar";
    case ConfigNode::Kind::sequence: return "a list";
    case ConfigNode::Kind::map: return "a mapping";
  }
  return "?";
}

const ConfigEntry* find_entry(const ConfigNode& map, std::string_view key) {
  for (const ConfigEntry& e : map.entries)
    if (e.key == key) return &e;
  return nullptr;
}

ConfigEntry* find_entry(ConfigNode& map, std::string_view key) {
  for (ConfigEntry& e : map.entries)
    if (e.key == key) return &e;
  return nullptr;
}

void relocate(ConfigNode& node, const SourceLocation& where) {
  node.where = where;
  for (ConfigNode& item : node.items) relocate(item, where);
  for (ConfigEntry& e : node.entries) {
    e.key_where = where;
    relocate(e.value, where);
  }
}

}  // namespace parallax
