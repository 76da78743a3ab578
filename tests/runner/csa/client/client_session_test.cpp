// The CSA client's session over scripted in-memory connections: several games, CSA and x1 login modes,
// reconnecting, refused logins, stop requests, records and the masked log.
#include <filesystem>
#include <thread>

#include <doctest/doctest.h>

#include "client_fixture.h"

using namespace csa_test;

namespace {

SummarySpec game(int n, shogi::Color us) {
  SummarySpec s;
  s.game_id = "test+testgame-300-10F+tester+bob+2026010100000" + std::to_string(n);
  s.your_turn = us;
  if (us == shogi::WHITE) std::swap(s.black, s.white);
  return s;
}

int us_plies(const SummarySpec& spec) { return spec.your_turn == shogi::BLACK ? 3 : 4; }

Script played_game(const SummarySpec& spec, bool login = true, const std::string& login_regex = "") {
  Script s;
  s.spec = spec;
  if (login) {
    if (login_regex.empty())
      s.login();
    else
      s.expect(login_regex).send("LOGIN:tester OK");
  }
  s.send(game_summary(spec)).expect("AGREE .*").send("START:" + spec.game_id);
  // The opponent resigns on its own turn.
  s.moves(us_plies(spec)).send("%TORYO\n#RESIGN\n#WIN");
  return s;
}

}  // namespace

TEST_CASE("CSA mode: two games, a new connection and LOGIN for each, a record for each") {
  CsaClientConfig cfg = test_config(fresh_dir("two-games"));
  cfg.games = 2;
  auto a = played_game(game(1, shogi::BLACK), true, "LOGIN tester testgame-300-10F,s3cr3t-trip");
  a.close();
  auto b = played_game(game(2, shogi::WHITE));
  b.close();
  SessionRun run = run_in_memory({a, b}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 0);
  CHECK(run.report.games_started == 2);
  CHECK(run.report.logins == 2);
  CHECK(run.report.wins == 2);
  REQUIRE(run.report.record_files.size() == 2);
  for (auto& f : run.report.record_files) {
    std::string text = read_text(f);
    CHECK(text.starts_with("V2.2\n"));
    CHECK(text.find("\nT1\n") != std::string::npos);  // the server's times
    CHECK(text.find("%TORYO") != std::string::npos);
  }
  CHECK(std::filesystem::path(run.report.record_files[0]).filename() ==
        "test+testgame-300-10F+tester+bob+20260101000001.csa");
  // The trip never reaches the log; the LOGIN line is there, masked.
  CHECK(run.log.find("s3cr3t-trip") == std::string::npos);
  CHECK(run.log.find("> LOGIN tester testgame-300-10F,*****") != std::string::npos);
  CHECK(run.log.find("< START:") != std::string::npos);
}

TEST_CASE("x1 mode: %%GAME on one connection for every game, LOGOUT at the end") {
  CsaClientConfig cfg = test_config(fresh_dir("x1"));
  cfg.mode = arena::csa::LoginMode::X1;
  cfg.games = 2;
  cfg.turn = '*';
  Script s;
  s.spec = game(1, shogi::BLACK);
  s.expect("LOGIN tester s3cr3t-trip x1").send("LOGIN:tester OK\n##[LOGIN] +OK x1");
  s.expect(R"(%%GAME testgame-300-10F \*)").send("##[GAME] waiting");
  auto g1 = played_game(game(1, shogi::BLACK), false);
  for (auto& st : g1.steps) s.steps.push_back(st);
  // The second game on the same connection. The referee's board belongs to the first game, so the second one is
  // short: we are white and the opponent resigns at once.
  auto spec2 = game(2, shogi::WHITE);
  s.expect(R"(%%GAME testgame-300-10F \*)");
  s.send(game_summary(spec2)).expect("AGREE .*").send("START:" + spec2.game_id);
  s.send("%TORYO\n#RESIGN\n#WIN");
  s.expect("LOGOUT").send("LOGOUT:completed").close();
  SessionRun run = run_in_memory({s}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 0);
  CHECK(run.report.logins == 1);
  CHECK(run.report.games_started == 2);
  CHECK(run.report.wins == 2);
}

TEST_CASE("the first LOGIN:incorrect is fatal") {
  CsaClientConfig cfg = test_config(fresh_dir("login-incorrect"));
  Script s;
  s.expect("LOGIN .*").send("LOGIN:incorrect").close();
  SessionRun run = run_in_memory({s}, cfg);
  CHECK(run.report.exit_code == 1);
  CHECK(run.report.error.find("LOGIN:incorrect") != std::string::npos);
  CHECK(run.report.games_started == 0);
}

