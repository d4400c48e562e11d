// File: tools/parallax_main.cpp
// The `parallax` command line: parses, calls the libraries, prints. Exit codes: 0 ok, 2 bad input
// (the message names file:line:col and the key) or an output that cannot be written (the message
// names the path and the reason), 1 internal failure.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hw/hw_command.h"
#include "models/calibration_data/data_error.h"
#include "sim/engine/sim_time.h"
#include "sim/io/input_file.h"
#include "sim/platform/platform.h"
#include "sim/report/output_error.h"
#include "sim/io/input_error.h"
#include "tools/bench_command.h"
#include "tools/bench_fabric.h"
#include "tools/bench_training.h"
#include "tools/cli_checks.h"
#include "tools/cli_suggestions.h"
#include "tools/compare_command.h"
#include "tools/fit_command.h"
#include "tools/bench_scale.h"
#include "tools/bench_serverless.h"
#include "tools/predict_command.h"
#include "tools/reference_command.h"
#include "tools/report_command.h"
#include "tools/run_command.h"
#include "tools/shell_completion.h"
#include "tools/sweep_command.h"
#include "sim/experiment/version.h"

namespace {

int guarded(const std::function<int()>& body) {
  try {
    const int rc = body();
    parallax::flush_standard_output();  // results lost to a failing stdout must not exit 0
    return rc;
  } catch (const parallax::InputError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::models::DataError& e) {  // measurement CSV, nccl-tests log
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::PlatformError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::TimeRangeError& e) {  // the input's figures, past what the loaders bound
    std::fprintf(stderr,
                 "error: %s: the scenario's times, rates or sizes take the run out of the clock's range "
                 "(docs/reliability.md, Ranges)\n", e.what());
    return 2;
  } catch (const parallax::InputFileError& e) {  // a FIFO, device or directory as input; over a limit
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const parallax::OutputError& e) {  // an output that cannot be written: the environment
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error: %s\n", e.what());
    return 1;
  }
}

// The command tree, whole or with one top-level command only. Built whole it is about a tenth of
// the quickstart's CPU time (CLI11 allocates every option's names, help and checks); the commands
// that read the whole tree (help, completion, reference) and any command line that does not name
// a command first get it whole.
class CommandLine {
 public:
  // `only`: the top-level command to define, or empty for all of them.
  explicit CommandLine(std::string_view only);
  bool whole() const { return only_.empty(); }
  // Parses; nullopt when the command line parsed, else the exit code after CLI11's message.
  std::optional<int> parse(int argc, char** argv);
  // Parses and says whether it did, printing nothing.
  bool parses_silently(int argc, char** argv);
  int dispatch();

 private:
  bool wanted(std::string_view name) const { return whole() || only_ == name; }
  static bool parsed(const CLI::App* cmd) { return cmd != nullptr && cmd->parsed(); }

  std::string_view only_;
  CLI::App app_{"parallax: a discrete-event simulator of GPU clusters", "parallax"};
  parallax::RunOptions run_;
  CLI::App* run_cmd_ = nullptr;
  uint64_t hold_events_ = 20'000'000;
  CLI::App* bench_engine_ = nullptr;
  std::optional<parallax::ScaleBenchmarks> scale_bench_;  // bench flows, bench overlap
  std::optional<parallax::ServerlessBench> serverless_bench_;
  std::optional<parallax::FabricBench> fabric_bench_;
  std::optional<parallax::TrainingBench> training_bench_;
  std::optional<parallax::PredictCommands> predict_;
  parallax::SweepOptions sweep_;
  CLI::App* sweep_cmd_ = nullptr;
  parallax::MergeOptions merge_;
  CLI::App* merge_cmd_ = nullptr;
  parallax::FitOptions fit_;
  CLI::App* fit_cmd_ = nullptr;
  parallax::ValidateOptions validate_;
  CLI::App* validate_cmd_ = nullptr;
  parallax::ReportOptions report_;
  CLI::App* report_cmd_ = nullptr;
  parallax::CompareOptions compare_;
  CLI::App* compare_cmd_ = nullptr;
  parallax::ReferenceCommands reference_;
  std::vector<std::string> help_topic_;
  CLI::App* help_cmd_ = nullptr;
  parallax::CompletionCommand completion_;
  parallax::hw::HwOptions hw_;
  CLI::App* hw_cmd_ = nullptr;
};

CommandLine::CommandLine(std::string_view only) : only_(only) {
  app_.set_version_flag("--version", fmt::format("parallax {} ({})", parallax::kParallaxVersion,
                                                 parallax::kParallaxGitCommit));
  app_.require_subcommand(1);

  if (wanted("run")) {
    run_cmd_ = app_.add_subcommand(
        "run", "Simulate a scenario (the embedded quickstart when FILE is omitted) and print its tables");
    run_cmd_->add_option("file", run_.scenario_path, "scenario YAML");
    run_cmd_->add_option("--out", run_.out_dir, parallax::run_out_help());
    run_cmd_->add_option("--seed", run_.seed, "root random seed (overrides the scenario's)")
        ->check(parallax::unsigned64_check());
    run_cmd_->add_option("--set", run_.overrides, "override a value: dotted.path=value (repeatable)")
        ->type_name("KEY=VALUE");
    run_cmd_->add_flag("--quiet", run_.quiet, "print nothing on success");
    run_cmd_->add_option("--chakra-out", run_.chakra_out, parallax::run_chakra_out_help())->type_name("DIR");
  }
  if (wanted("bench")) {
    CLI::App* bench_cmd = app_.add_subcommand("bench", "Performance benchmarks");
    bench_cmd->require_subcommand(1);
    bench_engine_ = bench_cmd->add_subcommand("engine", "Engine events/s on the hold model (N = 1e3, 1e5, 1e6)");
    bench_engine_->add_option("--events", hold_events_, "events fired per point")
        ->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000'000'000}))
        ->capture_default_str();
    scale_bench_.emplace(*bench_cmd);
    serverless_bench_.emplace(*bench_cmd);
    fabric_bench_.emplace(*bench_cmd);
    training_bench_.emplace(*bench_cmd);
  }
  if (wanted("predict")) predict_.emplace(app_);
  if (wanted("sweep")) sweep_cmd_ = parallax::add_sweep_subcommand(app_, sweep_);
  if (wanted("merge")) merge_cmd_ = parallax::add_merge_subcommand(app_, merge_);
  if (wanted("fit")) fit_cmd_ = parallax::add_fit_subcommand(app_, fit_);
  if (wanted("validate")) validate_cmd_ = parallax::add_validate_subcommand(app_, validate_);
  if (wanted("report")) report_cmd_ = parallax::add_report_subcommand(app_, report_);
  if (wanted("compare")) compare_cmd_ = parallax::add_compare_subcommand(app_, compare_);
  if (whole()) {
    parallax::add_reference_subcommands(app_, reference_);
    help_cmd_ = parallax::add_help_subcommand(app_, help_topic_);
    parallax::add_completion_subcommand(app_, completion_);
  }
  if (wanted("hw")) hw_cmd_ = parallax::hw::add_hw_subcommand(app_, hw_);
}

