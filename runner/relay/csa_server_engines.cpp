#include "relay/csa_server_engines.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "csa/client/connection.h"
#include "csa/client/engine.h"
#include "csa/client/game.h"
#include "csa/client/link.h"
#include "csa/client/log.h"
#include "csa/client/login.h"
#include "csa/server/server.h"
#include "relay/csa_game_follower.h"

namespace arena::relay {

namespace {

using csa::SteadyClock;
using namespace std::chrono_literals;

// The server, the start positions of the games being set up and the watchers of the games being played, shared by
// every worker.
class Relay {
 public:
  explicit Relay(csa::CsaServerConfig config)
      : server_([&] {
          config.position_for = [this](const std::string& name) { return position_for(name); };
          config.on_game_progress = [this](const csa::CsaGameProgress& p) { progress(p); };
          return config;
        }()) {}

  std::expected<void, std::string> start() { return server_.start(); }
  uint16_t port() const { return server_.port(); }

  // A fresh game name with `clock` ("600-10"), whose Position block will be `start_position`, shown move by move
  // to `watcher` (if any) until remove_game.
  std::string add_game(const std::string& clock, const std::string& start_position, game::GameWatcher* watcher) {
    std::lock_guard lock(mutex_);
    std::string name = "arena" + std::to_string(++counter_) + "-" + clock;
    positions_[name] = start_position;
    if (watcher) followers_.emplace(name, std::make_unique<CsaGameFollower>(*watcher));
    return name;
  }
  // After it, the watcher of the game is never called again (its owner may destroy it).
  void remove_game(const std::string& name) {
    std::lock_guard lock(mutex_);
    positions_.erase(name);
    followers_.erase(name);
  }

 private:
  std::optional<std::string> position_for(const std::string& name) {
    std::lock_guard lock(mutex_);
    auto it = positions_.find(name);
    if (it == positions_.end()) return std::nullopt;
    return it->second;
  }

  // On the server's thread. The watcher is a live view's, which copies under a lock of its own: called from here
  // rather than from the game's thread, it is still never called after remove_game.
  void progress(const csa::CsaGameProgress& p) {
    std::lock_guard lock(mutex_);
    if (auto it = followers_.find(p.game_name); it != followers_.end()) it->second->progress(p);
  }

  std::mutex mutex_;
  std::map<std::string, std::string> positions_;
  std::map<std::string, std::unique_ptr<CsaGameFollower>> followers_;
  int64_t counter_ = 0;
  csa::CsaServer server_;  // last: stopped (joined) before the map it reads goes away
};

// Logs in, then waits for the Game_Summary. Gives up when `abort` is set (the other side failed) or after a
// generous deadline, so that one side's failure never leaves the other waiting for ever.
std::expected<void, std::string> login_and_wait(csa::ClientConnection& conn, const std::string& user,
                                                const std::string& password, const std::atomic<bool>& abort,
                                                const std::atomic<bool>* interrupt) {
  auto abandoned = [&] { return abort.load() || (interrupt && interrupt->load()); };
  csa::LoginOutcome lo = csa::login(conn, user, password, 60s, abandoned);
  if (lo.result == csa::LoginResult::Stopped) return std::unexpected("abandoned before the game began");
  if (lo.result != csa::LoginResult::Ok) return std::unexpected(lo.why);
  csa::SummaryWaitOutcome w = csa::wait_for_summary(conn, SteadyClock::now() + 60s, abandoned);
  switch (w.result) {
    case csa::SummaryWait::Summary:
      return {};
    case csa::SummaryWait::Stopped:
      return std::unexpected("abandoned before the game began");
    case csa::SummaryWait::Closed:
      return std::unexpected("the server closed the connection: " + w.detail);
    case csa::SummaryWait::X1Error:
      return std::unexpected("the server refused the game: " + w.detail);
    case csa::SummaryWait::TimedOut:
      break;
  }
  return std::unexpected("no Game_Summary within 60 s");
}

class CsaServerEngines final : public run::WorkerEngines {
 public:
  CsaServerEngines(std::shared_ptr<Relay> relay, const std::vector<game::EngineConfig>& engines,
                   const game::GameOptions& options, const run::EngineLogs& logs, CsaRelaySettings settings, int worker)
      : relay_(std::move(relay)), configs_(engines), options_(options), settings_(settings), worker_(worker) {
    for (size_t i = 0; i < configs_.size(); ++i) {
      logs_.push_back(std::make_unique<csa::ProtocolLog>());
      if (logs.dir.empty()) continue;
      const std::string base = logs.stem(configs_[i].name, worker);
      if (logs.stderr_log) configs_[i].stderr_log = base + ".stderr";
      // The CSA lines both ways and the engine's USI lines, in one timestamped file per engine and worker.
      if (logs.io_log) logs_.back()->open(base + ".csa.log", nullptr);
    }
    engines_.resize(configs_.size());
    failed_.assign(configs_.size(), 0);
  }
  ~CsaServerEngines() override {
    for (size_t i = 0; i < engines_.size(); ++i) release(int(i));
  }

