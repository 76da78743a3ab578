// End-to-end games against the scripted mock engine, one test per misbehaviour, each asserting the exact result
// and termination and that no engine process is left behind. Also: clocks as seen by the engine (its `go`
// lines), ponder, repetition and perpetual check from forced positions, a checkmate by the built-in engine.

#include <doctest/doctest.h>

#include <cstdio>

#include <thread>

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

EngineConfig mock(const std::string& name, std::vector<std::string> args, std::string_view control = "10+0") {
  EngineConfig c;
  c.name = name;
  c.command = MOCK_USI_ENGINE;
  c.args = std::move(args);
  c.time_control = tc(control);
  c.startup_timeout = 5000ms;
  c.quit_grace = 500ms;
  c.io_log = temp_log(name);
  return c;
}

// Two started players on one event loop; close() destroys them and checks that every process is gone.
struct Match {
  std::shared_ptr<process::EventLoop> loop = std::make_shared<process::EventLoop>();
  std::unique_ptr<Player> players[2];
  std::vector<pid_t> pids;

  Match(EngineConfig black, EngineConfig white) {
    shogi::Position::init();  // here, not in a global initializer: the rules' tables may not be built yet then
    players[0] = std::make_unique<Player>(std::move(black), loop);
    players[1] = std::make_unique<Player>(std::move(white), loop);
    for (auto& p : players) {
      auto r = p->start();
      REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error()));
      pids.push_back(p->client().process().pid());
    }
  }
  Player& black() { return *players[0]; }
  Player& white() { return *players[1]; }

  PlayedGame play(const GameOptions& options, const std::string& start = "startpos",
                  const std::atomic<bool>* interrupt = nullptr) {
    PlayedGame g = play_game(black(), white(), start, options, interrupt);
    MESSAGE("result: " << to_string(g.result.outcome) << " " << to_string(g.result.termination) << " — "
                       << g.result.detail);
    check_consistent(g, options.max_plies, options.entering_king);
    return g;
  }

  void close() {
    for (auto& p : players) p.reset();
    for (pid_t pid : pids) CHECK_MESSAGE(pid_gone(pid), "process " << pid << " left behind");
  }
};

GameOptions fast_options() {
  GameOptions o;
  o.max_plies = 20;
  o.margin_ms = 100;
  o.stall_timeout_ms = 2000;
  return o;
}

