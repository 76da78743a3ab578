#include "csa/client/session.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
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

}  // namespace

CsaSessionReport run_csa_session(const CsaClientConfig& cfg, const LinkFactory& connect,
                                 const std::atomic<bool>* stop) {
  CsaSessionReport rep;
  if (auto ok = validate(cfg); !ok) {
    rep.exit_code = 2;
    rep.error = ok.error();
    return rep;
  }
  auto stopped = [&] { return stop && stop->load(); };

  Console console(cfg.status_line);
  ProtocolLog log;
  log.set_secret(login_secret(cfg));
  std::error_code ec;
  fs::create_directories(cfg.output_dir, ec);
  std::string log_path = cfg.log_file.empty() ? (fs::path(cfg.output_dir) / "csa-client.log").string() : cfg.log_file;
  if (std::string err; !log.open(log_path, &err)) {
    rep.exit_code = 1;
    rep.error = err;
    return rep;
  }
  log.set_note_sink([&](std::string_view text) { console.note(text); });
  auto give_up = [&](const std::string& why) {
    rep.exit_code = 1;
    rep.error = why;
    log.note("giving up: " + why);
  };

  game::EngineConfig engine_config = cfg.engine;
  if (engine_config.stderr_log.empty())
    engine_config.stderr_log = (fs::path(cfg.output_dir) / "engine-stderr.log").string();
  ClientEngine engine(engine_config, &log);
  log.note("starting the engine");
  if (auto ok = engine.start(); !ok) {
    give_up(ok.error());
    return rep;
  }
  log.note("engine " + engine.name() + " ready");

  GameSettings settings;
  settings.margin_ms = cfg.margin_ms;
  settings.floodgate_comments = cfg.floodgate_comments;
  settings.ponder = cfg.engine.ponder;
  settings.resign_on_stop = cfg.resign_on_stop;
  auto keep_alive = cfg.keep_alive_override.value_or(std::chrono::seconds(cfg.keep_alive_s));
  std::vector<int64_t> line_to_go, bestmove_to_send;

  int failures = 0;  // in a row, since the last game that started
  bool ever_logged_in = false;
  std::string last_error;
  auto games_left = [&] { return cfg.games == 0 || rep.games_started < cfg.games; };
  std::string where = cfg.host + ":" + std::to_string(cfg.port);

  while (games_left() && !stopped() && rep.exit_code == 0) {
    if (failures > 0) {
      if (cfg.reconnect_attempts > 0 && failures > cfg.reconnect_attempts) {
        give_up(std::to_string(failures) + " failed attempts in a row; last: " + last_error);
        break;
      }
      auto delay = cfg.reconnect_initial * (int64_t(1) << std::min(failures - 1, 20));
      delay = std::min(delay, cfg.reconnect_max);
      // The failure is said here, with the retry (or in give_up's line, or not at all if stopped first).
      log.note("retrying in " + std::to_string(delay.count()) + " ms (" + last_error + ")");
      if (!sleep_unless_stopped(delay, stop)) break;
    }
    console.status("connecting to " + where);
    auto link = connect();
    if (!link) {
      ++failures;
      ++rep.connect_failures;
      last_error = link.error();
      continue;
    }
    ClientConnection conn(std::move(*link), log, keep_alive);
    log.note("connected to " + where + "; logging in as " + cfg.user);
    LoginOutcome lo = login(conn, cfg.user, login_password(cfg), std::chrono::seconds(30), stopped);
    if (lo.result == LoginResult::Stopped) break;
    if (lo.result != LoginResult::Ok) {
      last_error = lo.why;
      if (lo.result == LoginResult::Incorrect && !ever_logged_in) {
        give_up(lo.why + ": check server.user and the password / game_name / trip");
        break;
      }
      ++failures;
      continue;
    }
    ever_logged_in = true;
    ++rep.logins;

    // The games of this connection: one in CSA mode, as many as wanted in x1 mode.
    while (games_left() && !stopped() && rep.exit_code == 0) {
      if (cfg.mode == LoginMode::X1) conn.send(x1_game_command(cfg));
      console.status("waiting for a game on " + where);
      // No deadline: a game on a server may be hours away (Floodgate pairs every 30 minutes).
      SummaryWaitOutcome w = wait_for_summary(conn, Deadline::max(), stopped);
      if (w.result == SummaryWait::Stopped) break;
      if (w.result == SummaryWait::Closed) {
        ++failures;
        last_error = "connection lost while waiting for a game: " + w.detail;
        break;
      }
      if (w.result == SummaryWait::X1Error) {
        if (cfg.challenge && w.detail.find("can't find rival") != std::string::npos) {
          // Nobody waiting for this game yet: ask again a little later.
          if (!sleep_unless_stopped(cfg.reconnect_initial, stop)) break;
          continue;
        }
        give_up("the server refused " + x1_game_command(cfg) + ": " + w.detail);
        break;
      }

      int game_no = rep.games_started + 1;
      StatusSink sink = [&](const LiveStatus& s) { console.status(status_text(s, game_no, cfg.games)); };
      CsaGameReport g = play_csa_game(conn, engine, settings, log, stop, sink);
      line_to_go.insert(line_to_go.end(), g.line_to_go_us.begin(), g.line_to_go_us.end());
      bestmove_to_send.insert(bestmove_to_send.end(), g.bestmove_to_send_us.begin(), g.bestmove_to_send_us.end());

      if (g.started) {
        ++rep.games_started;
        failures = g.status == GameStatus::ConnectionLost ? 1 : 0;
        if (g.status == GameStatus::ConnectionLost) last_error = "connection lost during the game: " + g.detail;
        if (g.end.result == EndResult::Win)
          ++rep.wins;
        else if (g.end.result == EndResult::Lose)
          ++rep.losses;
        else if (g.end.result != EndResult::None)
          ++rep.draws;
        auto text = to_csa_record(g.record);
        std::string stem = (fs::path(cfg.output_dir) / file_name_for(g.game_id, game_no)).string();
        std::string file = stem + ".csa";
        for (int n = 2; fs::exists(file); ++n) file = stem + "-" + std::to_string(n) + ".csa";  // never overwrite
        if (!text) {
          log.note("cannot write the record of " + g.game_id + ": " + text.error());
        } else if (std::ofstream out(file); out << *text && out.flush()) {
          rep.record_files.push_back(file);
        } else {
          log.note("cannot write " + file);
        }
        log.note("game " + std::to_string(game_no) + " over: " + record::result_in_words(g.record.result) + " (" +
                 g.detail + "); score so far +" + std::to_string(rep.wins) + " -" + std::to_string(rep.losses) + " =" +
                 std::to_string(rep.draws));
      } else {
        // A rejection by us repeats if nothing changes: back off. The opponent's rejection is no failure.
        bool ours = g.status == GameStatus::Rejected && !g.detail.starts_with("rejected by");
        if (ours || g.status == GameStatus::ConnectionLost) {
          ++failures;
          last_error = g.detail;
        }
      }
      bool engine_failed = g.engine_failed;
      bool started = g.started;
      rep.games.push_back(std::move(g));

      if (engine_failed || (cfg.restart_engine && started && games_left() && !stopped())) {
        log.note(engine_failed ? "restarting the engine after a failure" : "restarting the engine for the next game");
        if (auto ok = engine.start(); !ok) {
          give_up(ok.error());
          break;
        }
      }
      if (cfg.mode == LoginMode::Csa || conn.closed() || failures > 0) break;
    }
    if (cfg.mode == LoginMode::X1 || stopped()) logout(conn);
    conn.close();
  }

  engine.stop();
  rep.line_to_go = latency_figures(line_to_go);
  rep.bestmove_to_send = latency_figures(bestmove_to_send);
  auto fig = [](const LatencyFigures& f) {
    return "median " + std::to_string(f.median_us) + " us, p99 " + std::to_string(f.p99_us) + " us (" +
           std::to_string(f.count) + " moves)";
  };
  if (rep.line_to_go.count + rep.bestmove_to_send.count > 0)
    log.note("client latency: server line -> go " + fig(rep.line_to_go) + "; bestmove -> socket " +
             fig(rep.bestmove_to_send));
  log.note("session over: " + std::to_string(rep.games_started) + " games, +" + std::to_string(rep.wins) + " -" +
           std::to_string(rep.losses) + " =" + std::to_string(rep.draws));
  return rep;
}

int run_csa_client(const CsaClientConfig& config, const std::atomic<bool>* stop) {
  TcpEndpoint endpoint{config.host, config.port, config.connect_timeout, true};
  CsaSessionReport rep = run_csa_session(
      config, [&] { return connect_tcp(endpoint); }, stop);
  if (rep.exit_code != 0) std::fprintf(stderr, "shogi-arena csa: %s\n", rep.error.c_str());
  return rep.exit_code;
}

}  // namespace arena::csa
