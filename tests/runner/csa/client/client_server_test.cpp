// Both sides through the project's own CSA server (csa/server/server.h) over TCP: each player is a full client
// session with its own engine. Mock engines by default; the built-in engine in the slow suite.
#include <filesystem>
#include <thread>

#include <doctest/doctest.h>

#include "client_fixture.h"
#include "csa/server/server.h"
#include "rules/notation.h"

using namespace csa_test;

namespace {

struct Match {
  arena::csa::CsaServerConfig server_config;
  CsaClientConfig black, white;
};

struct MatchResult {
  CsaSessionReport black, white;
  std::vector<arena::csa::CsaFinishedGame> games;
  std::string black_log, white_log;
};

MatchResult play(Match m, std::size_t games) {
  arena::csa::CsaServer server(m.server_config);
  auto ok = server.start();
  REQUIRE_MESSAGE(ok.has_value(), (ok ? "" : ok.error()));
  MatchResult r;
  for (auto* c : {&m.black, &m.white}) {
    c->host = "127.0.0.1";
    c->port = server.port();
  }
  auto run = [](const CsaClientConfig& c, CsaSessionReport& out) {
    arena::csa::TcpEndpoint ep{c.host, c.port, c.connect_timeout, true};
    out = arena::csa::run_csa_session(c, [&] { return arena::csa::connect_tcp(ep); });
  };
  std::thread a([&] { run(m.black, r.black); });
  std::thread b([&] { run(m.white, r.white); });
  a.join();
  b.join();
  server.wait_for_finished_games(games, 5s);
  r.games = server.finished_games();
  server.stop();
  r.black_log = read_text(log_path(m.black));
  r.white_log = read_text(log_path(m.white));
  return r;
}

Match mock_match(const std::string& name, arena::csa::LoginMode mode) {
  std::string dir = fresh_dir(name);
  Match m;
  m.server_config.port = 0;
  m.server_config.output_dir = dir + "/server";
  m.server_config.log_file = dir + "/server/server.log";
  m.server_config.log_traffic = true;
  m.server_config.max_moves = 30;
  m.black = test_config(dir + "/black", {"--random", "--seed", "1", "--name", "MockA"});
  m.white = test_config(dir + "/white", {"--random", "--seed", "2", "--name", "MockB"});
  m.black.user = "alice";
  m.white.user = "bob";
  for (auto* c : {&m.black, &m.white}) {
    c->mode = mode;
    c->game_name = "mock-60-1F";
    c->trip = "";
    c->password = mode == arena::csa::LoginMode::X1 ? "pw-" + c->user : "";
  }
  m.black.turn = '+';
  m.white.turn = '-';
  m.black.floodgate_comments = true;  // the server must take the ,'* comments
  return m;
}

// The clients' records and the server's agree move by move, with the server's T.
void check_consistent(const CsaGameReport& black, const CsaGameReport& white,
                      const arena::csa::CsaFinishedGame& server) {
  CHECK(black.status == arena::csa::GameStatus::Finished);
  CHECK(white.status == arena::csa::GameStatus::Finished);
  CHECK(black.game_id == server.game_id);
  CHECK(white.game_id == server.game_id);
  CHECK(black.us == shogi::BLACK);
  CHECK(white.us == shogi::WHITE);
  REQUIRE(black.record.moves.size() == server.moves.size());
  REQUIRE(white.record.moves.size() == server.moves.size());
  for (std::size_t i = 0; i < server.moves.size(); ++i) {
    CHECK(shogi::to_csa(black.record.moves[i].move) == server.moves[i]);
    CHECK(shogi::to_csa(white.record.moves[i].move) == server.moves[i]);
    CHECK(black.record.moves[i].time_ms == server.times_s[i] * 1000);
    CHECK(white.record.moves[i].time_ms == server.times_s[i] * 1000);
  }
  CHECK(black.record.result.outcome == white.record.result.outcome);
  CHECK(black.record.result.termination == white.record.result.termination);
  // Nobody loses on time, makes an illegal move or needs the client's fallback.
  CHECK(black.record.result.termination != arena::Termination::TimeForfeit);
  CHECK(black.record.result.termination != arena::Termination::IllegalMove);
  CHECK(black.fallback_moves + white.fallback_moves == 0);
}

}  // namespace

TEST_CASE("through the project's CSA server, CSA mode: two mock engines play to Max_Moves") {
  MatchResult r = play(mock_match("server-csa", arena::csa::LoginMode::Csa), 1);
  INFO("black log:\n" << r.black_log);
  INFO("white log:\n" << r.white_log);
  CHECK(r.black.exit_code == 0);
  CHECK(r.white.exit_code == 0);
  REQUIRE(r.black.games.size() == 1);
  REQUIRE(r.white.games.size() == 1);
  REQUIRE(r.games.size() == 1);
  check_consistent(r.black.games[0], r.white.games[0], r.games[0]);
  CHECK(r.games[0].end_reason == "#MAX_MOVES");
  CHECK(r.black.games[0].record.result.termination == arena::Termination::MaxMoves);
  CHECK(r.black.games[0].end.result == arena::csa::EndResult::Censored);
  // The server recorded black's Floodgate comments.
  std::string record = read_text(r.games[0].record_path);
  CHECK(record.find("'** ") != std::string::npos);
}