double seconds_between(std::chrono::system_clock::time_point a, std::chrono::system_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("two well-behaved engines play to the ply limit; moves, times and info are recorded") {
  Match m(mock("b", {"--random", "--seed", "3"}), mock("w", {"--random", "--seed", "4"}));
  GameOptions o = fast_options();
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::MaxMoves);
  CHECK(g.result.outcome == Outcome::Draw);
  CHECK(g.moves.size() == 20);
  CHECK(g.names[shogi::BLACK] == "b");
  CHECK(g.names[shogi::WHITE] == "w");
  CHECK(g.time_control == "10");
  CHECK(g.start_sfen == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
  for (const MoveRecord& r : g.moves) {
    CHECK_FALSE(r.opening);
    CHECK(r.time_ms >= 0);
    CHECK(r.time_ms < 2000);
    CHECK(r.answered >= r.started);
    REQUIRE(r.info.depth);
    CHECK(*r.info.depth == 1);
    CHECK(*r.info.score_cp == 0);
    REQUIRE(r.info.pv.size() == 1);
    CHECK(r.info.pv[0] == shogi::to_usi(r.move));
  }
  // The engines saw the game and its end.
  auto sent = logged(m.black().config().io_log, '>');
  CHECK(lines_starting(sent, "usinewgame").size() == 1);
  CHECK(lines_starting(sent, "gameover draw").size() == 1);
  CHECK(lines_starting(sent, "go ").size() == 10);
  // The position line grows move by move and ends with the moves played so far.
  auto positions = lines_starting(logged(m.white().config().io_log, '>'), "position ");
  REQUIRE(positions.size() == 10);
  CHECK(positions[0] == "position startpos moves " + shogi::to_usi(g.moves[0].move));
  CHECK(m.black().running());
  CHECK(m.white().running());

  // The same players play a second game from an SFEN with opening moves.
  GameOptions o2 = fast_options();
  o2.max_plies = 6;
  PlayedGame g2 = m.play(o2, "startpos moves 7g7f 3c3d");
  CHECK(g2.result.termination == Termination::MaxMoves);
  REQUIRE(g2.moves.size() == 6);
  CHECK(g2.moves[0].opening);
  CHECK(g2.moves[1].opening);
  CHECK_FALSE(g2.moves[2].opening);
  CHECK(lines_starting(logged(m.black().config().io_log, '>'), "usinewgame").size() == 2);
  m.close();
}

TEST_CASE("crash at start: Player::start reports it and the process is reaped") {
  Player p(mock("crasher", {"--behavior", "crash-at-start"}));
  auto r = p.start();
  REQUIRE_FALSE(r.has_value());
  CHECK(contains(r.error(), "engine 'crasher'"));
  CHECK(contains(r.error(), "exited during the USI handshake"));
  CHECK(contains(r.error(), "signal 11"));
  CHECK_FALSE(p.running());
  CHECK(pid_gone(p.client().process().pid()));
}

TEST_CASE("crash on go: Disconnect, the crashed engine is reaped at once") {
  Match m(mock("b", {}), mock("w", {"--behavior", "crash-on-go", "--after", "2"}));
  PlayedGame g = m.play(fast_options());
  CHECK(g.result.termination == Termination::Disconnect);
  CHECK(g.result.outcome == Outcome::BlackWin);
  CHECK(g.moves.size() == 5);  // white moved twice, died on its third go
  CHECK(contains(g.result.detail, "white (w) exited"));
  CHECK(contains(g.result.detail, "signal 11"));
  CHECK_FALSE(m.white().running());
  CHECK(pid_gone(m.pids[1]));  // reaped by the game, not only by the Player's destructor
  CHECK(m.black().running());
  CHECK(lines_starting(logged(m.black().config().io_log, '>'), "gameover win").size() == 1);

  // A player that is not running loses the next game at once, by Disconnect.
  PlayedGame again = play_game(m.black(), m.white(), "startpos", fast_options());
  CHECK(again.result.termination == Termination::Disconnect);
  CHECK(again.result.outcome == Outcome::BlackWin);
  CHECK(again.moves.empty());
  // Restarting brings it back.
  REQUIRE(m.white().start().has_value());
  m.pids.push_back(m.white().client().process().pid());
  CHECK(m.white().running());
  m.close();
}

TEST_CASE("never answers go but answers stop: TimeForfeit at the flag") {
  Match m(mock("b", {"--behavior", "never-answer-go"}, "movetime=0.3"), mock("w", {}));
  GameOptions o = fast_options();
  o.margin_ms = 50;
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::TimeForfeit);
  CHECK(g.result.outcome == Outcome::WhiteWin);
  CHECK(g.moves.empty());
  CHECK(contains(g.result.detail, "did not move within 300.0 ms + 50.0 ms margin"));
  CHECK(contains(g.result.detail, "answered stop"));
  CHECK(m.black().running());  // it answered stop: no reason to kill it
  auto sent = logged(m.black().config().io_log, '>');
  CHECK(lines_starting(sent, "stop").size() == 1);
  CHECK(lines_starting(sent, "gameover lose").size() == 1);
  m.close();
}

TEST_CASE("ignores stop and never answers: Stall, the engine is killed") {
  Match m(mock("b", {"--behavior", "ignore-stop"}, "movetime=0.3"), mock("w", {}));
  GameOptions o = fast_options();
  o.stall_timeout_ms = 300;
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::Stall);
  CHECK(g.result.outcome == Outcome::WhiteWin);
  CHECK(contains(g.result.detail, "did not answer stop within 300.0 ms: killed"));
  CHECK_FALSE(m.black().running());
  CHECK(pid_gone(m.pids[0]));
  CHECK(m.white().running());
  m.close();
}

TEST_CASE("answers just after the flag: TimeForfeit; the same delay within the margin is in time") {
  SUBCASE("margin 0: flagged") {
    Match m(mock("b", {"--behavior", "answer-after-delay", "--delay-ms", "400"}, "movetime=0.2"), mock("w", {}));
    GameOptions o = fast_options();
    o.margin_ms = 0;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::TimeForfeit);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    CHECK(contains(g.result.detail, "did not move within 200.0 ms + 0.0 ms margin"));
    m.close();
  }
  SUBCASE("margin 1000: in time, the game goes on") {
    Match m(mock("b", {"--behavior", "answer-after-delay", "--delay-ms", "400"}, "movetime=0.2"),
            mock("w", {"--behavior", "answer-after-delay", "--delay-ms", "400"}, "movetime=0.2"));
    GameOptions o = fast_options();
    o.margin_ms = 1000;
    o.max_plies = 2;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::MaxMoves);
    REQUIRE(g.moves.size() == 2);
    CHECK(g.moves[0].time_ms >= 390);
    CHECK(g.moves[1].time_ms >= 390);
    m.close();
  }
}

