// File: tools/cli_suggestions.h
// What the command line says when CLI11 rejects it: a mistyped subcommand or option is named with
// the closest real one ("unknown command 'rnu' (did you mean 'run'?)"), and `parallax help [CMD...]`
// prints a subcommand's own help. Everything else CLI11 reports itself. Scenario keys given with
// --set are suggested by the scenario loader (sim/scenario/config_fields.h), not here.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace parallax {

// After app.parse threw: the message for arguments no subcommand or option matched, each with
// its closest match at the level where it was given, or nullopt when nothing was left unmatched.
std::optional<std::string> unmatched_arguments_message(const CLI::App& app);

// `parallax help [CMD...]`: registers the subcommand; `topic` receives the words after it.
CLI::App* add_help_subcommand(CLI::App& app, std::vector<std::string>& topic);
// Prints the help of `app` walked down `topic` ("sweep", "predict collective") to stdout and
// returns 0, or names the unknown word with a suggestion on stderr and returns 2.
int help_command(const CLI::App& app, const std::vector<std::string>& topic);

}  // namespace parallax
