#include "csa/client/engine.h"

#include <unistd.h>

#include <cstdlib>
#include <optional>

#include "csa/client/config.h"
#include "csa/client/log.h"

namespace arena::csa {

namespace {

// A bare command name as a shell would find it, plus /usr/games where Debian puts engines.
std::optional<std::string> find_on_path(const std::string& name) {
  std::string dirs = std::getenv("PATH") ? std::getenv("PATH") : "";
  dirs += ":/usr/games";
  std::size_t begin = 0;
  while (begin <= dirs.size()) {
    std::size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(begin, end - begin);
    if (!dir.empty()) {
      std::string candidate = dir + "/" + name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    begin = end + 1;
  }
  return std::nullopt;
}

}  // namespace

ClientEngine::ClientEngine(game::EngineConfig config, ProtocolLog* log) : config_(std::move(config)), log_(log) {
  name_ = config_.name.empty() ? config_.command : config_.name;
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
  std::string command = config_.command;
  if (command.empty()) {
    auto builtin = builtin_engine_path();
    if (!builtin) return std::unexpected(builtin.error());
    command = *builtin;
  } else if (command.find('/') == std::string::npos) {
    auto found = find_on_path(command);
    if (!found) return std::unexpected("engine " + command + ": not found on PATH or in /usr/games");
    command = *found;
  }
  std::string who = config_.name.empty() ? command : config_.name;

  process::ProcessSpec spec;
  spec.executable = command;
  spec.args = config_.args;
  spec.working_dir = config_.working_dir;
  spec.stderr_log = config_.stderr_log;
  spec.io_log = config_.io_log;
  spec.name = who;
  if (log_) {
    ProtocolLog* log = log_;
    spec.io_logger = [log](const process::IoEvent& e) {
      if (e.direction == '>')
        log->engine_sent(e.text);
      else
        log->engine_received(e.text);
    };
  }
  auto proc = process::EngineProcess::start(std::move(spec));
  if (!proc) return std::unexpected("engine " + who + ": " + proc.error());
  client_ = std::make_unique<usi::UsiClient>(std::move(*proc));
  client_->set_go_quirks({.fold_increments = !config_.send_increments, .swap_sides = config_.swap_btime_wtime});
  ++starts_;

  auto fail = [&](const std::string& what) -> std::expected<void, std::string> {
    std::string msg = "engine " + who + ": " + what;
    stop();
    return std::unexpected(msg);
  };
  auto deadline = usi::SteadyClock::now() + config_.startup_timeout;
  if (auto r = client_->handshake(deadline); !r.ok()) return fail("usi handshake failed (" + r.text + ")");
  if (config_.name.empty() && !client_->identity().name.empty())
    name_ = client_->identity().name;
  else
    name_ = who;
  for (const auto& [option, value] : config_.options)
    if (auto r = client_->set_option(option, value); !r.ok()) return fail(r.text);
  if (config_.ponder)
    if (auto r = client_->set_option("USI_Ponder", "true"); !r.ok()) return fail(r.text);
  if (auto r = client_->is_ready(deadline); !r.ok()) return fail("isready failed (" + r.text + ")");
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
