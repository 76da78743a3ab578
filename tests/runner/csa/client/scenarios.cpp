// The game scenarios of the CSA client tests, as a table: each row is one connection's script (csa-protocol.md §6
// endings, engine misbehaviour, clocks, pondering, comments) and the result the client must report. The same list
// runs in memory (client_game_test.cpp) and over TCP (client_tcp_test.cpp).
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
const std::string OPPONENT_RESIGNS = "%TORYO\n#RESIGN\n#WIN";
const std::string US = "tester";  // test_config's user, named by the server's REJECT of a game we reject

// A step of the server after START. Plies are resolved when the script is built, against the row's summary (whose
// turn each one is), so a row holds steps rather than a Script.
using ScriptStep = std::function<void(Script&)>;
ScriptStep plies(int n) {
  return [n](Script& s) { s.moves(n); };
}
ScriptStep their_move(const std::string& csa) {
  return [csa](Script& s) { s.opponent_move(1, csa); };
}
ScriptStep opponent_thinks(milliseconds d) {
  return [d](Script& s) { s.pause(d); };
}
ScriptStep client_sends(const std::string& regex) {
  return [regex](Script& s) { s.expect(regex); };
}
ScriptStep server_sends(const std::string& lines) {
  return [lines](Script& s) { s.send(lines); };
}

void pondering(CsaClientConfig& c) { c.engine.ponder = true; }
void floodgate_comments(CsaClientConfig& c) { c.floodgate_comments = true; }
// The product's margin: with 2 s of byoyomi the engine gets stop after 1 s and the client moves itself at 1.5 s,
// with room to spare on a busy machine.
void margin_1s(CsaClientConfig& c) { c.margin_ms = 1000; }

struct Result {
  Outcome outcome = Outcome::None;
  Termination termination = Termination::None;
};

// One scenario as data: the setup, the server's script, then the expectations (rows are laid out in that order).
// Expectations left at their defaults (-1, false, empty) are not checked.
struct Row {
  std::string name;
  shogi::Color us = BLACK;
  SummarySpec summary{};                               // the Game_Summary's terms; Your_Turn comes from `us`
  std::pair<std::string, std::string> summary_edit{};  // {from, to} in its text: what SummarySpec cannot write
  std::vector<std::string> engine_args{};              // the mock engine's
  void (*tweak)(CsaClientConfig&) = nullptr;
  bool slow = false;               // seconds of engine time: in memory only
  std::string rejected_by{};       // the server's REJECT instead of START, naming US or the opponent
  std::vector<ScriptStep> play{};  // after START
  std::string end{};               // the server's last lines before it closes; empty: it just closes
  GameStatus status = GameStatus::Finished;
  Result result{};
  int record_moves = -1;
  int fallback_moves = -1;
  bool engine_restarted = false;
  std::vector<std::string> engine_got{};  // lines the client must have written to the engine
  std::string warning{};                  // a substring of one of the game's warnings
  std::function<void(const SessionRun&, const CsaGameReport&)> check{};  // what no column says
};

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

int warnings_with(const CsaGameReport& g, const std::string& text) {
  int n = 0;
  for (auto& w : g.warnings) n += w.find(text) != std::string::npos;
  return n;
}

