// File: tools/cli_suggestions.cpp
#include "tools/cli_suggestions.h"

#include <fmt/format.h>

#include <cstdio>

#include "sim/io/did_you_mean.h"

namespace parallax {

namespace {

std::vector<std::string> visible_subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); }))
    names.push_back(s->get_name());
  return names;
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

// "parallax sweep" for a subcommand, "parallax" for the top.
std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p != nullptr; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

// One line per unmatched word of `app` (not of its subcommands). A plain word right after an
// unknown option is taken as that option's value and not reported again.
void describe_unmatched(const CLI::App& app, std::string& out) {
  const std::vector<std::string> subs = visible_subcommand_names(app);
  bool after_unknown_option = false;
  for (const std::string& word : app.remaining(false)) {
    const bool option = word.size() > 1 && word[0] == '-';
    if (option) {
      const std::string name = word.substr(0, word.find('='));  // "--out=DIR": its name part
      out += fmt::format("error: '{}' has no option '{}'{}\n", command_path(app), name,
                         did_you_mean_suffix(name, option_names(app)));
    } else if (!after_unknown_option) {
      if (!subs.empty())
        out += fmt::format("error: unknown command '{}'{}\n",
                           app.get_parent() != nullptr ? command_path(app) + " " + word : word,
                           did_you_mean_suffix(word, subs));
      else
        out += fmt::format("error: '{}' takes no argument '{}'\n", command_path(app), word);
    }
    after_unknown_option = option && word.find('=') == std::string::npos;
  }
}

}  // namespace

std::optional<std::string> unmatched_arguments_message(const CLI::App& app) {
  std::string out;
  const CLI::App* level = &app;
  while (level != nullptr) {
    describe_unmatched(*level, out);
    const auto parsed = level->get_subcommands();
    level = parsed.empty() ? nullptr : parsed.back();
  }
  if (out.empty()) return std::nullopt;
  out += fmt::format("Run '{} help' for the commands, '{} help COMMAND' for one command's options.\n", app.get_name(),
                     app.get_name());
  return out;
}

CLI::App* add_help_subcommand(CLI::App& app, std::vector<std::string>& topic) {
  CLI::App* cmd = app.add_subcommand("help", "Print the help of parallax or of one command (help sweep, help predict collective)");
  cmd->add_option("command", topic, "the command, with its subcommands");
  return cmd;
}

int help_command(const CLI::App& app, const std::vector<std::string>& topic) {
  const CLI::App* at = &app;
  for (const std::string& word : topic) {
    const CLI::App* next = nullptr;
    for (const CLI::App* s : at->get_subcommands([](const CLI::App*) { return true; }))
      if (s->get_name() == word) next = s;
    if (next == nullptr) {
      std::fputs(fmt::format("error: unknown command '{}'{}\n", at == &app ? word : command_path(*at) + " " + word,
                             did_you_mean_suffix(word, visible_subcommand_names(*at)))
                     .c_str(),
                 stderr);
      return 2;
    }
    at = next;
  }
  // The formatter, not App::help: that prints the parsed subcommand's help (here, `help` itself).
  // The usage line is named after the path: "Usage: parallax predict collective [OPTIONS]".
  std::fputs(at->get_formatter()->make_help(at, command_path(*at), CLI::AppFormatMode::Normal).c_str(), stdout);
  return 0;
}

}  // namespace parallax
