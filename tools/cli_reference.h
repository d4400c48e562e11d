// File: tools/cli_reference.h
// docs/cli.md, generated from the CLI11 definitions of every subcommand (names, positionals,
// options, types, defaults, required flags, help text), so the reference cannot drift from the
// command line: `parallax reference cli > docs/cli.md`, and the cli_reference test compares the
// checked-in file with the output.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace parallax {

// Markdown for `app` and all its subcommands, depth first in registration order. Hidden
// subcommands (empty group) are left out. The same definitions always give the same text.
std::string cli_reference_markdown(const CLI::App& app);

}  // namespace parallax
