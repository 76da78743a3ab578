#include "csa/client/session.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "csa/client/connection.h"
#include "csa/client/engine.h"
#include "csa/client/log.h"
#include "csa/client/login.h"
#include "output/csa_record.h"
#include "output/record_common.h"

namespace arena::csa {

LatencyFigures latency_figures(std::vector<int64_t> v) {
  LatencyFigures f;
  f.count = v.size();
  if (v.empty()) return f;
  std::sort(v.begin(), v.end());
  f.median_us = v[v.size() / 2];
  std::size_t p99 = std::size_t(std::ceil(0.99 * double(v.size())));
  f.p99_us = v[std::min(v.size() - 1, p99 == 0 ? 0 : p99 - 1)];
  f.max_us = v.back();
  return f;
}

namespace {

namespace fs = std::filesystem;
using Clock = SteadyClock;

// Notes on stdout; the live status line on stderr, redrawn in place, only when stderr is a terminal.
class Console {
 public:
  explicit Console(bool enabled) : enabled_(enabled), tty_(enabled && ::isatty(2)) {}
  ~Console() { clear(); }

  void note(std::string_view text) {
    if (!enabled_) return;
    clear();
    std::fprintf(stdout, "%.*s\n", int(text.size()), text.data());
    std::fflush(stdout);
    redraw();
  }
  void status(std::string line) {
    if (!tty_) return;
    status_ = std::move(line);
    redraw();
  }

 private:
  void clear() {
    if (!shown_) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    shown_ = false;
  }
  void redraw() {
    if (!tty_ || status_.empty()) return;
    std::fprintf(stderr, "\r\033[K%s", status_.c_str());
    std::fflush(stderr);
    shown_ = true;
  }

  bool enabled_;
  bool tty_;
  bool shown_ = false;
  std::string status_;
};

std::string clock_text(int64_t ms) {
  int64_t s = std::max<int64_t>(0, ms) / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld:%02lld", (long long)(s / 60), (long long)(s % 60));
  return buf;
}

std::string status_text(const LiveStatus& s, int game_no, int games) {
  // Appended piecewise: GCC 12 at -O3 warns falsely (-Wrestrict) about chains of "literal" + std::string.
  std::string out = "game ";
  out.append(std::to_string(game_no));
  if (games > 0) out.append("/").append(std::to_string(games));
  out.append(s.us == shogi::BLACK ? " black" : " white");
  if (!s.opponent.empty()) out.append(" vs ").append(s.opponent);
  out.append(" | ply ").append(std::to_string(s.ply)).append(" | ").append(s.phase);
  out.append(" | +").append(clock_text(s.remaining_ms[shogi::BLACK]));
  out.append(" -").append(clock_text(s.remaining_ms[shogi::WHITE]));
  if (s.score_black)
    out.append(" | score ").append(*s.score_black >= 0 ? "+" : "").append(std::to_string(*s.score_black));
  return out;
}

std::string file_name_for(const std::string& game_id, int game_no) {
  std::string name = game_id.empty() ? "game-" + std::to_string(game_no) : game_id;
  for (char& c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '_' || c == '.')) c = '_';
  return name;
}

bool sleep_unless_stopped(std::chrono::milliseconds d, const std::atomic<bool>* stop) {
  auto until = Clock::now() + d;
  while (Clock::now() < until) {
    if (stop && stop->load()) return false;
    std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(100), until - Clock::now()));
  }
  return !(stop && stop->load());
}

void logout(ClientConnection& conn) {
  if (conn.closed()) return;
  conn.send("LOGOUT");
  auto until = Clock::now() + std::chrono::seconds(5);
  while (true) {
    LinkEvent e = conn.receive(until);
    if (e.kind != LinkEvent::Kind::Line || e.text == "LOGOUT:completed") return;
  }
}

// One `shogi-arena csa` session: the engine, the log and the tallies shared by its connections and their games.
// run() connects (again after a failure, with a growing delay), logs in and plays the connection's games: one in
// CSA mode, as many as wanted in x1 mode.
class Session {
 public:
  Session(const CsaClientConfig& cfg, const LinkFactory& connect, const std::atomic<bool>* stop)
      : cfg_(cfg),
        connect_(connect),
        stop_(stop),
        console_(cfg.status_line),
        where_(cfg.host + ":" + std::to_string(cfg.port)) {}
  CsaSessionReport run();

 private:
  bool stopped() const { return stop_ && stop_->load(); }
  bool games_left() const { return cfg_.games == 0 || rep_.games_started < cfg_.games; }
  void give_up(const std::string& why) {
    rep_.exit_code = 1;
    rep_.error = why;
    log_.note("giving up: " + why);
  }
  bool open_log();
  bool wait_before_retry();  // false: given up, or stopped
  void play_games(ClientConnection& conn);
  void game_over(const CsaGameReport& g, int game_no);
  void say_latency();

