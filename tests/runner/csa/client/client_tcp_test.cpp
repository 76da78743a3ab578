// End-to-end over real sockets on 127.0.0.1: the Asio link against a scripted server thread. The game scenarios
// of the in-memory test again (the quick ones), keep-alive over a quiet period, and the latency the client adds.
#include <algorithm>
#include <cstdio>

#include <doctest/doctest.h>

#include "client_fixture.h"

using namespace csa_test;

TEST_CASE("CSA client game scenarios over TCP") {
  auto scenarios = game_scenarios();
  for (auto& s : scenarios) {
    if (s.slow) continue;
    SUBCASE(s.name.c_str()) { run_scenario(s, true); }
  }
}

TEST_CASE("keep-alive: empty lines only after the configured silence, server empty lines ignored") {
  CsaClientConfig cfg = test_config(fresh_dir("keepalive"));
  cfg.keep_alive_override = 1000ms;  // tests only: the product minimum is 30 s
  SummarySpec spec;
  spec.your_turn = shogi::WHITE;
  Script s;
  s.spec = spec;
  s.login().send(game_summary(spec)).expect("AGREE .*").send("START:" + spec.game_id);
  // A quiet opponent: 3.6 s without a move. The server answers each keep-alive with an empty line.
  s.pause(3600ms).moves(2).send("%TORYO\n#RESIGN\n#WIN").close();
  SessionRun run = run_tcp({s}, cfg);
  INFO("log:\n" << run.log);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  REQUIRE(run.report.games.size() == 1);
  CHECK(run.report.games[0].record.result.outcome == arena::Outcome::WhiteWin);

  const auto& lines = run.referees[0]->received();
  int empties = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].text.empty()) continue;
    ++empties;
    REQUIRE(i > 0);
    // Silence on our side for at least the keep-alive period before every empty line (50 ms of slack for the
    // two loopback trips, which are measured at the server).
    auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(lines[i].time - lines[i - 1].time).count();
    CHECK(gap >= 950);
  }
  CHECK(empties >= 2);
  CHECK(empties <= 4);
}

TEST_CASE("keep-alive: nothing is sent while the connection is busy") {
  CsaClientConfig cfg = test_config(fresh_dir("keepalive-busy"));
  cfg.keep_alive_override = 1000ms;
  SummarySpec spec;
  Script s;
  s.spec = spec;
  s.login().send(game_summary(spec)).expect("AGREE .*").send("START:" + spec.game_id);
  // Moves every 200 ms: the client's own moves keep the line busy, so no empty line is due. Five plies: the
  // opponent resigns on its own turn.
  for (int i = 0; i < 5; ++i) s.moves(1).pause(200ms);
  s.send("%TORYO\n#RESIGN\n#WIN").close();
  SessionRun run = run_tcp({s}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  for (auto& l : run.referees[0]->received()) CHECK_FALSE(l.text.empty());
}

namespace {

// One game of `plies` plies (ours the last) against a scripted opponent that takes `think` per move.
CsaSessionReport latency_game(int plies, milliseconds think) {
  CsaClientConfig cfg = test_config(fresh_dir("latency-" + std::to_string(think.count())));
  SummarySpec spec;
  spec.total_s = 3600;
  spec.increment_s = 0;
  spec.max_moves = 0;
  Script s;
  s.spec = spec;
  s.login().send(game_summary(spec)).expect("AGREE .*").send("START:" + spec.game_id);
  for (int i = 0; i < plies; ++i) {
    if (i % 2 == 1 && think.count() > 0) s.pause(think);
    s.moves(1);
  }
  // The server ends the game after our last move's echo, as shogi-server does at Max_Moves.
  s.send("#MAX_MOVES\n#CENSORED").close();
  SessionRun run = run_tcp({s}, cfg);
  for (auto& e : run.script_errors()) FAIL_CHECK("script: " << e);
  REQUIRE(run.report.games.size() == 1);
  return run.report;
}

void print(const char* what, const CsaSessionReport& r) {
  const auto& a = r.line_to_go;
  const auto& b = r.bestmove_to_send;
  std::printf(
      "csa client latency, %s, %zu moves: server line -> go median %lld us, p99 %lld us, max %lld us; "
      "bestmove -> socket median %lld us, p99 %lld us, max %lld us\n",
      what, a.count, (long long)a.median_us, (long long)a.p99_us, (long long)a.max_us, (long long)b.median_us,
      (long long)b.p99_us, (long long)b.max_us);
}

}  // namespace

TEST_CASE("latency the client adds (server line -> go, bestmove -> socket)") {
  // Behaviour, not speed: every move is measured and the figures are printed (a loaded machine may be slow).
  CsaSessionReport quick = latency_game(119, 0ms);
  CHECK(quick.line_to_go.count == 60);
  CHECK(quick.bestmove_to_send.count == 60);
  print("opponent answering at once", quick);
  // The client idles between moves as against a real opponent (a cold CPU and cache at each line).
  CsaSessionReport idle = latency_game(59, 50ms);
  CHECK(idle.line_to_go.count == 30);
  CHECK(idle.bestmove_to_send.count == 30);
  print("opponent thinking 50 ms", idle);
}
