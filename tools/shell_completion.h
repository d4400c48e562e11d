// File: tools/shell_completion.h
// Bash and zsh completion scripts generated from the CLI11 definitions, so completion offers
// exactly the subcommands and options the binary has: `parallax completion bash|zsh` prints one,
// and `meson install` installs both (share/bash-completion/completions/parallax,
// share/zsh/site-functions/_parallax). Each word is completed from the subcommand path typed so
// far: its subcommands, its options, and file names where it takes no subcommand.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace parallax {

std::string bash_completion_script(const CLI::App& app);
std::string zsh_completion_script(const CLI::App& app);

// `parallax completion SHELL`.
struct CompletionCommand {
  CLI::App* cmd = nullptr;
  std::string shell;
};
void add_completion_subcommand(CLI::App& app, CompletionCommand& command);
// Prints the script for command.shell; `app` is the whole command line.
int completion_command(const CLI::App& app, const CompletionCommand& command);

}  // namespace parallax