// A table, one row a scenario, laid out by hand.
// clang-format off
std::vector<Row> rows() {
  return {
    {.name = "opponent resigns on its turn after five plies (black, 300+10F)",
     .play = {plies(5)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .record_moves = 5,
     .check = [](auto& run, auto& g) {
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
     }},
    {.name = "our engine resigns (white)", .us = WHITE, .engine_args = {"--behavior", "resign"},
     .play = {plies(1), client_sends("%TORYO")}, .end = "%TORYO\n#RESIGN\n#LOSE",
     .result = {Outcome::BlackWin, Termination::Resign}, .record_moves = 1},
    {.name = "byoyomi clock: the engine gets byoyomi minus the margin",
     .summary = {.total_s = 0, .byoyomi_s = 10, .increment_s = 0},
     .play = {plies(3)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign},
     .check = [](auto& run, auto&) {
       auto gos = go_lines(run.log);
       REQUIRE(!gos.empty());
       CHECK(field(gos[0], "btime") == 0);
       CHECK(field(gos[0], "wtime") == 0);
       CHECK(field(gos[0], "byoyomi") <= 9500);
       CHECK(field(gos[0], "byoyomi") >= 5000);
       CHECK(field(gos[0], "binc") == -1);
     }},
    {.name = "time up: our late move is not echoed",
     .play = {plies(2), client_sends(MOVE)}, .end = "#TIME_UP\n#LOSE",
     .result = {Outcome::WhiteWin, Termination::TimeForfeit}, .record_moves = 2},
    {.name = "time up of the opponent",
     .play = {plies(3)}, .end = "#TIME_UP\n#WIN",
     .result = {Outcome::BlackWin, Termination::TimeForfeit}},
    {.name = "sennichite after an echoed move",
     .play = {plies(4)}, .end = "#SENNICHITE\n#DRAW",
     .result = {Outcome::Draw, Termination::Sennichite}},
    {.name = "oute-sennichite: we gave perpetual check",
     .play = {plies(3)}, .end = "#OUTE_SENNICHITE\n#LOSE",
     .result = {Outcome::WhiteWin, Termination::PerpetualCheck}},
    {.name = "max moves: #MAX_MOVES #CENSORED", .us = WHITE, .summary = {.max_moves = 4},
     .play = {plies(4)}, .end = "#MAX_MOVES\n#CENSORED",
     .result = {Outcome::Draw, Termination::MaxMoves}, .record_moves = 4},
    {.name = "illegal move by the opponent (not echoed, shogi-server style)",
     .play = {plies(1)}, .end = "#ILLEGAL_MOVE\n#WIN",
     .result = {Outcome::BlackWin, Termination::IllegalMove}},
    {.name = "illegal move by the opponent relayed by the server, then its verdict",
     .play = {plies(1), their_move("-5554FU")}, .end = "#ILLEGAL_MOVE\n#WIN",
     .result = {Outcome::BlackWin, Termination::IllegalMove}, .record_moves = 1, .warning = "our rules reject",
     .check = [](auto&, auto& g) { CHECK(g.record.illegal_move_text == "-5554FU"); }},
    {.name = "valid %KACHI: the engine declares and the 27-point rule holds",
     .summary = {.sfen = "RRBBGGGGS/4KS3/9/9/9/9/9/9/8k b 2P 1"}, .engine_args = {"--behavior", "false-win"},
     .play = {client_sends("%KACHI")}, .end = "%KACHI\n#JISHOGI\n#WIN",
     .result = {Outcome::BlackWin, Termination::Declaration}},
    {.name = "invalid win: never sent as %KACHI, a legal move is played instead",
     .engine_args = {"--behavior", "false-win"},
     .play = {plies(1)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .fallback_moves = 1,
     .check = [](auto& run, auto&) {
       for (auto& r : run.referees)
         for (auto& line : r->received()) CHECK(line.text != "%KACHI");
     }},
    {.name = "the opponent's invalid %KACHI", .us = WHITE,
     .end = "%KACHI,T3\n%KACHI\n#ILLEGAL_MOVE\n#WIN",
     .result = {Outcome::WhiteWin, Termination::IllegalDeclaration}},
    {.name = "the server closes the connection mid-game",
     .play = {plies(3)},
     .status = GameStatus::ConnectionLost, .result = {Outcome::None, Termination::Interrupted}, .record_moves = 3},
    {.name = "garbled lines are ignored",
     .play = {plies(2), server_sends("+77FU\n#WHATEVER\nhello world\n-7776FU,Tx\nBEGIN\n\n   "), plies(2)},
     .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .record_moves = 4,
     .check = [](auto&, auto& g) {
       // "+77FU", "#WHATEVER", "-7776FU,Tx" have a known shape and a broken body; "hello world", "BEGIN" and
       // "   " have no known shape. The empty line is a keep-alive answer.
       CHECK(warnings_with(g, "garbled") == 3);
       CHECK(warnings_with(g, "unexpected line") == 3);
     }},
    {.name = "#CHUDAN alone",
     .play = {plies(2)}, .end = "#CHUDAN",
     .result = {Outcome::None, Termination::Interrupted}},
    {.name = "a reason line followed by extra lines before the result", .us = WHITE,
     .play = {plies(2)}, .end = "#TIME_UP\n##[CHAT] server: time is up\n\n#WIN",
     .result = {Outcome::WhiteWin, Termination::TimeForfeit}},
    {.name = "#CENSORED alone",
     .play = {plies(2)}, .end = "#CENSORED",
     .result = {Outcome::Draw, Termination::MaxMoves}},
    {.name = "the opponent disconnects on our turn: our move echoed, then %TORYO #RESIGN #WIN", .us = WHITE,
     .play = {plies(2)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::WhiteWin, Termination::Resign}},
    {.name = "a resumed game: the Position block has moves", .summary = {.moves = {"+7776FU", "-3334FU"}},
     .play = {plies(2)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .record_moves = 4,
     .engine_got = {"position startpos moves 7g7f 3c3d"},
     .check = [](auto&, auto& g) {
       CHECK(g.record.moves[0].opening);
       CHECK(g.record.moves[1].opening);
       CHECK_FALSE(g.record.moves[2].opening);
     }},
    {.name = "the engine plays an illegal move: a legal one is sent instead",
     .engine_args = {"--behavior", "illegal-move"},
     .play = {plies(3)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .fallback_moves = 2},
    {.name = "the engine crashes mid-game: restarted, the game goes on",
     .engine_args = {"--behavior", "crash-on-go", "--after", "2"},
     .play = {plies(8)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .record_moves = 8, .fallback_moves = 0,
     .engine_restarted = true},
    // The opponent takes a moment, so the engine is pondering when its move comes.
    {.name = "pondering: a ponder hit", .engine_args = {"--with-ponder"}, .tweak = pondering,
     .play = {plies(1), opponent_thinks(100ms), plies(2), opponent_thinks(100ms), plies(2), opponent_thinks(100ms),
              plies(2)},
     .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .record_moves = 7,
     .engine_got = {"setoption name USI_Ponder value true", "go ponder", "ponderhit"},
     .check = [](auto&, auto& g) {
       CHECK(g.line_to_go_us.size() == 4);  // the first go and three ponderhits
     }},
    {.name = "pondering: a ponder miss", .engine_args = {"--with-ponder"}, .tweak = pondering,
     .play = {plies(1), opponent_thinks(100ms), their_move("LAST"), plies(1)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .engine_got = {"go ponder", "stop"},
     .check = [](auto& run, auto&) { CHECK(run.log.find("e> ponderhit") == std::string::npos); }},
    {.name = "Floodgate comments: score from black's view and PV after the move", .us = WHITE,
     .tweak = floodgate_comments,
     .play = {plies(4)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::WhiteWin, Termination::Resign},
     .check = [](auto& run, auto&) {
       REQUIRE(run.referees.size() == 1);
       auto& comments = run.referees[0]->comments();
       CHECK(comments.size() == 2);
       for (auto& c : comments) CHECK(std::regex_match(c, std::regex(R"(\* -?\d+( [+-]\d{4}[A-Z]{2})*)")));
     }},
    {.name = "own flag: an engine that never answers gets stop before the budget ends",
     .summary = {.total_s = 0, .byoyomi_s = 2, .increment_s = 0},
     .engine_args = {"--behavior", "never-answer-go"}, .tweak = margin_1s,
     .play = {plies(1)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign},
     .fallback_moves = 0,  // the mock answers stop with its move
     .engine_got = {"stop"}},
    {.name = "own flag: an engine that ignores stop: the client moves itself and restarts it",
     .summary = {.total_s = 0, .byoyomi_s = 2, .increment_s = 0},
     .engine_args = {"--behavior", "ignore-stop"}, .tweak = margin_1s, .slow = true,
     .play = {plies(3)}, .end = OPPONENT_RESIGNS,
     .result = {Outcome::BlackWin, Termination::Resign}, .fallback_moves = 2, .engine_restarted = true},
    {.name = "REJECT: a Game_Summary whose position the rules library rejects",
     .summary_edit = {"P9+KY+KE+GI+KI+OU", "P9+KY+KE+GI+OU+OU"},  // two black kings
     .rejected_by = US,
     .status = GameStatus::Rejected,
     .check = [](auto& run, auto& g) {
       CHECK_FALSE(g.started);
       CHECK(g.detail.find("cannot play this game") != std::string::npos);
       CHECK(run.report.games_started == 0);
     }},
    {.name = "REJECT: a Time_Unit the client cannot read",
     .summary_edit = {"Time_Unit:1sec", "Time_Unit:1fortnight"},
     .rejected_by = US,
     .status = GameStatus::Rejected,
     .check = [](auto&, auto& g) { CHECK(g.detail.find("Time_Unit") != std::string::npos); }},
    {.name = "the opponent rejects", .us = WHITE,
     .rejected_by = "bob",
     .status = GameStatus::Rejected,
     .check = [](auto&, auto& g) { CHECK(g.detail == "rejected by bob"); }},
  };
}
// clang-format on

// Login, the summary and the client's answer to it; then START, the row's play and its end, or the server's REJECT.
Script script_of(const Row& r) {
  Script s;
  s.spec = r.summary;
  s.spec.your_turn = r.us;
  std::string summary = game_summary(s.spec);
  if (const auto& [from, to] = r.summary_edit; !from.empty()) summary.replace(summary.find(from), from.size(), to);
  const std::string id = s.spec.game_id;
  s.login().send(summary).expect((r.rejected_by == US ? "REJECT " : "AGREE ") + regex_escape(id));
  if (!r.rejected_by.empty()) return s.send("REJECT:" + id + " by " + r.rejected_by).close();
  s.send("START:" + id);
  for (const auto& step : r.play) step(s);
  if (!r.end.empty()) s.send(r.end);
  return s.close();
}

// The columns' checks, after run_scenario's (status, result, a record for a started game), then the row's own.
void check_row(const Row& r, const SessionRun& run, const CsaGameReport& g) {
  if (r.status != GameStatus::Rejected) CHECK(g.us == r.us);
  // REQUIRE: a row's own check may index the moves.
  if (r.record_moves >= 0) REQUIRE(g.record.moves.size() == std::size_t(r.record_moves));
  if (r.fallback_moves >= 0) CHECK(g.fallback_moves == r.fallback_moves);
  if (r.engine_restarted) CHECK(g.engine_restarts >= 1);
  for (const auto& line : r.engine_got) CHECK_MESSAGE(run.log.find("e> " + line) != std::string::npos, line);
  if (!r.warning.empty()) CHECK_MESSAGE(warnings_with(g, r.warning) > 0, r.warning);
  if (r.check) r.check(run, g);
}

Scenario scenario_of(Row r) {
  Scenario s;
  s.name = r.name;
  s.engine_args = r.engine_args;
  s.tweak = [tweak = r.tweak, rejected = !r.rejected_by.empty()](CsaClientConfig& c) {
    if (tweak) tweak(c);
    // The session connects again for the game a rejection leaves unplayed and finds no script: one attempt will do.
    if (rejected) c.reconnect_attempts = 1;
  };
  s.script = script_of(r);
  s.status = r.status;
  s.outcome = r.result.outcome;
  s.termination = r.result.termination;
  s.slow = r.slow;
  s.check = [r = std::move(r)](const SessionRun& run, const CsaGameReport& g) { check_row(r, run, g); };
  return s;
}

}  // namespace

std::vector<Scenario> game_scenarios() {
  std::vector<Scenario> list;
  for (auto& r : rows()) list.push_back(scenario_of(std::move(r)));
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