TEST_CASE("an engine's own margin_ms: its overrun is in time, the same overrun by an engine on the game's margin "
          "is not") {
  // Both answer 400 ms into a 200 ms move; the game's margin is 100 ms.
  EngineConfig slow = mock("b", {"--behavior", "answer-after-delay", "--delay-ms", "400"}, "movetime=0.2");
  slow.margin_ms = 1000;
  Match m(slow, mock("w", {"--behavior", "answer-after-delay", "--delay-ms", "400"}, "movetime=0.2"));
  GameOptions o = fast_options();
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::TimeForfeit);
  CHECK(g.result.outcome == Outcome::BlackWin);
  REQUIRE(g.moves.size() == 1);
  CHECK(g.moves[0].time_ms >= 390);
  CHECK(contains(g.result.detail, "did not move within 200.0 ms + 100.0 ms margin"));
  m.close();
}

TEST_CASE("illegal move: IllegalMove with the raw move text") {
  Match m(mock("b", {}), mock("w", {"--behavior", "illegal-move"}));
  PlayedGame g = m.play(fast_options());
  CHECK(g.result.termination == Termination::IllegalMove);
  CHECK(g.result.outcome == Outcome::BlackWin);
  CHECK(g.moves.size() == 1);
  // Exactly what the engine wrote.
  auto answers = lines_starting(logged(m.white().config().io_log, '<'), "bestmove ");
  REQUIRE(answers.size() == 1);
  CHECK(g.illegal_move_text == answers[0].substr(9));
  CHECK(g.illegal_move_text.size() == 4);
  CHECK(contains(g.result.detail, "white (w) played an illegal move: " + g.illegal_move_text));
  CHECK(m.white().running());
  m.close();
}

TEST_CASE("a second bestmove for one go is ignored, not judged as the answer to the next go") {
  // Before, the stale copy was read as the next move's answer and judged in the new position: an illegal move.
  Match m(mock("b", {"--random", "--seed", "5", "--behavior", "double-bestmove"}),
          mock("w", {"--random", "--seed", "6"}));
  GameOptions o = fast_options();
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::MaxMoves);
  CHECK(g.moves.size() == 20);
  // Every answer but the last was read off before the next go, each noted once in the engine's warnings.
  int stale = 0;
  for (const std::string& w : m.black().client().warnings()) stale += contains(w, "while idle");
  CHECK(stale == 9);
  CHECK(m.black().client().idle_bestmoves() == 9);
  CHECK(m.white().client().idle_bestmoves() == 0);
  m.close();
}

TEST_CASE("malformed bestmove: IllegalMove with the raw line") {
  SUBCASE("no move") {
    Match m(mock("b", {"--behavior", "malformed-bestmove"}), mock("w", {}));
    PlayedGame g = m.play(fast_options());
    CHECK(g.result.termination == Termination::IllegalMove);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    CHECK(g.illegal_move_text == "bestmove");
    CHECK(contains(g.result.detail, "malformed bestmove line 'bestmove'"));
    m.close();
  }
  SUBCASE("trailing junk") {
    Match m(mock("b", {"--behavior", "malformed-bestmove", "--text", "bestmove 7g7f and more"}), mock("w", {}));
    PlayedGame g = m.play(fast_options());
    CHECK(g.result.termination == Termination::IllegalMove);
    CHECK(g.illegal_move_text == "bestmove 7g7f and more");
    m.close();
  }
  SUBCASE("well-formed but unparsable move") {
    Match m(mock("b", {"--behavior", "malformed-bestmove", "--text", "bestmove B@6e"}), mock("w", {}));
    PlayedGame g = m.play(fast_options());
    CHECK(g.result.termination == Termination::IllegalMove);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    CHECK(g.illegal_move_text == "B@6e");
    m.close();
  }
}

TEST_CASE("bestmove win: a false declaration loses, a valid one wins") {
  SUBCASE("false") {
    Match m(mock("b", {"--behavior", "false-win"}), mock("w", {}));
    PlayedGame g = m.play(fast_options());
    CHECK(g.result.termination == Termination::IllegalDeclaration);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    CHECK(contains(g.result.detail, "declared a win falsely: "));
    CHECK(g.illegal_move_text.empty());
    m.close();
  }
  SUBCASE("valid (27-point rule: king in camp, 10 pieces, 28 points for black)") {
    // R R B B and six pawns in the camp (26 points) and two pawns in hand.
    const std::string sfen = "sfen RRBB5/4K4/PPPPPP3/9/9/9/9/9/8k b 2P 1";
    Match m(mock("b", {"--behavior", "false-win"}), mock("w", {}));
    PlayedGame g = m.play(fast_options(), sfen);
    CHECK(g.result.termination == Termination::Declaration);
    CHECK(g.result.outcome == Outcome::BlackWin);
    CHECK(g.moves.empty());
    // The same claim is false when declarations are off.
    GameOptions off = fast_options();
    off.entering_king = shogi::EnteringKingRule::Off;
    PlayedGame g2 = m.play(off, sfen);
    CHECK(g2.result.termination == Termination::IllegalDeclaration);
    CHECK(g2.result.outcome == Outcome::WhiteWin);
    m.close();
  }
}

