#include "csa/client/cli.h"

#include <CLI/CLI.hpp>

namespace arena::csa {

namespace {

using Error = std::unexpected<std::string>;

}  // namespace

std::expected<void, std::string> apply_engine_tokens(CsaClientConfig& config, const std::vector<std::string>& tokens) {
  bool args_cleared = false;
  for (const std::string& token : tokens) {
    const size_t eq = token.find('=');
    const std::string key = token.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : token.substr(eq + 1);
    if (key == "ponder" && eq == std::string::npos) {
      config.engine.ponder = true;
      continue;
    }
    if (eq == std::string::npos)
      return Error("--engine '" + token + "': expected KEY=VALUE (cmd=, name=, arg=, option.NAME=, ...)");
    if (key == "arg") {  // repeatable, one argument each (may contain spaces)
      if (!args_cleared) config.engine.args.clear();
      args_cleared = true;
      config.engine.args.push_back(value);
      continue;
    }
    if (key == "tc" || key == "st" || key == "nodes" || key == "depth")
      return Error("--engine '" + token + "': the server sets the time control (see --game)");
    std::string dotted;
    if (key.starts_with("option.")) dotted = "engine.options." + key.substr(7);
    else if (key == "args") dotted = "engine.args";
    else if (key == "cmd" || key == "name" || key == "dir" || key == "ponder" || key == "send_inc" ||
             key == "swap_btime_wtime" || key == "startup_timeout_ms" || key == "quit_grace_ms" ||
             key == "stderr_log" || key == "io_log")
      dotted = "engine." + key;
    else
      return Error("--engine '" + token +
                   "': unknown key (expected cmd, name, arg, args, dir, option.NAME, ponder, send_inc, "
                   "swap_btime_wtime, startup_timeout_ms, quit_grace_ms, stderr_log, io_log)");
    if (auto ok = set_config_value(config, dotted, value); !ok) return Error("--engine: " + ok.error());
  }
  return {};
}

void CsaClientCli::add_to(CLI::App& app) {
  app.add_option("--config", config_file_, "A YAML file like configs/csa-floodgate.yaml; flags override it")
      ->type_name("FILE");
  auto flag = [&](const char* name, const char* key, const char* help, const char* type = "TEXT") {
    flags_.push_back({key, std::nullopt});
    app.add_option(name, flags_.back().value, help)->type_name(type);
  };
  flag("--host", "server.host", "Server host name or address (default 127.0.0.1)", "HOST");
  flag("--port", "server.port", "Server port (default 4081)", "PORT");
  flag("--mode", "server.mode", "csa: LOGIN user gamename,trip (Floodgate); x1: LOGIN user pass x1, then %%GAME",
       "csa|x1");
  flag("--user", "server.user", "Login name", "NAME");
  flag("--password", "server.password", "The whole password, verbatim (CSA mode: else built from --game, --trip)");
  flag("--game", "server.game_name", "Game name, e.g. floodgate-300-10F or test-600-10 (<id>-<total>-<byoyomi>)",
       "NAME");
  flag("--trip", "server.trip", "Trip (Floodgate identity); never written to the log");
  flag("--turn", "server.turn", "Colour to ask for: + (black), - (white) or * (either)", "+|-|*");
  flag("--games", "play.games", "Games to play; 0 = until stopped (Ctrl-C)", "N");
  flag("--margin", "play.margin_ms", "Taken off every time budget for network and stop latency (default 1000)",
       "MS");
  flag("--out", "output.dir", "Folder for the CSA record of each game (default csa-games)", "DIR");
  flag("--log", "output.log", "Every line both ways, timestamped (default <out>/csa-client.log)", "FILE");
  flag("--floodgate-comments", "play.floodgate_comments", "Send Floodgate's '* score/PV comment with each move",
       "BOOL");
  flag("--restart-engine", "play.restart_engine", "A fresh engine process for every game", "BOOL");
  app.add_option("--engine", engine_,
                 "The engine: cmd=PATH [name=NAME] [arg=A ...] [option.NAME=VALUE ...] [ponder]; default: the "
                 "built-in engine")
      ->expected(1, -1);
  app.add_option("--set", sets_, "KEY=VALUE for any setting of the YAML file, e.g. server.keep_alive_s=60")
      ->type_name("KEY=VALUE")
      ->expected(1, -1);
}

std::expected<CsaClientConfig, std::string> CsaClientCli::build() const {
  CsaClientConfig config;
  if (!config_file_.empty())
    if (auto ok = load_config_file(config, config_file_); !ok) return Error(ok.error());
  for (const Flag& f : flags_)
    if (f.value)
      if (auto ok = set_config_value(config, f.key, *f.value); !ok) return Error(ok.error());
  if (auto ok = apply_engine_tokens(config, engine_); !ok) return Error(ok.error());
  for (const std::string& s : sets_) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) return Error("--set '" + s + "': expected KEY=VALUE");
    if (auto ok = set_config_value(config, s.substr(0, eq), s.substr(eq + 1)); !ok)
      return Error("--set: " + ok.error());
  }
  if (auto ok = validate(config); !ok) return Error(ok.error());
  return config;
}

}  // namespace arena::csa