TEST_CASE("through the project's CSA server: the summary's rules are told to an engine that advertises them") {
  Match m = mock_match("server-rules", arena::csa::LoginMode::Csa);
  m.black = test_config(fresh_dir("server-rules-black"), {"--random", "--seed", "1", "--rule-options"});
  m.black.user = "alice";
  m.black.game_name = "mock-60-1F";
  m.black.trip = "";
  m.black.turn = '+';
  MatchResult r = play(m, 1);
  INFO("black log:\n" << r.black_log);
  REQUIRE(r.black.games.size() == 1);
  // Declaration:Jishogi 1.1 is the 27-point rule; Max_Moves 30 of the server's configuration.
  CHECK(r.black_log.find("setoption name EnteringKingRule value CSARule27") != std::string::npos);
  CHECK(r.black_log.find("setoption name MaxMovesToDraw value 30") != std::string::npos);
  CHECK(r.black_log.find("EnteringKingRule set to CSARule27") != std::string::npos);
  // The other engine advertises neither: it is told nothing.
  CHECK(r.white_log.find("setoption name EnteringKingRule") == std::string::npos);
}

TEST_CASE("through the project's CSA server, x1 mode: an engine kept for the next game is told its rules once") {
  Match m = mock_match("server-rules-x1", arena::csa::LoginMode::X1);
  m.black.engine.args.push_back("--rule-options");
  m.black.games = 2;
  m.white.games = 2;
  MatchResult r = play(m, 2);
  INFO("black log:\n" << r.black_log);
  REQUIRE(r.black.games.size() == 2);
  for (const auto& g : r.black.games) CHECK(g.engine_restarts == 0);
  size_t told = 0;
  for (size_t at = 0; (at = r.black_log.find("setoption name EnteringKingRule value", at)) != std::string::npos; ++at)
    ++told;
  CHECK(told == 1);
}

TEST_CASE("through the project's CSA server, x1 mode: two games on one connection each") {
  Match m = mock_match("server-x1", arena::csa::LoginMode::X1);
  m.black.games = 2;
  m.white.games = 2;
  MatchResult r = play(m, 2);
  INFO("black log:\n" << r.black_log);
  INFO("white log:\n" << r.white_log);
  CHECK(r.black.exit_code == 0);
  CHECK(r.white.exit_code == 0);
  CHECK(r.black.logins == 1);
  CHECK(r.white.logins == 1);
  REQUIRE(r.black.games.size() == 2);
  REQUIRE(r.white.games.size() == 2);
  REQUIRE(r.games.size() == 2);
  for (int i = 0; i < 2; ++i) check_consistent(r.black.games[i], r.white.games[i], r.games[i]);
}

#ifdef SHOGI_ARENA_ENGINE
TEST_CASE("through the project's CSA server: the built-in engine against itself") {
  std::string dir = fresh_dir("server-builtin");
  Match m;
  m.server_config.port = 0;
  m.server_config.output_dir = dir + "/server";
  m.server_config.log_file = dir + "/server/server.log";
  m.server_config.max_moves = 80;
  m.black = test_config(dir + "/black");
  m.white = test_config(dir + "/white");
  m.black.user = "arena_black";
  m.white.user = "arena_white";
  for (auto* c : {&m.black, &m.white}) {
    c->engine.command = SHOGI_ARENA_ENGINE;
    c->engine.args.clear();
    c->engine.name = "";
    c->game_name = "selfplay-20-1F";
    c->trip = "";
    c->margin_ms = 300;
    c->floodgate_comments = true;
  }
  m.black.turn = '+';
  m.white.turn = '-';
  MatchResult r = play(m, 1);
  INFO("black log (tail):\n" << r.black_log.substr(r.black_log.size() > 20000 ? r.black_log.size() - 20000 : 0));
  CHECK(r.black.exit_code == 0);
  CHECK(r.white.exit_code == 0);
  REQUIRE(r.black.games.size() == 1);
  REQUIRE(r.white.games.size() == 1);
  REQUIRE(r.games.size() == 1);
  check_consistent(r.black.games[0], r.white.games[0], r.games[0]);
  MESSAGE("built-in self-play through the server: "
          << r.games[0].moves.size() << " plies, " << r.games[0].end_reason << "; client latency line->go median "
          << r.black.line_to_go.median_us << " us p99 " << r.black.line_to_go.p99_us << " us, bestmove->socket median "
          << r.black.bestmove_to_send.median_us << " us p99 " << r.black.bestmove_to_send.p99_us << " us");
}
#endif