  const CsaClientConfig& cfg_;
  const LinkFactory& connect_;
  const std::atomic<bool>* stop_;
  CsaSessionReport rep_;
  Console console_;
  ProtocolLog log_;
  std::optional<ClientEngine> engine_;
  GameSettings settings_;
  std::vector<int64_t> line_to_go_, bestmove_to_send_;
  int failures_ = 0;  // in a row, since the last game that started
  std::string last_error_;
  const std::string where_;
};

bool Session::open_log() {
  log_.set_secret(login_secret(cfg_));
  std::error_code ec;
  fs::create_directories(cfg_.output_dir, ec);
  const std::string path =
      cfg_.log_file.empty() ? (fs::path(cfg_.output_dir) / "csa-client.log").string() : cfg_.log_file;
  if (std::string err; !log_.open(path, &err)) {
    rep_.exit_code = 1;
    rep_.error = err;
    return false;
  }
  log_.set_note_sink([this](std::string_view text) { console_.note(text); });
  return true;
}

bool Session::wait_before_retry() {
  if (cfg_.reconnect_attempts > 0 && failures_ > cfg_.reconnect_attempts) {
    give_up(std::to_string(failures_) + " failed attempts in a row; last: " + last_error_);
    return false;
  }
  auto delay = cfg_.reconnect_initial * (int64_t(1) << std::min(failures_ - 1, 20));
  delay = std::min(delay, cfg_.reconnect_max);
  // The failure is said here, with the retry (or in give_up's line, or not at all if stopped first).
  log_.note("retrying in " + std::to_string(delay.count()) + " ms (" + last_error_ + ")");
  return sleep_unless_stopped(delay, stop_);
}

CsaSessionReport Session::run() {
  if (auto ok = validate(cfg_); !ok) {
    rep_.exit_code = 2;
    rep_.error = ok.error();
    return rep_;
  }
  if (!open_log()) return rep_;
  game::EngineConfig engine_config = cfg_.engine;
  if (engine_config.stderr_log.empty())
    engine_config.stderr_log = (fs::path(cfg_.output_dir) / "engine-stderr.log").string();
  engine_.emplace(engine_config, &log_);
  log_.note("starting the engine");
  if (auto ok = engine_->start(); !ok) {
    give_up(ok.error());
    return rep_;
  }
  log_.note("engine " + engine_->name() + " ready");
  settings_.margin_ms = cfg_.margin_ms;
  settings_.floodgate_comments = cfg_.floodgate_comments;
  settings_.ponder = cfg_.engine.ponder;
  settings_.resign_on_stop = cfg_.resign_on_stop;
  const auto keep_alive = cfg_.keep_alive_override.value_or(std::chrono::seconds(cfg_.keep_alive_s));

  bool ever_logged_in = false;
  while (games_left() && !stopped() && rep_.exit_code == 0) {
    if (failures_ > 0 && !wait_before_retry()) break;
    console_.status("connecting to " + where_);
    auto link = connect_();
    if (!link) {
      ++failures_;
      ++rep_.connect_failures;
      last_error_ = link.error();
      continue;
    }
    ClientConnection conn(std::move(*link), log_, keep_alive);
    log_.note("connected to " + where_ + "; logging in as " + cfg_.user);
    LoginOutcome lo =
        login(conn, cfg_.user, login_password(cfg_), std::chrono::seconds(30), [this] { return stopped(); });
    if (lo.result == LoginResult::Stopped) break;
    if (lo.result != LoginResult::Ok) {
      last_error_ = lo.why;
      if (lo.result == LoginResult::Incorrect && !ever_logged_in) {
        give_up(lo.why + ": check server.user and the password / game_name / trip");
        break;
      }
      ++failures_;
      continue;
    }
    ever_logged_in = true;
    ++rep_.logins;
    play_games(conn);
    if (cfg_.mode == LoginMode::X1 || stopped()) logout(conn);
    conn.close();
  }

  engine_->stop();
  say_latency();
  log_.note("session over: " + std::to_string(rep_.games_started) + " games, +" + std::to_string(rep_.wins) + " -" +
            std::to_string(rep_.losses) + " =" + std::to_string(rep_.draws));
  return rep_;
}