TEST_CASE("resign: Resign") {
  Match m(mock("b", {}), mock("w", {"--behavior", "resign"}));
  PlayedGame g = m.play(fast_options());
  CHECK(g.result.termination == Termination::Resign);
  CHECK(g.result.outcome == Outcome::BlackWin);
  CHECK(g.moves.size() == 1);
  CHECK(g.result.detail == "white (w) resigned");
  CHECK(lines_starting(logged(m.white().config().io_log, '>'), "gameover lose").size() == 1);
  CHECK(lines_starting(logged(m.black().config().io_log, '>'), "gameover win").size() == 1);
  m.close();
}

TEST_CASE("info flood: the game completes normally and the flood does not extend the deadline") {
  SUBCASE("20000 info lines per move, then a move") {
    Match m(mock("b", {"--behavior", "info-flood", "--count", "20000"}), mock("w", {}));
    GameOptions o = fast_options();
    o.max_plies = 4;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::MaxMoves);
    REQUIRE(g.moves.size() == 4);
    // The last main-line info before the move is the one recorded.
    CHECK(g.moves[0].info.depth);
    CHECK(g.moves[0].info.pv == std::vector<std::string>{shogi::to_usi(g.moves[0].move)});
    m.close();
  }
  SUBCASE("an endless flood is flagged on time") {
    Match m(mock("b", {"--behavior", "info-flood", "--count", "2000000000", "--think-ms", "100000"}, "movetime=0.3"),
            mock("w", {}));
    GameOptions o = fast_options();
    o.margin_ms = 0;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::TimeForfeit);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    CHECK(contains(g.result.detail, "did not move within 300.0 ms"));
    CHECK(seconds_between(g.start_time, g.end_time) < 10.0);
    m.close();
  }
}

TEST_CASE("slow usiok: a start error within the startup timeout, fine with a longer one") {
  EngineConfig c = mock("slow", {"--behavior", "slow-usiok", "--delay-ms", "700"});
  c.startup_timeout = 200ms;
  {
    Player p(c);
    auto r = p.start();
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error(), "engine 'slow'"));
    CHECK(contains(r.error(), "no usiok within 200 ms"));
    CHECK_FALSE(p.running());
    CHECK(pid_gone(p.client().process().pid()));
  }
  c.startup_timeout = 5000ms;
  pid_t pid = 0;
  {
    Player p(c);
    auto r = p.start();
    REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error()));
    CHECK(p.running());
    CHECK(p.name() == "slow");
    pid = p.client().process().pid();
  }
  CHECK(pid_gone(pid));
}

TEST_CASE("late exit on quit: killed after the grace period") {
  SUBCASE("exits too late") {
    EngineConfig c = mock("late", {"--behavior", "late-quit-exit", "--delay-ms", "5000"});
    c.quit_grace = 300ms;
    Player p(c);
    REQUIRE(p.start().has_value());
    pid_t pid = p.client().process().pid();
    auto t0 = std::chrono::steady_clock::now();
    CHECK_FALSE(p.stop());  // did not exit by itself
    CHECK(std::chrono::steady_clock::now() - t0 < 4s);
    CHECK(pid_gone(pid));
    CHECK_FALSE(p.running());
  }
  SUBCASE("exits within the grace period") {
    EngineConfig c = mock("late", {"--behavior", "late-quit-exit", "--delay-ms", "50"});
    c.quit_grace = 3000ms;
    Player p(c);
    REQUIRE(p.start().has_value());
    pid_t pid = p.client().process().pid();
    CHECK(p.stop());
    CHECK(pid_gone(pid));
  }
}

TEST_CASE("options: a bad option is an error before any game; a name falls back to id name") {
  EngineConfig c = mock("", {"--name", "Mocky"});
  c.options = {{"Hash", "64"}, {"Threads", "99"}};
  {
    Player p(c);
    auto r = p.start();
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error(), "Threads"));
    CHECK(contains(r.error(), "99"));
    // Nothing was sent: the check comes before the first setoption.
    CHECK(lines_starting(logged(c.io_log, '>'), "setoption").empty());
    CHECK(pid_gone(p.client().process().pid()));
  }
  c.options = {{"NoSuchOption", "1"}};
  {
    Player p(c);
    auto r = p.start();
    REQUIRE_FALSE(r.has_value());
    CHECK(contains(r.error(), "no option 'NoSuchOption'"));
  }
  c.options = {{"Hash", "64"}, {"Style", "Risky"}};
  c.io_log = temp_log("options-ok");
  Player p(c);
  REQUIRE(p.start().has_value());
  CHECK(p.name() == "Mocky");
  auto sent = lines_starting(logged(c.io_log, '>'), "setoption");
  REQUIRE(sent.size() == 3);
  CHECK(sent[0] == "setoption name Hash value 64");
  CHECK(sent[1] == "setoption name Style value Risky");
  CHECK(sent[2] == "setoption name USI_Ponder value false");
  CHECK(lines_starting(logged(c.io_log, '>'), "isready").size() == 1);
}