std::optional<int> CommandLine::parse(int argc, char** argv) {
  try {
    app_.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    if (const std::optional<std::string> unmatched = parallax::unmatched_arguments_message(app_)) {
      std::fputs(unmatched->c_str(), stderr);
      return 2;
    }
    const int rc = app_.exit(e);
    return rc == 0 ? 0 : 2;
  }
}

bool CommandLine::parses_silently(int argc, char** argv) {
  try {
    app_.parse(argc, argv);
    return true;
  } catch (const CLI::ParseError&) {
    return false;
  }
}

int CommandLine::dispatch() {
  if (parsed(help_cmd_)) return parallax::help_command(app_, help_topic_);
  if (parsed(completion_.cmd)) return parallax::completion_command(app_, completion_);
  if (parsed(run_cmd_)) return guarded([&] { return parallax::run_command(run_); });
  if (parsed(sweep_cmd_)) return guarded([&] { return parallax::sweep_command(sweep_); });
  if (parsed(merge_cmd_)) return guarded([&] { return parallax::merge_command(merge_); });
  if (parsed(fit_cmd_)) return guarded([&] { return parallax::fit_command(fit_); });
  if (parsed(validate_cmd_)) return guarded([&] { return parallax::validate_command(validate_); });
  if (parsed(report_cmd_)) return guarded([&] { return parallax::report_command(report_); });
  if (parsed(compare_cmd_)) return guarded([&] { return parallax::compare_command(compare_); });
  if (whole())
    if (const int rc = guarded([&] { return parallax::reference_command(app_, reference_); }); rc >= 0) return rc;
  if (parsed(hw_cmd_)) return guarded([&] { return parallax::hw::hw_command(hw_); });
  if (predict_ && predict_->parsed()) return guarded([&] { return predict_->run(); });
  if (parsed(bench_engine_)) return guarded([&] { return parallax::bench_engine(hold_events_); });
  if (scale_bench_ && scale_bench_->parsed()) return guarded([&] { return scale_bench_->run(); });
  if (serverless_bench_ && serverless_bench_->parsed()) return guarded([&] { return serverless_bench_->run(); });
  if (fabric_bench_ && fabric_bench_->parsed()) return guarded([&] { return fabric_bench_->run(); });
  if (training_bench_ && training_bench_->parsed()) return guarded([&] { return training_bench_->run(); });
  return 2;
}

// The command argv[1] names when it is one that can be built alone; else empty (the whole tree).
std::string_view lone_command(int argc, char** argv) {
  static constexpr std::array<std::string_view, 10> kAlone{"run", "bench", "predict", "sweep", "merge",
                                                            "fit", "validate", "report", "compare", "hw"};
  if (argc < 2) return {};
  for (std::string_view name : kAlone)
    if (name == argv[1]) return name;
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  std::optional<CommandLine> cli(std::in_place, lone_command(argc, argv));
  // A lone command's tree that does not parse the command line (an error, --help, a sibling's
  // name) is replaced by the whole tree, which parses it again: errors, suggestions and help read
  // exactly as they always did.
  if (!cli->whole() && !cli->parses_silently(argc, argv)) cli.emplace("");
  if (cli->whole())
    if (const std::optional<int> rc = cli->parse(argc, argv)) return *rc;
  return cli->dispatch();
}
