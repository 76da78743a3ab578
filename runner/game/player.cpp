// Player: one engine process, handshaken and configured, kept across games.

#include <filesystem>

#include "game/engine_exit.h"
#include "game/game.h"
#include "usi/usi_client.h"

namespace arena::game {

using process::SteadyClock;

Player::Player(EngineConfig config, std::shared_ptr<process::EventLoop> loop)
    : config_(std::move(config)), loop_(std::move(loop)) {
  name_ = config_.name.empty() ? std::filesystem::path(config_.command).filename().string() : config_.name;
}

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

std::expected<void, std::string> Player::start() {
  if (client_) stop();
  const std::string label =
      config_.name.empty() ? std::filesystem::path(config_.command).filename().string() : config_.name;
  const std::string who = "engine '" + label + "' (" + config_.command + ")";

  process::ProcessSpec spec;
  spec.executable = config_.command;
  spec.args = config_.args;
  spec.working_dir = config_.working_dir;
  spec.stderr_log = config_.stderr_log;
  spec.io_log = config_.io_log;
  spec.name = label;
  spec.die_with_starting_thread = config_.die_with_starting_thread;
  auto proc =
      loop_ ? process::EngineProcess::start(loop_, std::move(spec)) : process::EngineProcess::start(std::move(spec));
  if (!proc) return std::unexpected(who + ": " + proc.error());
  client_ = std::make_unique<usi::UsiClient>(std::move(*proc));
  client_->set_go_quirks({.fold_increments = !config_.send_increments, .swap_sides = config_.swap_btime_wtime});

  // Leaves the client (dead, reaped) in place so its pid and log stay inspectable.
  auto fail = [&](const std::string& what) -> std::unexpected<std::string> {
    client_->quit(std::chrono::milliseconds(0));
    return std::unexpected(who + ": " + what);
  };
  auto timeout_ms = std::to_string(config_.startup_timeout.count());

  usi::Result r = client_->handshake(SteadyClock::now() + config_.startup_timeout);
  if (r.status == usi::Status::Timeout) return fail("no usiok within " + timeout_ms + " ms (startup timeout)");
  if (!r.ok()) {
    stop();
    return std::unexpected(who + ": exited during the USI handshake (" + describe_exit(client_->process()) + ")");
  }
  if (config_.name.empty() && !client_->identity().name.empty()) name_ = client_->identity().name;

  // Every option is checked before any is sent: a configuration error leaves the engine untouched.
  bool ponder_given = false;
  for (const auto& [option, value] : config_.options) {
    if (auto c = client_->check_option(option, value); !c.ok()) return fail(c.text);
    ponder_given |= usi::iequals(option, "USI_Ponder");
  }
  for (const auto& [option, value] : config_.options)
    if (auto s = client_->set_option(option, value); !s.ok()) return fail("setoption " + option + ": " + s.text);
  // GUIs always tell engines whether they will be asked to ponder; engines that do not know it ignore it.
  if (!ponder_given) {
    if (auto s = client_->set_option("USI_Ponder", config_.ponder ? "true" : "false"); !s.ok())
      return fail("setoption USI_Ponder: " + s.text);
  }

  r = client_->is_ready(SteadyClock::now() + config_.startup_timeout);
  if (r.status == usi::Status::Timeout) return fail("no readyok within " + timeout_ms + " ms (startup timeout)");
  if (!r.ok()) {
    stop();
    return std::unexpected(who + ": exited before readyok (" + describe_exit(client_->process()) + ")");
  }
  return {};
}

}  // namespace arena::game