  std::expected<void, std::string> prepare(int engine) override {
    auto& e = engines_[size_t(engine)];
    if (e && e->running()) return {};
    if (!e) e = std::make_unique<csa::ClientEngine>(configs_[size_t(engine)], logs_[size_t(engine)].get());
    return e->start();
  }

  std::expected<void, std::string> set_options(int engine, const game::OptionList& options) override {
    return engines_[size_t(engine)]->set_options(options);
  }

  std::vector<usi::OptionSpec> declared_options(int engine) override {
    const auto& e = engines_[size_t(engine)];
    if (!e || !e->running()) return {};
    return e->usi().options();
  }

  PlayedGame play(int black, int white, const std::string& start_position,
                  const std::atomic<bool>* interrupt) override {
    const game::TimeControl& tc = configs_[size_t(black)].time_control;
    const std::string name = relay_->add_game(*csa_game_clock(tc), start_position, watcher_);
    std::atomic<bool> abort{false};
    csa::CsaGameReport reports[shogi::COLOR_NB];
    std::thread white_side([&] { reports[shogi::WHITE] = play_side(white, shogi::WHITE, name, abort, interrupt); });
    reports[shogi::BLACK] = play_side(black, shogi::BLACK, name, abort, interrupt);
    white_side.join();
    relay_->remove_game(name);
    return merge(reports, black, white, tc, interrupt);
  }

  bool alive(int engine) override {
    const auto& e = engines_[size_t(engine)];
    return e && e->running() && !failed_[size_t(engine)];
  }

  void release(int engine) override {
    auto& e = engines_[size_t(engine)];
    failed_[size_t(engine)] = 0;
    if (!e) return;
    e->stop();
    e.reset();
  }

 private:
  csa::CsaGameReport play_side(int engine, shogi::Color color, const std::string& game_name, std::atomic<bool>& abort,
                               const std::atomic<bool>* interrupt) {
    csa::CsaGameReport report;
    auto give_up = [&](const std::string& why) {
      abort = true;
      report.status = csa::GameStatus::ConnectionLost;
      report.detail = why;
      return std::move(report);
    };
    auto link = csa::connect_tcp({"127.0.0.1", relay_->port(), std::chrono::milliseconds(5000), false});
    if (!link) return give_up(link.error());
    csa::ProtocolLog& log = *logs_[size_t(engine)];
    csa::ClientConnection conn(std::move(*link), log, std::chrono::seconds(40));
    // Login names are unique per worker, engine and colour: shogi-server refuses a name that is logged in.
    const std::string user =
        "e" + std::to_string(engine) + "w" + std::to_string(worker_) + (color == shogi::BLACK ? "b" : "w");
    auto ready = login_and_wait(conn, user, game_name + (color == shogi::BLACK ? "-B" : "-W"), abort, interrupt);
    if (!ready) return give_up(ready.error());
    csa::GameSettings settings;
    settings.margin_ms = settings_.margin_ms;
    // On Ctrl-C the side to move resigns at once; the game is then reported Interrupted, not scored.
    settings.resign_on_stop = true;
    report = csa::play_csa_game(conn, *engines_[size_t(engine)], settings, log, interrupt);
    if (report.engine_failed) failed_[size_t(engine)] = 1;  // the two sides' threads touch different engines
    if (!report.started) abort = true;
    conn.close();
    return report;
  }

