#include "check/cli.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "check/check_report.h"
#include "check/checks.h"
#include "config/engine_keys.h"
#include "config/load.h"
#include "output/utf8.h"
#include "process/find_executable.h"

namespace arena::check {

void CheckCli::add_to(CLI::App& app) {
  app.footer(
      "Exit codes: 0 it plays reliably with the recommended settings; 1 it does not; 2 bad arguments.\n"
      "Examples:\n"
      "  shogi-arena check --engine cmd=/usr/games/gpsusi\n"
      "  shogi-arena check --engine cmd=./yaneuraou option.Threads=1 --quick --json");
  app.add_option("--engine", engine_, "The engine: " + config::engine_tokens_usage(config::InTournament))
      ->required()
      ->expected(1, -1);
  app.add_flag("--quick", quick_,
               "Fewer samples and shorter time profiles: about a minute for an engine that starts at once");
  app.add_flag("--no-time-profiles", no_time_profiles_,
               "Leave out the time profiles (a game's worth of moves per kind of clock: sudden death with a small "
               "increment, sudden death, Fischer, byoyomi; up to a minute each)");
  app.add_flag("--json", json_, "The report as one JSON object on stdout");
  app.add_option("--margin", margin_ms_, "The game's time tolerance per move the recommendation is against (100)")
      ->type_name("MS");
  app.add_option("--log", io_log_, "Every line to and from the engine, timestamped, appended to FILE")
      ->type_name("FILE");
}

int CheckCli::run(const std::atomic<bool>* interrupt) const {
  auto settings = config::parse_engine_tokens(engine_, config::InTournament, "");
  if (!settings) {
    std::cerr << "shogi-arena: error: --engine " << utf8::printable(settings.error()) << std::endl;
    return 2;
  }
  if (!settings->cmd) {
    std::cerr << "shogi-arena: error: --engine needs cmd=PATH" << std::endl;
    return 2;
  }
  if (settings->tc) {
    std::cerr << "shogi-arena: error: --engine tc=: the checker sends its own time controls; leave tc out" << std::endl;
    return 2;
  }
  CheckOptions options;
  config::apply_engine_settings(*settings, options.engine);
  options.engine.command = config::resolve_command(*settings->cmd, "");
  if (options.engine.command.empty()) {
    std::cerr << "shogi-arena: error: --engine: engine command " << process::not_found_text(*settings->cmd)
              << std::endl;
    return 2;
  }
  options.quick = quick_;
  options.time_profiles = !no_time_profiles_;
  options.engine.io_log = io_log_;
  options.engine.interrupt = interrupt;  // Ctrl-C during the long startup wait
  if (margin_ms_ >= 0) options.game_margin_ms = margin_ms_;
  if (!json_) {
    std::cout << "Checking " << options.engine.command << (options.quick ? " (quick)" : "") << "\n" << std::flush;
    options.on_item = [](const CheckItem& item) { std::cout << item_text(item) << std::flush; };
  }
  CheckReport report = run_checks(options, interrupt);
  // The recommended line keeps the command as given on the command line when it was found on PATH.
  game::EngineConfig shown = options.engine;
  if (settings->cmd->find('/') == std::string::npos) shown.command = *settings->cmd;
  if (json_)
    std::cout << report_json(report, shown) << std::endl;
  else
    std::cout << summary_text(report, shown) << std::flush;
  return report.exit_code();
}

}  // namespace arena::check
