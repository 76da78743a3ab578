// Player: one engine process, handshaken and configured, kept across games.

#include "game/engine_start.h"
#include "game/game.h"
#include "usi/usi_client.h"

namespace arena::game {

Player::Player(EngineConfig config, std::shared_ptr<process::EventLoop> loop)
    : config_(std::move(config)), loop_(std::move(loop)), name_(engine_name(config_)) {}

Player::~Player() { stop(); }

bool Player::running() const { return client_ && client_->state() != usi::EngineState::Dead; }

bool Player::stop() {
  if (!client_) return true;
  // A dead engine gets no `quit`, only the wait for its exit: a crashed one is reaped at once (and its exit
  // status is its own, not our SIGKILL); terminate() on a reaped process is a no-op.
  return client_->quit(config_.quit_grace);
}

void Player::kill() {
  if (client_) client_->quit(std::chrono::milliseconds(0));
}

std::expected<void, std::string> Player::set_options(const OptionList& options) {
  if (!running()) return std::unexpected("engine '" + name_ + "' is not running");
  auto set = game::set_options(*client_, options, config_.startup_timeout);
  if (!set) return std::unexpected("engine '" + name_ + "' (" + config_.command + "): " + set.error());
  return {};
}

std::expected<void, std::string> Player::start() {
  if (client_) stop();
  StartSetup setup;
  setup.loop = loop_;
  auto started = start_engine(config_, std::move(setup));
  if (!started) {
    // The dead client stays, so that its pid and log remain inspectable.
    client_ = std::move(started.error().client);
    return std::unexpected(started.error().message());
  }
  client_ = std::move(started->client);
  name_ = std::move(started->name);
  for (const std::string& note : started->rule_notes) notices_.notes.push_back("engine '" + name_ + "': " + note);
  for (const std::string& warning : started->rule_warnings)
    notices_.warnings.push_back("engine '" + name_ + "': " + warning);
  // A fresh client's warnings are its handshake's (malformed option lines, skipped).
  for (const std::string& warning : client_->warnings())
    notices_.warnings.push_back("engine '" + name_ + "': " + warning);
  told_double_bestmove_ = false;
  return {};
}

Player::Notices Player::take_notices() {
  if (client_ && client_->idle_bestmoves() > 0 && !told_double_bestmove_) {
    notices_.warnings.push_back("engine '" + name_ + "' answers a go with two bestmoves: the second is ignored");
    told_double_bestmove_ = true;
  }
  return std::exchange(notices_, {});
}

}  // namespace arena::game