TEST_CASE("Fischer clock end to end: btime excludes the increment, which is credited after the move") {
  SUBCASE("a 1.5 s move in 1+1 is in time and leaves 0.5 s") {
    Match m(mock("b", {"--behavior", "answer-after-delay", "--delay-ms", "1500"}, "1+1"), mock("w", {}, "1+1"));
    GameOptions o = fast_options();
    o.margin_ms = 0;
    o.max_plies = 2;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::MaxMoves);
    auto black_go = lines_starting(logged(m.black().config().io_log, '>'), "go ");
    auto white_go = lines_starting(logged(m.white().config().io_log, '>'), "go ");
    REQUIRE(black_go.size() == 1);
    REQUIRE(white_go.size() == 1);
    // A double-counting runner would send btime 2000 here.
    CHECK(black_go[0] == "go btime 1000 wtime 1000 binc 1000 winc 1000");
    long long btime = go_value(white_go[0], "btime");
    CHECK(btime > 0);
    CHECK(btime <= 500);  // 1000 + 1000 - 1500 (minus the engine's own overrun)
    // Exactly what the runner charged: 2000 ms minus the measured time (both rounded down to ms).
    long long used = g.moves[0].time_ms;
    CHECK((btime == 2000 - used || btime == 1999 - used));
    CHECK(go_value(white_go[0], "wtime") == 1000);
    CHECK(go_value(white_go[0], "binc") == 1000);
    m.close();
  }
  SUBCASE("a 1.8 s move in 1+0.5 is flagged at 1.5 s (not at 2 s)") {
    Match m(mock("b", {"--behavior", "answer-after-delay", "--delay-ms", "1800"}, "1+0.5"), mock("w", {}, "1+0.5"));
    GameOptions o = fast_options();
    o.margin_ms = 0;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::TimeForfeit);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    CHECK(contains(g.result.detail, "did not move within 1500.0 ms + 0.0 ms margin"));
    m.close();
  }
}

TEST_CASE("send_increments=false: an engine that rejects binc/winc plays Fischer with the increment in its time") {
  // gpsusi aborts on `go ... binc`; the mock does the same with reject-increment.
  SUBCASE("told binc, it dies: a Disconnect") {
    Match m(mock("b", {"--behavior", "reject-increment"}, "1+0.1"), mock("w", {}, "1+0.1"));
    PlayedGame g = m.play(fast_options());
    CHECK(g.result.termination == Termination::Disconnect);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    m.close();
  }
  SUBCASE("folded, it plays on, and the runner's clock is the usual Fischer clock") {
    EngineConfig b = mock("b", {"--behavior", "reject-increment"}, "1+0.1");
    b.send_increments = false;
    Match m(std::move(b), mock("w", {}, "1+0.1"));
    GameOptions o = fast_options();
    o.max_plies = 6;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::MaxMoves);
    auto black_go = lines_starting(logged(m.black().config().io_log, '>'), "go ");
    auto white_go = lines_starting(logged(m.white().config().io_log, '>'), "go ");
    REQUIRE(black_go.size() == 3);
    REQUIRE(white_go.size() == 3);
    CHECK(black_go[0] == "go btime 1100 wtime 1100");
    for (const std::string& line : black_go) CHECK_FALSE(contains(line, "inc"));
    // The other engine still gets binc/winc, and the clock it reports is the runner's: the increment credited
    // after each move, never folded in twice.
    long long btime = go_value(white_go[0], "btime");
    CHECK((btime == 1100 - g.moves[0].time_ms || btime == 1099 - g.moves[0].time_ms));  // ms rounding
    CHECK(go_value(white_go[0], "wtime") == 1000);
    CHECK(go_value(white_go[0], "binc") == 100);
    for (size_t i = 1; i < black_go.size(); ++i)
      CHECK(go_value(black_go[i], "btime") == go_value(white_go[i - 1], "btime") + 100);
    m.close();
  }
}