TEST_CASE("a refused connection is retried with backoff") {
  CsaClientConfig cfg = test_config(fresh_dir("refused"));
  auto a = played_game(game(1, shogi::BLACK));
  a.close();
  SessionRun run = run_in_memory({a}, cfg, nullptr, 2);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 0);
  CHECK(run.report.connect_failures == 2);
  CHECK(run.report.games_started == 1);
  CHECK(run.log.find("retrying in 10 ms") != std::string::npos);
  CHECK(run.log.find("retrying in 20 ms") != std::string::npos);
  // Each failure is said once (the retry note used to repeat it).
  size_t said = 0;
  for (size_t at = 0; (at = run.log.find("connection refused (scripted)", at)) != std::string::npos; ++at) ++said;
  CHECK(said == 2);
}

TEST_CASE("giving up after the configured number of failed attempts") {
  CsaClientConfig cfg = test_config(fresh_dir("give-up"));
  cfg.reconnect_attempts = 3;
  SessionRun run = run_in_memory({}, cfg);
  CHECK(run.report.exit_code == 1);
  CHECK(run.report.connect_failures == 4);
  CHECK(run.report.error.find("failed attempts") != std::string::npos);
}

TEST_CASE("a connection dropped mid-game: log in again and play on") {
  CsaClientConfig cfg = test_config(fresh_dir("dropped"));
  cfg.games = 2;
  Script a;
  a.spec = game(1, shogi::BLACK);
  a.login().send(game_summary(a.spec)).expect("AGREE .*").send("START:" + a.spec.game_id).moves(3).close();
  auto b = played_game(game(2, shogi::BLACK));
  b.close();
  SessionRun run = run_in_memory({a, b}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 0);
  REQUIRE(run.report.games.size() == 2);
  CHECK(run.report.games[0].status == arena::csa::GameStatus::ConnectionLost);
  CHECK(run.report.games[1].status == arena::csa::GameStatus::Finished);
  CHECK(run.report.logins == 2);
  // Both games leave a record; the cut one ends as interrupted.
  REQUIRE(run.report.record_files.size() == 2);
  CHECK(read_text(run.report.record_files[0]).find("%CHUDAN") != std::string::npos);
}

TEST_CASE("a stop request while waiting for a game: LOGOUT and return") {
  CsaClientConfig cfg = test_config(fresh_dir("stop"));
  Script s;
  s.login().expect("LOGOUT").send("LOGOUT:completed").close();
  std::atomic<bool> stop{false};
  std::thread t([&] {
    std::this_thread::sleep_for(300ms);
    stop = true;
  });
  SessionRun run = run_in_memory({s}, cfg, &stop);
  t.join();
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 0);
  CHECK(run.report.games_started == 0);
}

TEST_CASE("resign_on_stop: a stop request during the game resigns at our turn") {
  CsaClientConfig cfg = test_config(fresh_dir("resign-on-stop"));
  cfg.resign_on_stop = true;
  Script s;
  s.spec = game(1, shogi::WHITE);
  s.login().send(game_summary(s.spec)).expect("AGREE .*").send("START:" + s.spec.game_id);
  s.pause(500ms).opponent_move().expect("%TORYO").send("%TORYO\n#RESIGN\n#LOSE").close();
  std::atomic<bool> stop{false};
  std::thread t([&] {
    std::this_thread::sleep_for(200ms);
    stop = true;
  });
  SessionRun run = run_in_memory({s}, cfg, &stop);
  t.join();
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  REQUIRE(run.report.games.size() == 1);
  CHECK(run.report.games[0].record.result.termination == arena::Termination::Resign);
  CHECK(run.report.losses == 1);
}

TEST_CASE("restart_engine: a fresh engine process for every game") {
  CsaClientConfig cfg = test_config(fresh_dir("restart"));
  cfg.games = 2;
  cfg.restart_engine = true;
  auto a = played_game(game(1, shogi::BLACK));
  a.close();
  auto b = played_game(game(2, shogi::BLACK));
  b.close();
  SessionRun run = run_in_memory({a, b}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.games_started == 2);
  CHECK(run.log.find("restarting the engine for the next game") != std::string::npos);
  // Two handshakes in the log.
  std::size_t usi = 0;
  for (std::size_t at = run.log.find("e> usi\n"); at != std::string::npos; at = run.log.find("e> usi\n", at + 1)) ++usi;
  CHECK(usi == 2);
}

