#include "csa/client/engine.h"

#include "config/config.h"
#include "csa/client/config.h"
#include "csa/client/log.h"
#include "game/engine_start.h"

namespace arena::csa {

ClientEngine::ClientEngine(game::EngineConfig config, ProtocolLog* log) : config_(std::move(config)), log_(log) {
  name_ = game::engine_name(config_);
}

ClientEngine::~ClientEngine() { stop(); }

bool ClientEngine::running() const { return client_ && client_->state() != usi::EngineState::Dead; }

void ClientEngine::stop() {
  if (client_) {
    client_->quit(config_.quit_grace);
    client_.reset();
  }
}

std::expected<void, std::string> ClientEngine::start() {
  stop();
  game::EngineConfig config = config_;
  if (config.command.empty()) {
    auto builtin = builtin_engine_path();
    if (!builtin) return std::unexpected(builtin.error());
    config.command = *builtin;
  }
  game::StartSetup setup;
  if (log_) {
    ProtocolLog* log = log_;
    setup.io_logger = [log](const process::IoEvent& e) {
      if (e.direction == '>')
        log->engine_sent(e.text);
      else
        log->engine_received(e.text);
    };
  }
  ++starts_;
  auto started = game::start_engine(config, std::move(setup));
  if (!started) return std::unexpected(started.error().message());
  client_ = std::move(started->client);
  name_ = std::move(started->name);
  told_rules_ = config.rules;  // start_engine sent them with the options
  return {};
}

game::RuleOptions ClientEngine::set_rules(const game::GameRules& rules) {
  config_.rules = rules;
  if (!running()) return {};
  game::RuleOptions told = game::rule_options(client_->options(), config_.options, rules);
  // A process restarted for this game, or the last game's with the same rules, has them already.
  if (told_rules_ && told_rules_->entering_king == rules.entering_king && told_rules_->max_plies == rules.max_plies)
    return told;
  if (!told.set.empty())
    if (auto ok = game::set_options(*client_, told.set, config_.startup_timeout); !ok) {
      told.warnings.push_back("the rule options could not be set: " + ok.error());
      return told;  // tried again for the next game
    }
  told_rules_ = rules;
  return told;
}

std::expected<void, std::string> ClientEngine::set_options(const game::OptionList& options) {
  config::merge_options(config_.options, options);
  if (!running()) return start();
  if (auto ok = game::set_options(*client_, options, config_.startup_timeout); !ok)
    return std::unexpected("engine '" + name_ + "' (" + config_.command + "): " + ok.error());
  return {};
}

std::expected<void, std::string> ClientEngine::ensure_ready() {
  if (!running()) return start();
  auto r = client_->is_ready(usi::SteadyClock::now() + config_.startup_timeout);
  if (r.ok()) return {};
  // An engine that does not answer isready is no use; a fresh one might be.
  return start();
}

}  // namespace arena::csa