TEST_CASE("byoyomi end to end: main time first, byoyomi not banked") {
  SUBCASE("1+0.5b, 0.8 s per move: the first leaves 0.2 s, the second overruns 0.2 + 0.5") {
    Match m(mock("b", {"--behavior", "answer-after-delay", "--delay-ms", "800"}, "1+0.5b"), mock("w", {}, "1+0.5b"));
    GameOptions o = fast_options();
    o.margin_ms = 0;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::TimeForfeit);
    CHECK(g.result.outcome == Outcome::WhiteWin);
    CHECK(g.moves.size() == 2);
    auto black_go = lines_starting(logged(m.black().config().io_log, '>'), "go ");
    REQUIRE(black_go.size() == 2);
    CHECK(black_go[0] == "go btime 1000 wtime 1000 byoyomi 500");
    long long second = go_value(black_go[1], "btime");
    CHECK(second >= 0);
    CHECK(second <= 200);  // 1000 - 800; with byoyomi banked it would be 700
    CHECK(go_value(black_go[1], "byoyomi") == 500);
    // Flagged at what was left plus one byoyomi (the detail prints 0.1 ms, btime is rounded down).
    auto at = g.result.detail.find("did not move within ");
    REQUIRE(at != std::string::npos);
    double flag_ms = std::stod(g.result.detail.substr(at + 20));
    CHECK(flag_ms >= double(second + 500));
    CHECK(flag_ms <= double(second + 501));
    m.close();
  }
  SUBCASE("0+0.5b: byoyomi only, every go says btime 0") {
    Match m(mock("b", {"--behavior", "answer-after-delay", "--delay-ms", "200"}, "0+0.5b"),
            mock("w", {"--behavior", "answer-after-delay", "--delay-ms", "200"}, "0+0.5b"));
    GameOptions o = fast_options();
    o.margin_ms = 0;
    o.max_plies = 4;
    PlayedGame g = m.play(o);
    CHECK(g.result.termination == Termination::MaxMoves);
    for (const auto& go : lines_starting(logged(m.black().config().io_log, '>'), "go "))
      CHECK(go == "go btime 0 wtime 0 byoyomi 500");
    m.close();
  }
}

TEST_CASE("different controls per side reach each engine") {
  Match m(mock("b", {}, "2+0.1"), mock("w", {}, "1+0.2"));
  GameOptions o = fast_options();
  o.max_plies = 2;
  PlayedGame g = m.play(o);
  CHECK(g.time_control == "black 2+0.1, white 1+0.2");
  auto black_go = lines_starting(logged(m.black().config().io_log, '>'), "go ");
  auto white_go = lines_starting(logged(m.white().config().io_log, '>'), "go ");
  REQUIRE(black_go.size() == 1);
  REQUIRE(white_go.size() == 1);
  CHECK(black_go[0] == "go btime 2000 wtime 1000 binc 100 winc 200");
  CHECK(go_value(white_go[0], "wtime") == 1000);
  CHECK(go_value(white_go[0], "winc") == 200);
  CHECK(go_value(white_go[0], "btime") <= 2100);
  m.close();
}

TEST_CASE("sennichite from a forced position: draw") {
  // White's king on 1a/1b has exactly one legal move each time (knight 3c, pawn 2c guarded by gold 2d); black
  // shuffles its king. After 11 opening plies the engine's forced 12th makes the fourth occurrence.
  const std::string sfen =
      "sfen 8k/9/6NP1/7G1/9/9/9/9/K8 b - 1 moves 9i9h 1a1b 9h9i 1b1a 9i9h 1a1b 9h9i 1b1a "
      "9i9h 1a1b 9h9i";
  Match m(mock("b", {}), mock("w", {}));
  PlayedGame g = m.play(fast_options(), sfen);
  CHECK(g.result.termination == Termination::Sennichite);
  CHECK(g.result.outcome == Outcome::Draw);
  REQUIRE(g.moves.size() == 12);
  CHECK_FALSE(g.moves.back().opening);
  CHECK(shogi::to_usi(g.moves.back().move) == "1b1a");
  m.close();
}

TEST_CASE("perpetual check from a forced position: the checking side loses") {
  // Black's rook checks from 3a and 3b in turn; each time white's king has exactly one escape.
  const std::string sfen =
      "sfen 8k/6R2/6NP1/7G1/9/9/9/9/K8 b - 1 moves 3b3a 1a1b 3a3b 1b1a 3b3a 1a1b 3a3b 1b1a "
      "3b3a 1a1b 3a3b";
  Match m(mock("b", {}), mock("w", {}));
  PlayedGame g = m.play(fast_options(), sfen);
  CHECK(g.result.termination == Termination::PerpetualCheck);
  CHECK(g.result.outcome == Outcome::WhiteWin);
  REQUIRE(g.moves.size() == 12);
  CHECK(shogi::to_usi(g.moves.back().move) == "1b1a");
  CHECK(contains(g.result.detail, "perpetual check by black"));
  m.close();
}

