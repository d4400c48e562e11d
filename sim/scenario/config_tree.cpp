// File: sim/scenario/config_tree.cpp
#include "sim/scenario/config_tree.h"

#include <unordered_map>

#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <sstream>
#include <vector>

namespace parallax {

namespace {

SourceLocation location_of(const YAML::Mark& mark, const std::string& file) {
  if (mark.is_null() || mark.line < 0) return SourceLocation{file, 0, 0};
  return SourceLocation{file, mark.line + 1, mark.column + 1};
}

// The first document of a stream as yaml-cpp's parser reports it: one node per event, an alias
// being the index of the node its anchor named (so shared, as in YAML::Load's graph, and cyclic
// when an anchored node contains an alias to itself). Built from the same single pass that counts
// the documents; YAML::Load would scan the text a second time, which was half of a run's parse.
struct RawNode {
  ConfigNode::Kind kind = ConfigNode::Kind::null;
  YAML::Mark mark;
  std::string scalar;
  std::vector<size_t> children;  // a sequence's items; a mapping's keys and values, alternating
};

// Builds the first document's RawNode graph and records where each document starts (the mark of
// its first node, or of the document start when it has none). Found by tests/fuzz: yaml-cpp 0.7
// loops forever on ", nn" because the parser yields the same empty document again and again
// without consuming anything, so the caller counts the documents, at most two, and a document
// that does not move on is an error.
class GraphBuilder final : public YAML::EventHandler {
 public:
  std::vector<RawNode> nodes;  // nodes[0] is the first document's root, when it has one
  std::vector<YAML::Mark> starts;

  void OnDocumentStart(const YAML::Mark& m) override {
    starts.push_back(m);
    first_node_ = true;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t anchor) override { add(m, ConfigNode::Kind::null, anchor); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t anchor) override {
    note_start(m);
    if (starts.size() != 1) return;
    // The parser refuses an unknown alias itself; this only keeps a bad index out.
    if (anchor >= anchors_.size() || anchors_[anchor] == kNone) throw YAML::ParserException(m, "unknown anchor");
    attach(anchors_[anchor]);
  }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor, const std::string& value) override {
    const size_t i = add(m, ConfigNode::Kind::scalar, anchor);
    if (i != kNone) nodes[i].scalar = value;
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(add(m, ConfigNode::Kind::sequence, anchor));
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    open(add(m, ConfigNode::Kind::map, anchor));
  }
  void OnMapEnd() override { close(); }

 private:
  static constexpr size_t kNone = static_cast<size_t>(-1);

  void note_start(const YAML::Mark& m) {
    if (first_node_) starts.back() = m;
    first_node_ = false;
  }
  // A new node of the first document (kNone for later documents, whose nodes are not kept).
  size_t add(const YAML::Mark& m, ConfigNode::Kind kind, YAML::anchor_t anchor) {
    note_start(m);
    if (starts.size() != 1) return kNone;
    const size_t i = nodes.size();
    nodes.push_back(RawNode{kind, m, {}, {}});
    if (anchor != YAML::NullAnchor) {  // the parser numbers anchors 1, 2, ... in order
      if (anchors_.size() <= anchor) anchors_.resize(anchor + 1, kNone);
      anchors_[anchor] = i;
    }
    attach(i);
    return i;
  }
  void attach(size_t i) {
    if (!open_.empty()) nodes[open_.back()].children.push_back(i);
  }
  void open(size_t i) {
    if (i != kNone) open_.push_back(i);
  }
  void close() {
    if (starts.size() == 1 && !open_.empty()) open_.pop_back();
  }

