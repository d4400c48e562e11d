// File: tools/cli_reference.cpp
#include "tools/cli_reference.h"

#include <fmt/format.h>

namespace parallax {

namespace {

// Table cells: no newlines, and '|' would end the cell.
std::string cell(std::string text) {
  for (char& c : text)
    if (c == '\n') c = ' ';
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

void describe(const CLI::App& app, const std::string& path, std::string& out) {
  out += fmt::format("\n## `{}`\n\n", path);
  if (!app.get_description().empty()) out += cell(app.get_description()) + "\n\n";
  std::vector<std::string> positionals;
  std::vector<const CLI::Option*> options;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden
    if (o->get_name() == "--help" || o->get_name() == "--version") continue;
    options.push_back(o);
    if (o->get_positional() && o->get_lnames().empty() && o->get_snames().empty())
      positionals.push_back(o->get_required() ? o->get_name() : "[" + o->get_name() + "]");
  }
  const auto subs = app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); });
  std::string usage = path;
  if (!options.empty() && options.size() > positionals.size()) usage += " [options]";
  for (const std::string& p : positionals) usage += " " + p;
  if (!subs.empty()) usage += app.get_require_subcommand_min() > 0 ? " SUBCOMMAND" : " [SUBCOMMAND]";
  out += fmt::format("    {}\n\n", usage);
  if (!options.empty()) {
    out += "| argument | value | default | required | description |\n|---|---|---|---|---|\n";
    for (const CLI::Option* o : options) {
      std::string names;
      for (const std::string& s : o->get_snames()) names += (names.empty() ? "-" : ", -") + s;
      for (const std::string& l : o->get_lnames()) names += (names.empty() ? "--" : ", --") + l;
      if (names.empty()) names = o->get_name();
      const bool flag = o->get_type_name().empty();
      std::string value = flag ? "flag" : o->get_type_name();
      if (!flag && o->get_items_expected_max() > 1) value += " (repeatable)";
      out += fmt::format("| `{}` | {} | {} | {} | {} |\n", cell(names), cell(value),
                         o->get_default_str().empty() ? "" : "`" + cell(o->get_default_str()) + "`",
                         o->get_required() ? "yes" : "", cell(o->get_description()));
    }
  }
  if (!subs.empty()) {
    out += "\nSubcommands: ";
    for (size_t i = 0; i < subs.size(); ++i)
      out += fmt::format("{}[`{}`](#{})", i == 0 ? "" : ", ", subs[i]->get_name(),
                         [&] {  // GitHub's anchor for "## `parallax run`": "parallax-run"
                           std::string a = path + " " + subs[i]->get_name();
                           for (char& c : a)
                             if (c == ' ') c = '-';
                           return a;
                         }());
    out += "\n";
  }
  for (const CLI::App* s : subs) describe(*s, path + " " + s->get_name(), out);
}

}  // namespace

std::string cli_reference_markdown(const CLI::App& app) {
  std::string out =
      "# Command-line reference\n\n"
      "Generated from the CLI11 definitions by `parallax reference cli > docs/cli.md`; the `reference_docs` test "
      "fails when this file and the binary disagree. Exit codes: 0 success, 2 bad input (the message names "
      "file:line:col and the key), 1 internal failure.\n";
  describe(app, "parallax", out);
  return out;
}

}  // namespace parallax