TEST_CASE("an engine that cannot start never logs in") {
  CsaClientConfig cfg = test_config(fresh_dir("no-engine"));
  cfg.engine.command = "/nonexistent/engine";
  SessionRun run = run_in_memory({}, cfg);
  CHECK(run.report.exit_code == 1);
  CHECK(run.report.error.find("/nonexistent/engine") != std::string::npos);
  CHECK(run.report.logins == 0);
  CHECK(run.report.connect_failures == 0);
}

TEST_CASE("a stop request during a game: the game is played out, then the session ends") {
  CsaClientConfig cfg = test_config(fresh_dir("stop-in-game"));
  cfg.games = 3;
  Script s;
  s.spec = game(1, shogi::BLACK);
  s.login().send(game_summary(s.spec)).expect("AGREE .*").send("START:" + s.spec.game_id);
  s.client_move().pause(400ms).opponent_move().client_move().send("%TORYO\n#RESIGN\n#WIN").close();
  std::atomic<bool> stop{false};
  std::thread t([&] {
    std::this_thread::sleep_for(150ms);
    stop = true;
  });
  SessionRun run = run_in_memory({s}, cfg, &stop);
  t.join();
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 0);
  CHECK(run.report.games_started == 1);  // not 3: no new game after the stop
  CHECK(run.report.wins == 1);
  CHECK(run.report.connect_failures == 0);
}

TEST_CASE("x1 %%CHALLENGE: asked again while nobody is waiting") {
  CsaClientConfig cfg = test_config(fresh_dir("challenge"));
  cfg.mode = arena::csa::LoginMode::X1;
  cfg.challenge = true;
  cfg.turn = '+';
  Script s;
  s.spec = game(1, shogi::BLACK);
  s.expect("LOGIN tester s3cr3t-trip x1").send("LOGIN:tester OK\n##[LOGIN] +OK x1");
  s.expect(R"(%%CHALLENGE testgame-300-10F \+)").send("##[ERROR] can't find rival for testgame-300-10F");
  s.expect(R"(%%CHALLENGE testgame-300-10F \+)").send("##[ERROR] can't find rival for testgame-300-10F");
  s.expect(R"(%%CHALLENGE testgame-300-10F \+)");
  s.send(game_summary(s.spec)).expect("AGREE .*").send("START:" + s.spec.game_id);
  s.moves(3).send("%TORYO\n#RESIGN\n#WIN");
  s.expect("LOGOUT").send("LOGOUT:completed").close();
  SessionRun run = run_in_memory({s}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 0);
  CHECK(run.report.games_started == 1);
}

TEST_CASE("x1: a refused %%GAME is fatal and named") {
  CsaClientConfig cfg = test_config(fresh_dir("game-refused"));
  cfg.mode = arena::csa::LoginMode::X1;
  Script s;
  s.expect("LOGIN .* x1").send("LOGIN:tester OK\n##[LOGIN] +OK x1");
  s.expect("%%GAME .*").send("##[ERROR] bad game name: testgame-300-10F");
  s.expect("LOGOUT").send("LOGOUT:completed").close();
  SessionRun run = run_in_memory({s}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  CHECK(run.report.exit_code == 1);
  CHECK(run.report.error.find("bad game name") != std::string::npos);
}

TEST_CASE("a bare engine command is looked up on PATH") {
  std::string mock_dir = std::filesystem::path(MOCK_USI_ENGINE).parent_path().string();
  std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (mock_dir + ":" + old_path).c_str(), 1);
  CsaClientConfig cfg = test_config(fresh_dir("path-lookup"));
  cfg.engine.command = std::filesystem::path(MOCK_USI_ENGINE).filename().string();
  auto a = played_game(game(1, shogi::BLACK));
  a.close();
  SessionRun run = run_in_memory({a}, cfg);
  CHECK(run.report.exit_code == 0);
  CHECK(run.report.games_started == 1);

  CsaClientConfig missing = test_config(fresh_dir("path-missing"));
  missing.engine.command = "no-such-engine-anywhere";
  SessionRun none = run_in_memory({}, missing);
  CHECK(none.report.exit_code == 1);
  CHECK(none.report.error.find("not found on PATH") != std::string::npos);
  ::setenv("PATH", old_path.c_str(), 1);
}