TEST_CASE("a start position that is already over ends the game before any engine move") {
  // Black to move is checkmated (gold on 5h guarded by the pawn on 5g).
  Match m(mock("b", {}), mock("w", {}));
  PlayedGame g = m.play(fast_options(), "sfen 9/9/9/9/9/9/4p4/4g4/4K3k b - 1");
  CHECK(g.result.termination == Termination::Checkmate);
  CHECK(g.result.outcome == Outcome::WhiteWin);
  CHECK(g.moves.empty());
  CHECK(lines_starting(logged(m.black().config().io_log, '>'), "go").empty());
  // A start position the rules reject is a game result, not an exception, and the engines hear nothing of it.
  const auto gos = lines_starting(logged(m.black().config().io_log, '>'), "usinewgame").size();
  PlayedGame bad;
  CHECK_NOTHROW(bad = play_game(m.black(), m.white(), "sfen not-a-position", fast_options()));
  CHECK(bad.result.termination == Termination::Interrupted);
  CHECK(bad.result.outcome == Outcome::None);
  CHECK(contains(bad.result.detail, "start position 'sfen not-a-position'"));
  CHECK(bad.moves.empty());
  CHECK(bad.names[shogi::BLACK] == m.black().name());
  CHECK(lines_starting(logged(m.black().config().io_log, '>'), "usinewgame").size() == gos);
  m.close();
}

TEST_CASE("checkmate by the built-in engine: Checkmate, the mated side loses") {
  EngineConfig engine;
  engine.command = SHOGI_ARENA_ENGINE;
  engine.time_control = tc("depth=3");
  engine.startup_timeout = 10000ms;
  engine.io_log = temp_log("engine");
  // G*1b is mate (the pawn on 1c guards it).
  Match m(engine, mock("w", {}));
  PlayedGame g = m.play(fast_options(), "sfen 8k/9/8P/9/9/9/9/9/K8 b G 1");
  CHECK(g.result.termination == Termination::Checkmate);
  CHECK(g.result.outcome == Outcome::BlackWin);
  REQUIRE(g.moves.size() == 1);
  CHECK(g.names[shogi::BLACK] == m.black().client().identity().name);
  CHECK(lines_starting(logged(engine.io_log, '>'), "go depth 3").size() == 1);
  m.close();
}

TEST_CASE("ponder: a correct prediction is converted by ponderhit and timed from it") {
  // Both mocks play their first legal move, so black's predicted reply is always white's actual one.
  EngineConfig black = mock("b", {"--with-ponder", "--think-ms", "20"}, "30+0");
  black.ponder = true;
  Match m(black, mock("w", {"--think-ms", "600"}, "30+0"));
  GameOptions o = fast_options();
  o.max_plies = 7;
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::MaxMoves);
  REQUIRE(g.moves.size() == 7);
  auto sent = logged(m.black().config().io_log, '>');
  CHECK(lines_starting(sent, "setoption name USI_Ponder value true").size() == 1);
  CHECK(lines_starting(sent, "go ponder ").size() == 3);
  CHECK(lines_starting(sent, "ponderhit").size() == 3);
  CHECK(lines_starting(sent, "stop").empty());
  // Black's 2nd-4th moves are timed from the ponderhit (~20 ms), not from go ponder (>= 600 ms of white's
  // thinking before it).
  for (size_t i : {2u, 4u, 6u}) {
    CAPTURE(i);
    CHECK(g.moves[i].time_ms < 550);
    CHECK(g.moves[i - 1].time_ms >= 590);
  }
  // Black's clock was charged only for that: its go ponder lines show btime barely below 30000.
  for (const auto& go : lines_starting(sent, "go ponder ")) CHECK(go_value(go, "btime") > 29000);
  m.close();
}

TEST_CASE("ponder: a wrong prediction is stopped and discarded, then a normal search") {
  EngineConfig black = mock("b", {"--with-ponder"}, "30+0");
  black.ponder = true;
  // White plays a seeded random move: black's first-legal-move prediction misses.
  Match m(black, mock("w", {"--random", "--seed", "11"}, "30+0"));
  GameOptions o = fast_options();
  o.max_plies = 9;
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::MaxMoves);
  REQUIRE(g.moves.size() == 9);
  auto sent = logged(m.black().config().io_log, '>');
  int misses = 0, hits = 0;
  for (size_t i = 0; i < sent.size(); ++i) {
    if (sent[i].rfind("go ponder ", 0) != 0) continue;
    REQUIRE(i + 1 < sent.size());
    if (sent[i + 1] == "stop") {
      ++misses;
      // After the stop, a fresh position and go.
      REQUIRE(i + 3 < sent.size());
      CHECK(sent[i + 2].rfind("position ", 0) == 0);
      CHECK(sent[i + 3].rfind("go btime", 0) == 0);
    } else if (sent[i + 1] == "ponderhit") {
      ++hits;
    }
  }
  CHECK(misses >= 1);
  CHECK(misses + hits == 4);
  m.close();
}