  bool first_node_ = false;
  std::vector<size_t> open_;     // the sequences and mappings being filled, innermost last
  std::vector<size_t> anchors_;  // anchor -> node index
};

// Why a document was refused before its tree is built.
enum class Refusal { none, too_many_nodes, too_deep, recursive_alias };

// Counts the nodes a document expands to, visiting shared (aliased) nodes once per use, and
// stops at the budget: this bounds both the work here and the size of the tree built next. The
// depth limit bounds the recursion here and in TreeBuilder; an anchor whose node contains an
// alias to itself is a cycle, which the depth limit catches and the ancestor check names.
// `where` gets the node at which a depth refusal happened.
Refusal within_budget(const std::vector<RawNode>& nodes, size_t node, size_t& visited,
                      std::vector<size_t>& ancestors, YAML::Mark& where) {
  if (++visited > kMaxConfigNodes) return Refusal::too_many_nodes;
  const RawNode& n = nodes[node];
  if (n.kind != ConfigNode::Kind::sequence && n.kind != ConfigNode::Kind::map) return Refusal::none;
  if (ancestors.size() >= kMaxConfigDepth) {
    where = n.mark;
    for (size_t a : ancestors)
      if (a == node) return Refusal::recursive_alias;
    return Refusal::too_deep;
  }
  ancestors.push_back(node);
  Refusal r = Refusal::none;
  for (size_t child : n.children)
    if ((r = within_budget(nodes, child, visited, ancestors, where)) != Refusal::none) break;
  ancestors.pop_back();
  return r;
}

class TreeBuilder {
 public:
  TreeBuilder(const std::vector<RawNode>& nodes, const std::string& file) : nodes_(nodes), file_(file) {}

  ConfigNode build(size_t node, const SourceLocation& fallback) const {
    const RawNode& n = nodes_[node];
    ConfigNode out;
    out.kind = n.kind;
    out.where = location_of(n.mark, file_);
    if (out.where.line == 0) out.where = fallback;
    switch (n.kind) {
      case ConfigNode::Kind::scalar:
        out.scalar = n.scalar;
        break;
      case ConfigNode::Kind::sequence:
        out.items.reserve(n.children.size());
        for (size_t item : n.children) out.items.push_back(build(item, out.where));
        break;
      case ConfigNode::Kind::map: {
        std::unordered_map<std::string, int> first_line;  // key -> line, for duplicates
        out.entries.reserve(n.children.size() / 2);
        for (size_t i = 0; i + 1 < n.children.size(); i += 2)
          add_entry(out, n.children[i], n.children[i + 1], first_line);
        break;
      }
      case ConfigNode::Kind::null:
        break;
    }
    return out;
  }

 private:
  void add_entry(ConfigNode& map, size_t key, size_t value, std::unordered_map<std::string, int>& first_line) const {
    const RawNode& k = nodes_[key];
    const SourceLocation key_where = location_of(k.mark, file_);
    if (k.kind != ConfigNode::Kind::scalar)  // a null key (`~:`, `? `) says "a list", as it always has
      throw InputError(key_where, "", fmt::format("mapping keys must be plain strings, got {}",
                                                  kind_name(k.kind == ConfigNode::Kind::map ? ConfigNode::Kind::map
                                                                                            : ConfigNode::Kind::sequence)));
    const std::string& name = k.scalar;
    const auto [earlier, inserted] = first_line.emplace(name, key_where.line);
    if (!inserted)
      throw InputError(key_where, name, fmt::format("duplicate key '{}' (first at line {})", name, earlier->second));
    map.entries.push_back(ConfigEntry{name, key_where, build(value, key_where)});
  }

  const std::vector<RawNode>& nodes_;
  const std::string& file_;
};

}  // namespace

ConfigNode parse_config_tree(std::string_view text, const std::string& file) {
  GraphBuilder graph;
  try {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    size_t documents = 0;
    while (documents < 2 && parser.HandleNextDocument(graph)) ++documents;
    if (documents == 2) {
      const YAML::Mark& second = graph.starts[1];
      if (second.pos <= graph.starts[0].pos)
        throw InputError(location_of(second, file), "", "YAML syntax error: the parser cannot get past this point");
      throw InputError(location_of(second, file), "", "more than one YAML document ('---'); a file holds exactly one");
    }
    if (documents == 0) return ConfigNode{ConfigNode::Kind::null, {}, {}, {}, SourceLocation{file, 0, 0}};
  } catch (const YAML::Exception& e) {
    throw InputError(location_of(e.mark, file), "", fmt::format("YAML syntax error: {}", e.msg));
  }
  if (graph.nodes.empty()) return ConfigNode{ConfigNode::Kind::null, {}, {}, {}, SourceLocation{file, 1, 1}};
  size_t visited = 0;
  std::vector<size_t> ancestors;
  YAML::Mark deep_at = YAML::Mark::null_mark();
  switch (within_budget(graph.nodes, 0, visited, ancestors, deep_at)) {
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
  return TreeBuilder(graph.nodes, file).build(0, SourceLocation{file, 1, 1});
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
