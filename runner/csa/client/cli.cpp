#include "csa/client/cli.h"

#include <CLI/CLI.hpp>

#include "config/engine_keys.h"

namespace arena::csa {

namespace {

using Error = std::unexpected<std::string>;

}  // namespace

std::expected<void, std::string> apply_engine_tokens(CsaClientConfig& config, const std::vector<std::string>& tokens) {
  auto settings = config::parse_engine_tokens(tokens, config::InCsaClient, "");
  if (!settings) return Error("--engine " + settings.error());
  config::apply_engine_settings(*settings, config.engine);
  return {};
}

void CsaClientCli::add_to(CLI::App& app) {
  app.footer(
      "Examples:\n"
      "  shogi-arena csa --config configs/csa-floodgate.yaml --user me --trip secret\n"
      "  shogi-arena csa --user dev --game test-300-10F --engine cmd=fairy-stockfish option.Hash=64 --games 4");
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
  flag("--margin", "play.margin_ms", "Taken off every time budget for network and stop latency (default 1000)", "MS");
  flag("--out", "output.dir", "Folder for the CSA record of each game (default csa-games)", "DIR");
  flag("--log", "output.log", "Every line both ways, timestamped (default <out>/csa-client.log)", "FILE");
  flag("--floodgate-comments", "play.floodgate_comments", "Send Floodgate's '* score/PV comment with each move",
       "BOOL");
  flag("--restart-engine", "play.restart_engine", "A fresh engine process for every game", "BOOL");
  app.add_option("--engine", engine_,
                 "The engine: " + config::engine_tokens_usage(config::InCsaClient) + "; default: the built-in engine")
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
