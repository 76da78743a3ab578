#pragma once
// The engine behind the CSA client: one USI process started from an EngineConfig, restartable at any time
// (between games on request, or in the middle of a game after a crash or a stall — USI engines keep no game
// state that `position` does not restore).

#include <expected>
#include <memory>
#include <optional>
#include <string>

#include "game/engine_start.h"
#include "game/game.h"
#include "usi/usi_client.h"

namespace arena::csa {

class ProtocolLog;

class ClientEngine {
 public:
  // `log` (optional) receives every line to and from the engine.
  ClientEngine(game::EngineConfig config, ProtocolLog* log);
  ~ClientEngine();
  ClientEngine(const ClientEngine&) = delete;
  ClientEngine& operator=(const ClientEngine&) = delete;

  // (Re)starts the process as every engine is started (game/engine_start.h); an empty command is the built-in
  // engine. The error names the engine.
  std::expected<void, std::string> start();
  // isready/readyok on a running engine (start() if it is not running).
  std::expected<void, std::string> ensure_ready();
  // The game's rules (from the Game_Summary), told to an engine that advertises options for them
  // (game/rule_options.h): at once if it is running and was not told these already (at its start or for the last
  // game), and at every later start. The notes and warnings are for the log; a failure to set them is one of the
  // warnings.
  game::RuleOptions set_rules(const game::GameRules& rules);
  // New values for options (an SPSA side's), sent to the running engine and kept for its later starts (a restart
  // after a crash mid-game plays on with them). The error names the engine.
  std::expected<void, std::string> set_options(const game::OptionList& options);
  // quit, a short grace period, kill; always reaped.
  void stop();
  bool running() const;

  usi::UsiClient& usi() { return *client_; }
  const game::EngineConfig& config() const { return config_; }
  // The configured name, else the engine's `id name`, else the command's file name.
  const std::string& name() const { return name_; }
  int starts() const { return starts_; }

 private:
  game::EngineConfig config_;
  ProtocolLog* log_;
  std::string name_;
  std::unique_ptr<usi::UsiClient> client_;
  int starts_ = 0;
  std::optional<game::GameRules> told_rules_;  // the rules the running process has been told
};

}  // namespace arena::csa
