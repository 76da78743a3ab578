#include "check/probe_engine.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "game/engine_exit.h"
#include "game/engine_start.h"
#include "process/engine_process.h"

namespace arena::check {

using process::SteadyClock;

ProbeEngine::ProbeEngine(game::EngineConfig config) : config_(std::move(config)) {
  quirks_ = {.fold_increments = !config_.send_increments, .swap_sides = config_.swap_btime_wtime};
  static int counter = 0;
  stderr_path_ = std::filesystem::temp_directory_path() /
                 ("shogi-arena-check-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".stderr");
}

ProbeEngine::~ProbeEngine() {
  if (client_) client_->quit(Millis(500));
  std::error_code ec;
  std::filesystem::remove(stderr_path_, ec);
}

bool ProbeEngine::running() const { return client_ && client_->state() != usi::EngineState::Dead; }

void ProbeEngine::set_go_quirks(usi::GoQuirks quirks) {
  quirks_ = quirks;
  if (client_) client_->set_go_quirks(quirks);
}

std::expected<ProbeEngine::Startup, std::string> ProbeEngine::start(Millis timeout) {
  auto started = start_once(timeout);
  if (!started) abandon();
  return started;
}

std::expected<ProbeEngine::Startup, std::string> ProbeEngine::start_once(Millis timeout) {
  if (client_) client_->quit(Millis(500));
  client_.reset();
  std::error_code ec;
  const auto size = std::filesystem::file_size(stderr_path_, ec);
  stderr_offset_ = ec ? 0 : std::int64_t(size);  // this run's stderr starts here
  game::EngineConfig config = config_;
  config.startup_timeout = timeout;
  game::StartSetup setup;
  setup.stderr_log = stderr_path_;
  auto started = game::start_engine(config, std::move(setup));
  if (!started) {
    client_ = std::move(started.error().client);
    return std::unexpected(started.error().what);
  }
  client_ = std::move(started->client);
  idle_bestmoves_counted_ = 0;
  client_->set_go_quirks(quirks_);
  return Startup{started->usiok, started->readyok};
}

ProbeEngine::Search ProbeEngine::search(std::string_view position_line, const usi::GoParams& go, Millis wait,
                                        Millis stop_wait) {
  Search s;
  if (!running()) {
    s.died = true;
    s.exit = "not running";
    return s;
  }
  if (!this->go(position_line, go)) {
    s.died = true;
    s.exit = exit_text();
    return s;
  }
  s.result = client_->wait_bestmove(SteadyClock::now() + wait);
  if (s.result.status == usi::Status::Timeout) {
    s.stopped = true;
    client_->stop();
    s.result = client_->wait_bestmove(SteadyClock::now() + stop_wait);
    if (s.result.status == usi::Status::Timeout) {
      s.wedged = true;
      abandon();
      return s;
    }
  }
  if (s.result.status == usi::Status::Disconnected || !running()) {
    s.died = true;
    s.exit = exit_text();
  }
  return s;
}

bool ProbeEngine::go(std::string_view position, const usi::GoParams& go) {
  if (!running()) return false;
  return client_->position_and_go("position " + std::string(position), go).ok();
}

bool ProbeEngine::settle(Millis wait) {
  if (!running()) return false;
  const auto state = client_->state();
  if (state == usi::EngineState::Thinking || state == usi::EngineState::Pondering) {
    client_->stop();
    if (client_->wait_bestmove(SteadyClock::now() + wait).status == usi::Status::Timeout) abandon();
  }
  return running() && client_->state() == usi::EngineState::Idle;
}

void ProbeEngine::abandon() {
  if (client_) client_->quit(Millis(0));
}

int ProbeEngine::drain(Millis window) {
  if (!running()) return -1;
  const auto deadline = SteadyClock::now() + window;
  // Those that came after an earlier drain's window, which the client read off before its next go, count too.
  int bestmoves = int(client_->idle_bestmoves() - idle_bestmoves_counted_);
  idle_bestmoves_counted_ = client_->idle_bestmoves();
  while (true) {
    auto r = client_->process().read_line(deadline);
    if (r.status == process::IoStatus::Timeout) return bestmoves;
    if (r.status == process::IoStatus::Disconnected) {
      abandon();  // reaped: running() is false, and the next probe restarts it
      return -1;
    }
    if (r.line.starts_with("bestmove")) ++bestmoves;
  }
}

bool ProbeEngine::send_raw(std::string_view line) {
  if (!running()) return false;
  return client_->process().write_line(line, SteadyClock::now() + Millis(5000)) == process::IoStatus::Ok;
}

bool ProbeEngine::sync(Millis wait) {
  if (!running()) return false;
  return client_->is_ready(SteadyClock::now() + wait).ok();
}

std::optional<std::int64_t> ProbeEngine::peak_rss_kb() const {
  if (!client_) return std::nullopt;
  std::ifstream status("/proc/" + std::to_string(client_->process().pid()) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("VmHWM:")) {
      std::istringstream in(line.substr(6));
      std::int64_t kb = 0;
      if (in >> kb) return kb;
    }
  return std::nullopt;
}

std::string ProbeEngine::exit_text() {
  if (!client_) return "not started";
  // A dying process may still be closing: give it a moment to be reaped so its signal can be named.
  for (int i = 0; i < 50 && !client_->process().poll_exit(); ++i) ::usleep(10000);
  return game::describe_exit(client_->process(), {stderr_path_, std::uintmax_t(stderr_offset_)});
}

bool ProbeEngine::quit(Millis grace) {
  if (!client_) return true;
  return client_->quit(grace);
}

}  // namespace arena::check