  PlayedGame merge(csa::CsaGameReport (&reports)[shogi::COLOR_NB], int black, int white, const game::TimeControl& tc,
                   const std::atomic<bool>* interrupt) const {
    csa::CsaGameReport& b = reports[shogi::BLACK];
    csa::CsaGameReport& w = reports[shogi::WHITE];
    PlayedGame game = b.started ? b.record : w.record;
    game.event = options_.event;
    game.names[shogi::BLACK] = configs_[size_t(black)].name;
    game.names[shogi::WHITE] = configs_[size_t(white)].name;
    game.time_control = tc.to_string();
    game.time_controls[shogi::BLACK] = game.time_controls[shogi::WHITE] = tc;  // the server plays one clock for both
    if (game.start_sfen.empty()) game.start_sfen = std::string(shogi::START_SFEN);
    // Each client knows its own engine's search info: take white's moves' info from white's record.
    if (b.started && w.started && w.record.moves.size() == game.moves.size()) {
      for (size_t i = 0; i < game.moves.size(); ++i)
        if (game.moves[i].info.pv.empty() && !game.moves[i].info.depth) game.moves[i].info = w.record.moves[i].info;
    }
    if (interrupt && interrupt->load()) {
      game.result = {Outcome::None, Termination::Interrupted, "stopped"};
    } else if (!b.started || !w.started || b.status == csa::GameStatus::ConnectionLost ||
               w.status == csa::GameStatus::ConnectionLost) {
      // A game the relay could not set up or finish is a runner-side failure: the pair may be replayed.
      std::string why = !b.detail.empty() && (!b.started || b.status == csa::GameStatus::ConnectionLost)
                            ? "black: " + b.detail
                            : "white: " + w.detail;
      game.result = {Outcome::None, Termination::Interrupted, "CSA relay: " + why};
    } else {
      game.result = csa::to_game_result(b.end, shogi::BLACK);
      if (game.result.detail.empty()) game.result.detail = b.detail;
      if (b.engine_failed || w.engine_failed) {
        game.result.detail += b.engine_failed ? " (black's engine failed)" : " (white's engine failed)";
      }
    }
    return game;
  }

  std::shared_ptr<Relay> relay_;
  std::vector<game::EngineConfig> configs_;
  game::GameOptions options_;
  CsaRelaySettings settings_;
  int worker_;
  std::vector<std::unique_ptr<csa::ProtocolLog>> logs_;
  std::vector<std::unique_ptr<csa::ClientEngine>> engines_;
  std::vector<char> failed_;  // the engine failed in its last game: restart it
};

}  // namespace

std::expected<std::string, std::string> csa_game_clock(const game::TimeControl& tc) {
  if (tc.movetime_ms || tc.nodes || tc.depth)
    return std::unexpected("a CSA server game needs a clock, not movetime, nodes or depth (got " + tc.to_string() +
                           ")");
  if (tc.base_ms % 1000 || tc.byoyomi_ms % 1000 || tc.increment_ms % 1000)
    return std::unexpected("a CSA game name carries whole seconds; " + tc.to_string() + " has a fraction");
  if (tc.byoyomi_ms > 0 && tc.increment_ms > 0)
    return std::unexpected("a CSA game has byoyomi or an increment, not both (" + tc.to_string() + ")");
  if (!tc.has_clock()) return std::unexpected("a CSA server game needs a clock");
  std::string clock = std::to_string(tc.base_ms / 1000) + "-";
  if (tc.increment_ms > 0) return clock + std::to_string(tc.increment_ms / 1000) + "F";
  return clock + std::to_string(tc.byoyomi_ms / 1000);
}

std::expected<run::EngineFactory, std::string> make_csa_server_engines(std::vector<game::EngineConfig> engines,
                                                                  game::GameOptions options, run::EngineLogs logs,
                                                                  CsaRelaySettings relay_settings) {
  if (engines.empty()) return std::unexpected("via the CSA server: no engines");
  for (const game::EngineConfig& e : engines) {
    auto clock = csa_game_clock(e.time_control);
    if (!clock) return std::unexpected("via the CSA server: engine '" + e.name + "': " + clock.error());
    if (e.time_control.to_string() != engines.front().time_control.to_string())
      return std::unexpected("via the CSA server: both sides of a CSA game have one clock, but '" + e.name + "' has " +
                             e.time_control.to_string() + " and '" + engines.front().name + "' " +
                             engines.front().time_control.to_string());
    if (e.ponder) return std::unexpected("via the CSA server: pondering is not supported (engine '" + e.name + "')");
  }
  csa::CsaServerConfig server;
  server.listen_address = "127.0.0.1";
  server.port = 0;
  server.event = "arena";
  server.max_moves = options.max_plies;
  server.max_identifier = 64;
  server.max_connections = 4096;
  auto relay = std::make_shared<Relay>(std::move(server));
  if (auto ok = relay->start(); !ok) return std::unexpected("via the CSA server: " + ok.error());
  return [relay, engines = std::move(engines), options = std::move(options), logs = std::move(logs),
          relay_settings](int worker) -> std::unique_ptr<run::WorkerEngines> {
    return std::make_unique<CsaServerEngines>(relay, engines, options, logs, relay_settings, worker);
  };
}

}  // namespace arena::relay