TEST_CASE("ponder: after a miss, the pondering time is not charged to the ponderer and the opponent's is") {
  EngineConfig black = mock("b", {"--with-ponder"}, "30+0");
  black.ponder = true;
  // White thinks 400 ms per move (while black ponders) and plays seeded random moves: black's predictions miss.
  Match m(black, mock("w", {"--random", "--seed", "11", "--think-ms", "400"}, "30+0"));
  GameOptions o = fast_options();
  o.max_plies = 9;
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::MaxMoves);
  auto sent = logged(m.black().config().io_log, '>');
  int checked = 0;
  int white_moves_before = 0;
  for (size_t i = 0; i + 3 < sent.size(); ++i) {
    if (sent[i].rfind("go ponder ", 0) != 0) continue;
    ++white_moves_before;  // each ponder spans one white move
    if (sent[i + 1] != "stop") continue;
    long btime = -1, wtime = -1;
    REQUIRE(std::sscanf(sent[i + 3].c_str(), "go btime %ld wtime %ld", &btime, &wtime) == 2);
    // Black has used only its own instant searches; charging the ~400 ms ponder would take btime below 29600.
    CHECK(btime > 29800);
    // White's 400 ms per move are on its clock.
    CHECK(wtime <= 30000 - 400 * white_moves_before + 50);
    ++checked;
  }
  CHECK(checked >= 1);
  m.close();
}

TEST_CASE("ponder: the game ends while the opponent ponders; it is stopped before gameover") {
  EngineConfig black = mock("b", {"--with-ponder"}, "10+0");
  black.ponder = true;
  Match m(black, mock("w", {"--behavior", "resign"}));
  PlayedGame g = m.play(fast_options());
  CHECK(g.result.termination == Termination::Resign);
  CHECK(g.result.outcome == Outcome::BlackWin);
  auto sent = logged(m.black().config().io_log, '>');
  REQUIRE(sent.size() >= 3);
  CHECK(sent[sent.size() - 3].rfind("go ponder", 0) == 0);
  CHECK(sent[sent.size() - 2] == "stop");
  CHECK(sent[sent.size() - 1] == "gameover win");
  CHECK(m.black().client().state() == usi::EngineState::Idle);
  m.close();
}

TEST_CASE("interrupt: Interrupted promptly, engines stopped and kept") {
  Match m(mock("b", {"--behavior", "never-answer-go"}, "600+0"), mock("w", {}));
  std::atomic<bool> stop{false};
  std::thread t([&] {
    std::this_thread::sleep_for(300ms);
    stop = true;
  });
  PlayedGame g = m.play(fast_options(), "startpos", &stop);
  t.join();
  CHECK(g.result.termination == Termination::Interrupted);
  CHECK(g.result.outcome == Outcome::None);
  CHECK(seconds_between(g.start_time, g.end_time) < 5.0);
  CHECK(m.black().running());
  auto sent = logged(m.black().config().io_log, '>');
  REQUIRE(sent.size() >= 2);
  CHECK(sent[sent.size() - 2] == "stop");
  CHECK(sent[sent.size() - 1] == "gameover draw");
  m.close();
}

TEST_CASE("score adjudication ends a game when enabled") {
  Match m(mock("b", {}), mock("w", {}));
  GameOptions o = fast_options();
  // The mocks always say "score cp 0": a draw window of 0 cp after ply 4, 2 moves each.
  o.adjudication.draw_enabled = true;
  o.adjudication.draw_score_cp = 0;
  o.adjudication.draw_moves = 2;
  o.adjudication.draw_min_ply = 4;
  PlayedGame g = m.play(o);
  CHECK(g.result.termination == Termination::Adjudication);
  CHECK(g.result.outcome == Outcome::Draw);
  CHECK(g.moves.size() == 4);
  m.close();
}

TEST_CASE("players on separate event loops (no shared loop) play a pondering game too") {
  shogi::Position::init();
  EngineConfig b = mock("b", {"--with-ponder"}, "10+0");
  b.ponder = true;
  EngineConfig w = mock("w", {"--with-ponder"}, "10+0");
  w.ponder = true;
  pid_t pids[2];
  {
    Player black(b), white(w);
    REQUIRE(black.start().has_value());
    REQUIRE(white.start().has_value());
    pids[0] = black.client().process().pid();
    pids[1] = white.client().process().pid();
    GameOptions o = fast_options();
    o.max_plies = 6;
    PlayedGame g = play_game(black, white, "startpos", o);
    CHECK(g.result.termination == Termination::MaxMoves);
    CHECK(g.moves.size() == 6);
    CHECK(lines_starting(logged(b.io_log, '>'), "ponderhit").size() == 2);
    CHECK(lines_starting(logged(w.io_log, '>'), "ponderhit").size() == 2);
  }
  CHECK(pid_gone(pids[0]));
  CHECK(pid_gone(pids[1]));
}
