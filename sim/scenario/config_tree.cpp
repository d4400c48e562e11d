// File: sim/scenario/config_tree.cpp
#include "sim/scenario/config_tree.h"

#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <vector>
#include <sstream>

namespace parallax {

namespace {

SourceLocation location_of(const YAML::Mark& mark, const std::string& file) {
  if (mark.is_null() || mark.line < 0) return SourceLocation{file, 0, 0};
  return SourceLocation{file, mark.line + 1, mark.column + 1};
}

// Why a document was refused before its tree is built.
enum class Refusal { none, too_many_nodes, too_deep, recursive_alias };

// Counts the nodes a document expands to, visiting shared (aliased) nodes once per use, and
// stops at the budget: this bounds both the work here and the size of the tree built next. The
// depth limit bounds the recursion here and in TreeBuilder; an anchor whose node contains an
// alias to itself is a cycle, which the depth limit catches and the ancestor check names.
// `where` gets the node at which a depth refusal happened.
Refusal within_budget(const YAML::Node& node, size_t& visited, std::vector<YAML::Node>& ancestors,
                      YAML::Mark& where) {
  if (++visited > kMaxConfigNodes) return Refusal::too_many_nodes;
  if (!node.IsSequence() && !node.IsMap()) return Refusal::none;
  if (ancestors.size() >= kMaxConfigDepth) {
    where = node.Mark();
    for (const YAML::Node& a : ancestors)
      if (a.is(node)) return Refusal::recursive_alias;
    return Refusal::too_deep;
  }
  ancestors.push_back(node);
  Refusal r = Refusal::none;
  if (node.IsSequence()) {
    for (const YAML::Node& item : node)
      if ((r = within_budget(item, visited, ancestors, where)) != Refusal::none) break;
  } else {
    for (const auto& kv : node) {
      if ((r = within_budget(kv.first, visited, ancestors, where)) != Refusal::none) break;
      if ((r = within_budget(kv.second, visited, ancestors, where)) != Refusal::none) break;
    }
  }
  ancestors.pop_back();
  return r;
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

namespace {

// Where each document of a stream starts (the mark of its first node, or of the document start
// when it has none). Found by tests/fuzz: yaml-cpp 0.7's LoadAll loops forever on ", nn" because
// the parser yields the same empty document again and again without consuming anything, so the
// documents are counted here, at most two, and a document that does not move on is an error.
class DocumentStarts final : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> marks;

  void OnDocumentStart(const YAML::Mark& m) override {
    marks.push_back(m);
    first_node_ = true;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& m) {
    if (first_node_) marks.back() = m;
    first_node_ = false;
  }
  bool first_node_ = false;
};

// The one document of `text`, or nullopt when there is none. Throws YAML::Exception on a
// syntax error and InputError on a second document.
std::optional<YAML::Node> load_single_document(const std::string& text, const std::string& file) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentStarts starts;
  size_t documents = 0;
  while (documents < 2 && parser.HandleNextDocument(starts)) ++documents;
  if (documents == 2) {
    const YAML::Mark& second = starts.marks[1];
    if (second.pos <= starts.marks[0].pos)
      throw InputError(location_of(second, file), "", "YAML syntax error: the parser cannot get past this point");
    throw InputError(location_of(second, file), "", "more than one YAML document ('---'); a file holds exactly one");
  }
  if (documents == 0) return std::nullopt;
  return YAML::Load(text);
}

}  // namespace

ConfigNode parse_config_tree(std::string_view text, const std::string& file) {
  std::vector<YAML::Node> documents;
  try {
    if (std::optional<YAML::Node> document = load_single_document(std::string(text), file))
      documents.push_back(*document);
  } catch (const YAML::Exception& e) {
    throw InputError(location_of(e.mark, file), "", fmt::format("YAML syntax error: {}", e.msg));
  }
  if (documents.empty()) return ConfigNode{ConfigNode::Kind::null, {}, {}, {}, SourceLocation{file, 0, 0}};
  size_t visited = 0;
  std::vector<YAML::Node> ancestors;
  YAML::Mark deep_at = YAML::Mark::null_mark();
  switch (within_budget(documents[0], visited, ancestors, deep_at)) {
    case Refusal::none: break;
    case Refusal::too_many_nodes:
      throw InputError(SourceLocation{file, 0, 0}, "",
                       fmt::format("document expands to more than {} nodes (aliases included); refusing it",
                                   kMaxConfigNodes));
    case Refusal::too_deep:
      throw InputError(location_of(deep_at, file), "",
                       fmt::format("document nests lists and mappings more than {} levels deep; refusing it",
                                   kMaxConfigDepth));
    case Refusal::recursive_alias:
      throw InputError(location_of(deep_at, file), "",
                       "document contains a recursive alias (an anchored node that refers to itself); refusing it");
  }
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
