#include "check/probe_engine.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "game/engine_exit.h"
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
  process::ProcessSpec spec;
  spec.executable = config_.command;
  spec.args = config_.args;
  spec.working_dir = config_.working_dir;
  spec.stderr_log = stderr_path_;
  spec.io_log = config_.io_log;
  spec.name = config_.name;
  auto proc = process::EngineProcess::start(std::move(spec));
  if (!proc) return std::unexpected(proc.error());
  client_ = std::make_unique<usi::UsiClient>(std::move(*proc));
  client_->set_go_quirks(quirks_);

  Startup times;
  auto t0 = SteadyClock::now();
  usi::Result r = client_->handshake(t0 + timeout);
  times.usiok = std::chrono::duration_cast<Millis>(SteadyClock::now() - t0);
  if (r.status == usi::Status::Timeout)
    return std::unexpected("no usiok within " + std::to_string(timeout.count()) + " ms");
  if (!r.ok()) return std::unexpected("exited during the handshake (" + exit_text() + ")");
  for (const auto& [name, value] : config_.options)
    if (auto s = client_->set_option(name, value); !s.ok()) return std::unexpected("setoption " + name + ": " + s.text);
  // As a tournament does: the engine hears whether it will ponder.
  bool ponder_given = false;
  for (const auto& option : config_.options) ponder_given |= usi::iequals(option.first, "USI_Ponder");
  if (!ponder_given) client_->set_option("USI_Ponder", config_.ponder ? "true" : "false");
  t0 = SteadyClock::now();
  r = client_->is_ready(t0 + timeout);
  times.readyok = std::chrono::duration_cast<Millis>(SteadyClock::now() - t0);
  if (r.status == usi::Status::Timeout)
    return std::unexpected("no readyok within " + std::to_string(timeout.count()) + " ms");
  if (!r.ok()) return std::unexpected("exited before readyok (" + exit_text() + ")");
  return times;
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
  int bestmoves = 0;
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
  std::string text = game::describe_exit(client_->process());
  std::ifstream err(stderr_path_);
  err.seekg(stderr_offset_);
  std::string line, last;
  while (std::getline(err, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (!last.empty()) {
    if (last.size() > 160) last = last.substr(0, 160) + "...";
    text += "; stderr: '" + last + "'";
  }
  return text;
}

bool ProbeEngine::quit(Millis grace) {
  if (!client_) return true;
  return client_->quit(grace);
}

}  // namespace arena::check
