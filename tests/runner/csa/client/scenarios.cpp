// The game scenarios of the CSA client tests: each is one connection's script (csa-protocol.md §6 endings,
// engine misbehaviour, clocks, pondering, comments) with the result the client must report. The same list runs
// in memory (client_game_test.cpp) and over TCP (client_tcp_test.cpp).
#include <regex>

#include <doctest/doctest.h>

#include "client_fixture.h"

namespace csa_test {

namespace {

using arena::Outcome;
using arena::Termination;
using arena::csa::GameStatus;
using shogi::BLACK;
using shogi::WHITE;

const std::string MOVE = R"([+-]\d{4}[A-Z]{2})";

// login, summary, AGREE <exact id>, START.
Script start(const SummarySpec& spec) {
  Script s;
  s.spec = spec;
  s.login();
  s.send(game_summary(spec));
  s.expect("AGREE " + regex_escape(spec.game_id));
  s.send("START:" + spec.game_id);
  return s;
}

SummarySpec as(shogi::Color c) {
  SummarySpec s;
  s.your_turn = c;
  return s;
}

// All "go ..." lines the client wrote to the engine.
std::vector<std::string> go_lines(const std::string& log) {
  std::vector<std::string> out;
  std::regex re(R"(e> (go [^\n]*))");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

long field(const std::string& go, const std::string& key) {
  std::smatch m;
  if (!std::regex_search(go, m, std::regex(" " + key + " (\\d+)"))) return -1;
  return std::stol(m[1]);
}

}  // namespace

std::vector<Scenario> game_scenarios() {
  std::vector<Scenario> list;

  {
    Scenario s;
    s.name = "opponent resigns on its turn after five plies (black, 300+10F)";
    s.script = start(as(BLACK));
    s.script.moves(5).send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport& g) {
      REQUIRE(g.record.moves.size() == 5);
      for (const auto& m : g.record.moves) CHECK(m.time_ms == 1000);  // the server's T, not ours
      CHECK(g.end.resign_seen);
      // USI semantics: btime is the remaining time WITHOUT the increment, minus the 500 ms margin; binc apart.
      auto gos = go_lines(run.log);
      REQUIRE(gos.size() == 3);
      long b = field(gos[0], "btime");
      CHECK(b <= 299500);
      CHECK(b >= 295000);
      CHECK(field(gos[0], "wtime") == 300000);
      CHECK(field(gos[0], "binc") == 10000);
      CHECK(field(gos[0], "winc") == 10000);
      CHECK(field(gos[0], "byoyomi") == -1);
      // The record: the server's times and our engine's comments ('** score from black's view).
      REQUIRE(run.report.record_files.size() == 1);
      std::string record = read_text(run.report.record_files[0]);
      CHECK(record.find("N+alice\nN-bob\n") != std::string::npos);
      CHECK(record.find("$EVENT:test+game-300-10F+alice+bob+20260101000000") != std::string::npos);
      CHECK(record.find("$TIME_LIMIT:300+10") != std::string::npos);
      CHECK(std::regex_search(record, std::regex(R"(\n\+\d{4}[A-Z]{2}\nT1\n'\*\* 0\n)")));
      CHECK(record.find("%TORYO") != std::string::npos);
      // After our first move (T1, +10 increment) and theirs: 300 + 10 - 1 = 309 s each.
      CHECK(field(gos[1], "wtime") == 309000);
      CHECK(field(gos[1], "btime") <= 308500);
      CHECK(field(gos[1], "btime") >= 304000);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "our engine resigns (white)";
    s.engine_args = {"--behavior", "resign"};
    s.script = start(as(WHITE));
    s.script.opponent_move().expect("%TORYO").send("%TORYO\n#RESIGN\n#LOSE").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun&, const CsaGameReport& g) {
      CHECK(g.record.moves.size() == 1);
      CHECK(g.us == WHITE);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "byoyomi clock: the engine gets byoyomi minus the margin";
    SummarySpec spec = as(BLACK);
    spec.total_s = 0;
    spec.byoyomi_s = 10;
    spec.increment_s = 0;
    s.script = start(spec);
    s.script.moves(3).send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport&) {
      auto gos = go_lines(run.log);
      REQUIRE(!gos.empty());
      CHECK(field(gos[0], "btime") == 0);
      CHECK(field(gos[0], "wtime") == 0);
      CHECK(field(gos[0], "byoyomi") <= 9500);
      CHECK(field(gos[0], "byoyomi") >= 5000);
      CHECK(field(gos[0], "binc") == -1);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "time up: our late move is not echoed";
    s.script = start(as(BLACK));
    s.script.moves(2).expect(MOVE).send("#TIME_UP\n#LOSE").close();
    s.outcome = Outcome::WhiteWin;
    s.termination = Termination::TimeForfeit;
    s.check = [](const SessionRun&, const CsaGameReport& g) { CHECK(g.record.moves.size() == 2); };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "time up of the opponent";
    s.script = start(as(BLACK));
    s.script.moves(3).send("#TIME_UP\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::TimeForfeit;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "sennichite after an echoed move";
    s.script = start(as(BLACK));
    s.script.moves(4).send("#SENNICHITE\n#DRAW").close();
    s.outcome = Outcome::Draw;
    s.termination = Termination::Sennichite;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "oute-sennichite: we gave perpetual check";
    s.script = start(as(BLACK));
    s.script.moves(3).send("#OUTE_SENNICHITE\n#LOSE").close();
    s.outcome = Outcome::WhiteWin;
    s.termination = Termination::PerpetualCheck;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "max moves: #MAX_MOVES #CENSORED";
    SummarySpec spec = as(WHITE);
    spec.max_moves = 4;
    s.script = start(spec);
    s.script.moves(4).send("#MAX_MOVES\n#CENSORED").close();
    s.outcome = Outcome::Draw;
    s.termination = Termination::MaxMoves;
    s.check = [](const SessionRun&, const CsaGameReport& g) { CHECK(g.record.moves.size() == 4); };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "illegal move by the opponent (not echoed, shogi-server style)";
    s.script = start(as(BLACK));
    s.script.moves(1).send("#ILLEGAL_MOVE\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::IllegalMove;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "illegal move by the opponent relayed by the server, then its verdict";
    s.script = start(as(BLACK));
    s.script.moves(1).opponent_move(1, "-5554FU").send("#ILLEGAL_MOVE\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::IllegalMove;
    s.check = [](const SessionRun&, const CsaGameReport& g) {
      CHECK(g.record.illegal_move_text == "-5554FU");
      CHECK(g.record.moves.size() == 1);
      bool warned = false;
      for (auto& w : g.warnings) warned |= w.find("our rules reject") != std::string::npos;
      CHECK(warned);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "valid %KACHI: the engine declares and the 27-point rule holds";
    s.engine_args = {"--behavior", "false-win"};
    SummarySpec spec = as(BLACK);
    spec.sfen = "RRBBGGGGS/4KS3/9/9/9/9/9/9/8k b 2P 1";
    s.script = start(spec);
    s.script.expect("%KACHI").send("%KACHI\n#JISHOGI\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Declaration;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "invalid win: never sent as %KACHI, a legal move is played instead";
    s.engine_args = {"--behavior", "false-win"};
    s.script = start(as(BLACK));
    s.script.client_move().send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport& g) {
      CHECK(g.fallback_moves == 1);
      for (auto& r : run.referees)
        for (auto& line : r->received()) CHECK(line.text != "%KACHI");
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "the opponent's invalid %KACHI";
    s.script = start(as(WHITE));
    s.script.send("%KACHI,T3\n%KACHI\n#ILLEGAL_MOVE\n#WIN").close();
    s.outcome = Outcome::WhiteWin;
    s.termination = Termination::IllegalDeclaration;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "the server closes the connection mid-game";
    s.script = start(as(BLACK));
    s.script.moves(3).close();
    s.status = GameStatus::ConnectionLost;
    s.outcome = Outcome::None;
    s.termination = Termination::Interrupted;
    s.check = [](const SessionRun&, const CsaGameReport& g) { CHECK(g.record.moves.size() == 3); };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "garbled lines are ignored";
    s.script = start(as(BLACK));
    s.script.moves(2)
        .send("+77FU\n#WHATEVER\nhello world\n-7776FU,Tx\nBEGIN\n\n   ")
        .moves(2)
        .send("%TORYO\n#RESIGN\n#WIN")
        .close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun&, const CsaGameReport& g) {
      CHECK(g.record.moves.size() == 4);
      // "+77FU", "#WHATEVER", "-7776FU,Tx" have a known shape and a broken body; "hello world", "BEGIN" and
      // "   " have no known shape. The empty line is a keep-alive answer.
      int garbled = 0, unexpected = 0;
      for (auto& w : g.warnings) {
        garbled += w.find("garbled") != std::string::npos;
        unexpected += w.find("unexpected line") != std::string::npos;
      }
      CHECK(garbled == 3);
      CHECK(unexpected == 3);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "#CHUDAN alone";
    s.script = start(as(BLACK));
    s.script.moves(2).send("#CHUDAN").close();
    s.outcome = Outcome::None;
    s.termination = Termination::Interrupted;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "a reason line followed by extra lines before the result";
    s.script = start(as(WHITE));
    s.script.moves(2).send("#TIME_UP\n##[CHAT] server: time is up\n\n#WIN").close();
    s.outcome = Outcome::WhiteWin;
    s.termination = Termination::TimeForfeit;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "#CENSORED alone";
    s.script = start(as(BLACK));
    s.script.moves(2).send("#CENSORED").close();
    s.outcome = Outcome::Draw;
    s.termination = Termination::MaxMoves;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "the opponent disconnects on our turn: our move echoed, then %TORYO #RESIGN #WIN";
    s.script = start(as(WHITE));
    s.script.moves(2).send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::WhiteWin;
    s.termination = Termination::Resign;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "a resumed game: the Position block has moves";
    SummarySpec spec = as(BLACK);
    spec.moves = {"+7776FU", "-3334FU"};
    s.script = start(spec);
    s.script.moves(2).send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport& g) {
      REQUIRE(g.record.moves.size() == 4);
      CHECK(g.record.moves[0].opening);
      CHECK(g.record.moves[1].opening);
      CHECK_FALSE(g.record.moves[2].opening);
      CHECK(run.log.find("e> position startpos moves 7g7f 3c3d") != std::string::npos);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "the engine plays an illegal move: a legal one is sent instead";
    s.engine_args = {"--behavior", "illegal-move"};
    s.script = start(as(BLACK));
    s.script.moves(3).send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun&, const CsaGameReport& g) { CHECK(g.fallback_moves == 2); };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "the engine crashes mid-game: restarted, the game goes on";
    s.engine_args = {"--behavior", "crash-on-go", "--after", "2"};
    s.script = start(as(BLACK));
    s.script.moves(8).send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun&, const CsaGameReport& g) {
      CHECK(g.engine_restarts >= 1);
      CHECK(g.fallback_moves == 0);
      CHECK(g.record.moves.size() == 8);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "pondering: a ponder hit";
    s.engine_args = {"--with-ponder"};
    s.tweak = [](CsaClientConfig& c) { c.engine.ponder = true; };
    s.script = start(as(BLACK));
    // The opponent takes a moment, so the engine is pondering when its move comes.
    for (int i = 0; i < 3; ++i) s.script.client_move().pause(100ms).opponent_move();
    s.script.client_move().send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport& g) {
      CHECK(run.log.find("e> setoption name USI_Ponder value true") != std::string::npos);
      CHECK(run.log.find("e> go ponder") != std::string::npos);
      CHECK(run.log.find("e> ponderhit") != std::string::npos);
      CHECK(g.record.moves.size() == 7);
      CHECK(g.line_to_go_us.size() == 4);  // the first go and three ponderhits
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "pondering: a ponder miss";
    s.engine_args = {"--with-ponder"};
    s.tweak = [](CsaClientConfig& c) { c.engine.ponder = true; };
    s.script = start(as(BLACK));
    s.script.client_move().pause(100ms).opponent_move(1, "LAST").client_move().send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport&) {
      CHECK(run.log.find("e> go ponder") != std::string::npos);
      CHECK(run.log.find("e> stop") != std::string::npos);
      CHECK(run.log.find("e> ponderhit") == std::string::npos);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "Floodgate comments: score from black's view and PV after the move";
    s.tweak = [](CsaClientConfig& c) { c.floodgate_comments = true; };
    s.script = start(as(WHITE));
    s.script.moves(4).send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::WhiteWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport&) {
      REQUIRE(run.referees.size() == 1);
      auto& comments = run.referees[0]->comments();
      CHECK(comments.size() == 2);
      for (auto& c : comments) CHECK(std::regex_match(c, std::regex(R"(\* -?\d+( [+-]\d{4}[A-Z]{2})*)")));
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "own flag: an engine that never answers gets stop before the budget ends";
    s.engine_args = {"--behavior", "never-answer-go"};
    s.tweak = [](CsaClientConfig& c) { c.margin_ms = 1000; };
    SummarySpec spec = as(BLACK);
    spec.total_s = 0;
    spec.byoyomi_s = 2;
    spec.increment_s = 0;
    s.script = start(spec);
    s.script.client_move().send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun& run, const CsaGameReport& g) {
      CHECK(run.log.find("e> stop") != std::string::npos);
      CHECK(g.fallback_moves == 0);  // the mock answers stop with its move
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "own flag: an engine that ignores stop: the client moves itself and restarts it";
    s.engine_args = {"--behavior", "ignore-stop"};
    s.tweak = [](CsaClientConfig& c) { c.margin_ms = 1000; };
    SummarySpec spec = as(BLACK);
    spec.total_s = 0;
    spec.byoyomi_s = 2;
    spec.increment_s = 0;
    s.script = start(spec);
    s.script.client_move().opponent_move().client_move().send("%TORYO\n#RESIGN\n#WIN").close();
    s.outcome = Outcome::BlackWin;
    s.termination = Termination::Resign;
    s.check = [](const SessionRun&, const CsaGameReport& g) {
      CHECK(g.fallback_moves == 2);
      CHECK(g.engine_restarts >= 1);
    };
    s.slow = true;
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "REJECT: a Game_Summary whose position the rules library rejects";
    SummarySpec spec = as(BLACK);
    std::string text = game_summary(spec);
    // Two black kings.
    text.replace(text.find("P9+KY+KE+GI+KI+OU"), 17, "P9+KY+KE+GI+OU+OU");
    s.script.login();
    s.script.send(text).expect("REJECT " + regex_escape(spec.game_id));
    s.script.send("REJECT:" + spec.game_id + " by tester").close();
    s.status = GameStatus::Rejected;
    s.tweak = [](CsaClientConfig& c) { c.reconnect_attempts = 1; };
    s.check = [](const SessionRun& run, const CsaGameReport& g) {
      CHECK_FALSE(g.started);
      CHECK(g.detail.find("cannot play this game") != std::string::npos);
      CHECK(run.report.games_started == 0);
    };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "REJECT: a Time_Unit the client cannot read";
    SummarySpec spec = as(BLACK);
    std::string text = game_summary(spec);
    text.replace(text.find("Time_Unit:1sec"), 14, "Time_Unit:1fortnight");
    s.script.login();
    s.script.send(text).expect("REJECT " + regex_escape(spec.game_id));
    s.script.send("REJECT:" + spec.game_id + " by tester").close();
    s.status = GameStatus::Rejected;
    s.tweak = [](CsaClientConfig& c) { c.reconnect_attempts = 1; };
    s.check = [](const SessionRun&, const CsaGameReport& g) { CHECK(g.detail.find("Time_Unit") != std::string::npos); };
    list.push_back(std::move(s));
  }
  {
    Scenario s;
    s.name = "the opponent rejects";
    SummarySpec spec = as(WHITE);
    s.script.login();
    s.script.send(game_summary(spec)).expect("AGREE .*").send("REJECT:" + spec.game_id + " by bob").close();
    s.status = GameStatus::Rejected;
    s.tweak = [](CsaClientConfig& c) { c.reconnect_attempts = 1; };
    s.check = [](const SessionRun&, const CsaGameReport& g) { CHECK(g.detail == "rejected by bob"); };
    list.push_back(std::move(s));
  }
  return list;
}

void run_scenario(Scenario& s, bool tcp) {
  CsaClientConfig cfg = test_config(
      fresh_dir(std::string(tcp ? "tcp-" : "mem-") + std::to_string(std::hash<std::string>{}(s.name))), s.engine_args);
  if (s.tweak) s.tweak(cfg);
  SessionRun run = tcp ? run_tcp({s.script}, cfg) : run_in_memory({s.script}, cfg);
  INFO("log:\n" << run.log);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  REQUIRE(!run.report.games.empty());
  const CsaGameReport& g = run.report.games.front();
  CHECK(g.status == s.status);
  if (s.status != arena::csa::GameStatus::Rejected) {
    CHECK(g.record.result.outcome == s.outcome);
    CHECK(g.record.result.termination == s.termination);
    // Every game that started leaves a record.
    CHECK(run.report.record_files.size() == 1);
  }
  if (s.check) s.check(run, g);
}

}  // namespace csa_test
