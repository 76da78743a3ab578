// Whole games of the built-in engine against the real engines Debian packages (fairy-stockfish, gpsshogi), with
// colours both ways round across the two games. The result must agree with the record replayed through the
// rules library. Skipped, with a warning, when an engine is not installed (ctest label real_engines).

#include <doctest/doctest.h>

#include <filesystem>

#include "game/game.h"
#include "game_checks.h"
#include "process/engine_process.h"
#include "rules/position.h"
#include "usi/usi_client.h"

using namespace arena;
using namespace arena::game;
using namespace game_test;
using namespace std::chrono_literals;

namespace {

EngineConfig builtin(std::string_view control) {
  EngineConfig c;
  c.command = SHOGI_ARENA_ENGINE;
  c.time_control = tc(control);
  c.options = {{"Threads", "1"}};
  c.io_log = temp_log("builtin");
  return c;
}

void report(const PlayedGame& g) {
  MESSAGE(g.names[shogi::BLACK] << " vs " << g.names[shogi::WHITE] << " (" << g.time_control
                                << "): " << to_string(g.result.outcome) << " by " << to_string(g.result.termination)
                                << " after " << g.moves.size() << " plies — " << g.result.detail);
}

void play_and_check(EngineConfig black, EngineConfig white, const GameOptions& options) {
  auto loop = std::make_shared<process::EventLoop>();
  std::vector<pid_t> pids;
  {
    Player b(std::move(black), loop), w(std::move(white), loop);
    for (Player* p : {&b, &w}) {
      auto r = p->start();
      REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error()));
      pids.push_back(p->client().process().pid());
    }
    PlayedGame g = play_game(b, w, "startpos", options);
    report(g);
    check_consistent(g, options.max_plies, options.entering_king);
    CHECK(g.result.termination != Termination::None);
    CHECK(g.result.termination != Termination::Interrupted);
    // Neither engine should crash or stall in a normal game.
    CHECK(g.result.termination != Termination::Disconnect);
    CHECK(g.result.termination != Termination::Stall);
    CHECK(g.result.termination != Termination::IllegalMove);
    CHECK(g.moves.size() >= 2);
    for (const MoveRecord& m : g.moves) CHECK(m.time_ms >= 0);
  }
  for (pid_t pid : pids) CHECK(pid_gone(pid));
}

}  // namespace

TEST_CASE("built-in engine vs fairy-stockfish, 2+0.1") {
  const char* path = "/usr/games/fairy-stockfish";
  if (!std::filesystem::exists(path)) {
    WARN_MESSAGE(false, "skipped: " << path << " is not installed");
    return;
  }
  shogi::Position::init();
  EngineConfig fairy;
  fairy.command = path;
  fairy.time_control = tc("2+0.1");
  fairy.options = {{"Hash", "16"}, {"Threads", "1"}};
  // It reads btime as gote's time: without the swap it budgets with the built-in engine's clock and flags.
  fairy.swap_btime_wtime = true;
  fairy.io_log = temp_log("fairy");
  GameOptions o;
  o.max_plies = 120;
  play_and_check(builtin("2+0.1"), fairy, o);
}

TEST_CASE("built-in engine vs gpsshogi, Fischer 2+0.1 with the increment folded into its time") {
  const char* path = "/usr/games/gpsusi";
  if (!std::filesystem::exists(path)) {
    WARN_MESSAGE(false, "skipped: " << path << " is not installed");
    return;
  }
  shogi::Position::init();
  EngineConfig gps;
  gps.command = path;
  gps.time_control = tc("2+0.1");
  gps.startup_timeout = 60000ms;
  gps.send_increments = false;  // it aborts on `go ... binc`
  gps.io_log = temp_log("gpsusi-fischer");
  GameOptions o;
  o.max_plies = 24;
  o.margin_ms = 1000;  // as above: about the game, not gpsusi's timing
  play_and_check(builtin("2+0.1"), gps, o);
}

TEST_CASE("gpsshogi vs built-in engine, byoyomi 2 s") {
  const char* path = "/usr/games/gpsusi";
  if (!std::filesystem::exists(path)) {
    WARN_MESSAGE(false, "skipped: " << path << " is not installed");
    return;
  }
  shogi::Position::init();
  EngineConfig gps;
  gps.command = path;
  gps.time_control = tc("0+2b");
  gps.startup_timeout = 60000ms;  // ~6 s of CPU before it answers usi, more on a loaded machine
  gps.io_log = temp_log("gpsusi");
  GameOptions o;
  o.max_plies = 16;    // 2 s per move: keep the game near half a minute
  o.margin_ms = 1000;  // gpsusi overruns its byoyomi by 0.1-1 s; this is about the game, not its timing
  play_and_check(gps, builtin("0+2b"), o);
}