// The games of one connection: one in CSA mode, as many as wanted in x1 mode.
void Session::play_games(ClientConnection& conn) {
  while (games_left() && !stopped() && rep_.exit_code == 0) {
    if (cfg_.mode == LoginMode::X1) conn.send(x1_game_command(cfg_));
    console_.status("waiting for a game on " + where_);
    // No deadline: a game on a server may be hours away (Floodgate pairs every 30 minutes).
    SummaryWaitOutcome w = wait_for_summary(conn, Deadline::max(), [this] { return stopped(); });
    if (w.result == SummaryWait::Stopped) return;
    if (w.result == SummaryWait::Closed) {
      ++failures_;
      last_error_ = "connection lost while waiting for a game: " + w.detail;
      return;
    }
    if (w.result == SummaryWait::X1Error) {
      if (cfg_.challenge && w.detail.find("can't find rival") != std::string::npos) {
        // Nobody waiting for this game yet: ask again a little later.
        if (!sleep_unless_stopped(cfg_.reconnect_initial, stop_)) return;
        continue;
      }
      give_up("the server refused " + x1_game_command(cfg_) + ": " + w.detail);
      return;
    }

    const int game_no = rep_.games_started + 1;
    StatusSink sink = [&](const LiveStatus& s) { console_.status(status_text(s, game_no, cfg_.games)); };
    CsaGameReport g = play_csa_game(conn, *engine_, settings_, log_, stop_, sink);
    line_to_go_.insert(line_to_go_.end(), g.line_to_go_us.begin(), g.line_to_go_us.end());
    bestmove_to_send_.insert(bestmove_to_send_.end(), g.bestmove_to_send_us.begin(), g.bestmove_to_send_us.end());
    game_over(g, game_no);
    const bool engine_failed = g.engine_failed, started = g.started;
    rep_.games.push_back(std::move(g));

    if (engine_failed || (cfg_.restart_engine && started && games_left() && !stopped())) {
      log_.note(engine_failed ? "restarting the engine after a failure" : "restarting the engine for the next game");
      if (auto ok = engine_->start(); !ok) {
        give_up(ok.error());
        return;
      }
    }
    if (cfg_.mode == LoginMode::Csa || conn.closed() || failures_ > 0) return;
  }
}

// A game that started: its result counted and its record written (never over another file). One that did not: a
// failure when it repeats if nothing changes (our rejection, a lost connection).
void Session::game_over(const CsaGameReport& g, int game_no) {
  if (!g.started) {
    // The opponent's rejection is no failure.
    const bool ours = g.status == GameStatus::Rejected && !g.detail.starts_with("rejected by");
    if (ours || g.status == GameStatus::ConnectionLost) {
      ++failures_;
      last_error_ = g.detail;
    }
    return;
  }
  ++rep_.games_started;
  failures_ = g.status == GameStatus::ConnectionLost ? 1 : 0;
  if (g.status == GameStatus::ConnectionLost) last_error_ = "connection lost during the game: " + g.detail;
  if (g.end.result == EndResult::Win)
    ++rep_.wins;
  else if (g.end.result == EndResult::Lose)
    ++rep_.losses;
  else if (g.end.result != EndResult::None)
    ++rep_.draws;
  auto text = to_csa_record(g.record);
  const std::string stem = (fs::path(cfg_.output_dir) / file_name_for(g.game_id, game_no)).string();
  std::string file = stem + ".csa";
  for (int n = 2; fs::exists(file); ++n) file = stem + "-" + std::to_string(n) + ".csa";
  if (!text) {
    log_.note("cannot write the record of " + g.game_id + ": " + text.error());
  } else if (std::ofstream out(file); out << *text && out.flush()) {
    rep_.record_files.push_back(file);
  } else {
    log_.note("cannot write " + file);
  }
  log_.note("game " + std::to_string(game_no) + " over: " + record::result_in_words(g.record.result) + " (" + g.detail +
            "); score so far +" + std::to_string(rep_.wins) + " -" + std::to_string(rep_.losses) + " =" +
            std::to_string(rep_.draws));
}

void Session::say_latency() {
  rep_.line_to_go = latency_figures(line_to_go_);
  rep_.bestmove_to_send = latency_figures(bestmove_to_send_);
  auto fig = [](const LatencyFigures& f) {
    return "median " + std::to_string(f.median_us) + " us, p99 " + std::to_string(f.p99_us) + " us (" +
           std::to_string(f.count) + " moves)";
  };
  if (rep_.line_to_go.count + rep_.bestmove_to_send.count > 0)
    log_.note("client latency: server line -> go " + fig(rep_.line_to_go) + "; bestmove -> socket " +
              fig(rep_.bestmove_to_send));
}

}  // namespace

CsaSessionReport run_csa_session(const CsaClientConfig& cfg, const LinkFactory& connect,
                                 const std::atomic<bool>* stop) {
  return Session(cfg, connect, stop).run();
}

int run_csa_client(const CsaClientConfig& config, const std::atomic<bool>* stop) {
  TcpEndpoint endpoint{config.host, config.port, config.connect_timeout, true};
  CsaSessionReport rep = run_csa_session(
      config, [&] { return connect_tcp(endpoint); }, stop);
  if (rep.exit_code != 0) std::fprintf(stderr, "shogi-arena csa: %s\n", rep.error.c_str());
  return rep.exit_code;
}

}  // namespace arena::csa
