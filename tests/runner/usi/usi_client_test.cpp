// The USI client against the scripted mock engine (every misbehaviour it offers). Every test also checks that
// the engine process is reaped. Real engines are in usi_real_engines_test.cpp.

#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <sys/wait.h>

#include "rules/game_end.h"
#include "rules/notation.h"
#include "rules/position.h"
#include "usi/usi_client.h"
#include "usi_checks.h"

using namespace arena::usi;
using arena::process::EngineProcess;
using arena::process::ProcessSpec;
using namespace std::chrono_literals;
using namespace usi_test;

namespace {

struct Mock {
  std::vector<std::string> sent;  // lines written to the engine; declared first: the client logs while it dies
  std::unique_ptr<UsiClient> client;
  pid_t pid = -1;

  UsiClient* operator->() { return client.get(); }
};

// The client is heap-allocated so the I/O logger can point into the Mock that owns it.
std::unique_ptr<Mock> start(std::vector<std::string> args, std::string executable = MOCK_USI_ENGINE) {
  auto mock = std::make_unique<Mock>();
  ProcessSpec spec;
  spec.executable = executable;
  spec.args = std::move(args);
  spec.name = "mock";
  Mock* m = mock.get();
  spec.io_logger = [m](const arena::process::IoEvent& e) {
    if (e.direction == '>') m->sent.emplace_back(e.text);
  };
  auto p = EngineProcess::start(std::move(spec));
  REQUIRE_MESSAGE(p.has_value(), (p ? "" : p.error()));
  mock->pid = (*p)->pid();
  mock->client = std::make_unique<UsiClient>(std::move(*p));
  return mock;
}

std::unique_ptr<Mock> ready_mock(std::vector<std::string> args) {
  auto m = start(std::move(args));
  REQUIRE((*m)->handshake(SteadyClock::now() + 5s).ok());
  REQUIRE((*m)->is_ready(SteadyClock::now() + 5s).ok());
  REQUIRE((*m)->new_game().ok());
  REQUIRE((*m)->position("position startpos").ok());
  return m;
}

struct RulesInit {
  RulesInit() { shogi::Position::init(); }
} rules_init;

}  // namespace

TEST_CASE("handshake: identity and advertised options") {
  auto m = start({});
  CHECK(m->client->state() == EngineState::Starting);
  auto r = (*m)->handshake(SteadyClock::now() + 5s);
  REQUIRE(r.ok());
  CHECK((*m)->state() == EngineState::Idle);
  CHECK((*m)->identity().name == "MockEngine");
  CHECK((*m)->identity().author == "Shogi Arena tests");
  const auto& opts = (*m)->options();
  CHECK(opts.size() == 8);  // "Broken" (a spin without range) is skipped with a warning
  REQUIRE((*m)->warnings().size() == 1);
  CHECK((*m)->warnings()[0].find("Broken") != std::string::npos);
  auto hash = (*m)->find_option("hash");
  REQUIRE(hash);
  CHECK(hash->name == "Hash");
  CHECK(hash->min == 1);
  CHECK(hash->max == 1024);
  CHECK(hash->default_value == "16");
  REQUIRE((*m)->find_option("Move Overhead"));
  CHECK((*m)->find_option("Style")->vars.size() == 3);
  CHECK((*m)->find_option("Nickname")->default_value == "<empty>");
  CHECK((*m)->find_option("Clear Hash")->type == OptionType::Button);
  CHECK((*m)->find_option("USI_Hash"));  // implicit
  CHECK_FALSE((*m)->find_option("Broken"));
  pid_t pid = m->pid;
  CHECK((*m)->quit(1s));
  CHECK((*m)->state() == EngineState::Dead);
  CHECK(pid_gone(pid));
}

TEST_CASE("options: validated before anything is sent, sent as the engine spells them") {
  auto m = start({});
  REQUIRE((*m)->handshake(SteadyClock::now() + 5s).ok());
  m->sent.clear();
  auto bad = (*m)->set_option("Hash", "0");
  CHECK(bad.status == Status::InvalidOption);
  CHECK(bad.text == "option 'Hash' must be an integer from 1 to 1024, not '0'");
  auto missing = (*m)->set_option("Nope", "1");
  CHECK(missing.status == Status::InvalidOption);
  CHECK(missing.text.find("engine 'MockEngine' has no option 'Nope'") == 0);
  CHECK(missing.text.find("Move Overhead") != std::string::npos);  // the list of what it offers
  CHECK((*m)->set_option("OwnBook", "yes").status == Status::InvalidOption);
  CHECK((*m)->set_option("Style", "Wild").status == Status::InvalidOption);
  CHECK((*m)->set_option("Clear Hash", "now").status == Status::InvalidOption);
  CHECK((*m)->check_option("Threads", "9").status == Status::InvalidOption);
  CHECK(m->sent.empty());  // nothing reached the engine

  CHECK((*m)->set_option("hash", "64").ok());
  CHECK((*m)->set_option("style", "risky").ok());
  CHECK((*m)->set_option("Clear Hash", "").ok());
  CHECK((*m)->set_option("Nickname", "").ok());
  CHECK((*m)->set_option("Move Overhead", "100").ok());
  CHECK((*m)->set_option("USI_Ponder", "false").ok());
  CHECK((*m)->is_ready(SteadyClock::now() + 5s).ok());
  CHECK(m->sent == std::vector<std::string>{"setoption name Hash value 64", "setoption name Style value Risky",
                                            "setoption name Clear Hash", "setoption name Nickname value <empty>",
                                            "setoption name Move Overhead value 100",
                                            "setoption name USI_Ponder value false", "isready"});
}

TEST_CASE("position and go in one write: two lines in the log, a move for that position") {
  auto m = ready_mock({});
  const auto before = m->sent.size();
  GoParams p;
  p.btime = p.wtime = 1000;
  p.byoyomi = 500;
  REQUIRE((*m)->position_and_go("position startpos moves 2g2f 8c8d", p).ok());
  REQUIRE(m->sent.size() == before + 2);
  CHECK(m->sent[before] == "position startpos moves 2g2f 8c8d");
  CHECK(m->sent[before + 1] == "go btime 1000 wtime 1000 byoyomi 500");
  CHECK((*m)->state() == EngineState::Thinking);
  auto r = (*m)->wait_bestmove(SteadyClock::now() + 5s);
  REQUIRE(r.status == Status::Ok);
  shogi::GameRecord record;
  REQUIRE(record.start("startpos moves 2g2f 8c8d"));
  CHECK(record.play_usi(r.bestmove.move).has_value());
}

TEST_CASE("go -> bestmove with the last info") {
  auto m = ready_mock({});
  REQUIRE((*m)->position("position startpos moves 7g7f").ok());
  GoParams p;
  p.btime = 1000;
  p.wtime = 2000;
  p.binc = 100;
  p.winc = 100;
  REQUIRE((*m)->go(p).ok());
  CHECK(m->sent.back() == "go btime 1000 wtime 2000 binc 100 winc 100");
  CHECK((*m)->state() == EngineState::Thinking);
  auto r = (*m)->wait_bestmove(SteadyClock::now() + 5s);
  REQUIRE(r.status == Status::Ok);
  CHECK((*m)->state() == EngineState::Idle);
  // The mock plays a legal move: the client passed the position through intact.
  shogi::GameRecord record;
  REQUIRE(record.start("startpos moves 7g7f"));
  CHECK(record.play_usi(r.bestmove.move).has_value());
  CHECK(r.info_lines == 1);
  REQUIRE(r.info.score);
  CHECK(r.info.score->value == 0);
  CHECK(r.info.depth == 1);
  CHECK(r.info.pv == std::vector<std::string>{r.bestmove.move});
  CHECK(r.bestmove_time >= r.go_time);
  CHECK(r.elapsed() < 1s);
  CHECK(r.text.empty());  // text is for errors: the move is in bestmove

  // Deterministic: the same seed gives the same random move, another seed (usually) another one.
  auto pick = [](std::string seed) {
    auto e = ready_mock({"--random", "--seed", seed});
    REQUIRE((*e)->go(byoyomi(1000)).ok());
    return (*e)->wait_bestmove(SteadyClock::now() + 5s).bestmove.move;
  };
  CHECK(pick("7") == pick("7"));
  CHECK(pick("7") != pick("8"));
}

TEST_CASE("client round trip: position + go -> bestmove with an instant mock") {
  auto m = ready_mock({});
  m->sent.reserve(4200);
  constexpr int N = 2000;
  std::vector<double> us;
  for (int i = 0; i < N; ++i) {
    auto t0 = SteadyClock::now();
    REQUIRE((*m)->position("position startpos moves 7g7f 3c3d").ok());
    REQUIRE((*m)->go(byoyomi(1000)).ok());
    auto r = (*m)->wait_bestmove(t0 + 5s);
    REQUIRE(r.status == Status::Ok);
    us.push_back(std::chrono::duration<double, std::micro>(SteadyClock::now() - t0).count());
  }
  std::sort(us.begin(), us.end());
  MESSAGE("position+go -> info+bestmove over " << N << ": median " << us[N / 2] << " us, p99 " << us[N * 99 / 100]
                                               << " us (includes the mock's move generation)");
  CHECK(us[N / 2] < 5000.0);
}

TEST_CASE("never-answer-go: timeout at the absolute deadline, then stop gets the move") {
  auto m = ready_mock({"--behavior", "never-answer-go"});
  REQUIRE((*m)->go(byoyomi(100)).ok());
  auto deadline = SteadyClock::now() + 200ms;
  auto r = (*m)->wait_bestmove(deadline);
  auto now = SteadyClock::now();
  CHECK(r.status == Status::Timeout);
  CHECK(now >= deadline);
  CHECK(ms(now - deadline) < 60.0);
  CHECK((*m)->state() == EngineState::Thinking);
  REQUIRE((*m)->stop().ok());
  auto late = (*m)->wait_bestmove(SteadyClock::now() + 2s);
  CHECK(late.status == Status::Ok);
  CHECK(late.elapsed() >= 200ms);  // measured from go, so the game can see the flag fell
  pid_t pid = m->pid;
  m.reset();  // the destructor quits and reaps
  CHECK(pid_gone(pid));
}

TEST_CASE("an info flood does not extend the deadline") {
  auto m = ready_mock({"--behavior", "info-flood", "--count", "1", "--think-ms", "3000"});
  REQUIRE((*m)->go(byoyomi(100)).ok());
  auto deadline = SteadyClock::now() + 300ms;
  auto r = (*m)->wait_bestmove(deadline);
  auto now = SteadyClock::now();
  CHECK(r.status == Status::Timeout);
  CHECK(ms(now - deadline) < 60.0);
  MESSAGE(r.info_lines << " info lines in 300 ms");
  CHECK(r.info_lines > 100);
  // It still hears stop and then answers; lines queued before that are skipped.
  REQUIRE((*m)->stop().ok());
  auto after = (*m)->wait_bestmove(SteadyClock::now() + 5s);
  CHECK(after.status == Status::Ok);
  REQUIRE(after.info.score);

  auto n = ready_mock({"--behavior", "info-flood", "--count", "5000"});
  REQUIRE((*n)->go(byoyomi(100)).ok());
  auto all = (*n)->wait_bestmove(SteadyClock::now() + 5s);
  REQUIRE(all.status == Status::Ok);
  CHECK(all.info_lines == 5001);  // the flood plus the mock's final info line
  CHECK(all.info.pv == std::vector<std::string>{all.bestmove.move});
}

TEST_CASE("crashes are disconnects and the process is reaped") {
  SUBCASE("crash on the second go") {
    auto m = ready_mock({"--behavior", "crash-on-go", "--after", "1"});
    REQUIRE((*m)->go(byoyomi(100)).ok());
    REQUIRE((*m)->wait_bestmove(SteadyClock::now() + 5s).status == Status::Ok);
    (*m)->go(byoyomi(100));
    auto r = (*m)->wait_bestmove(SteadyClock::now() + 5s);
    CHECK(r.status == Status::Disconnected);
    CHECK((*m)->state() == EngineState::Dead);
    CHECK((*m)->position("position startpos").status == Status::Disconnected);
    CHECK((*m)->go(byoyomi(100)).status == Status::Disconnected);
    CHECK((*m)->wait_bestmove(SteadyClock::now() + 1s).status == Status::Disconnected);
    pid_t pid = m->pid;
    (*m)->quit(1s);
    auto& proc = (*m)->process();
    CHECK(proc.exited());
    CHECK(WIFSIGNALED(proc.exit_status()));
    CHECK(WTERMSIG(proc.exit_status()) == SIGSEGV);
    CHECK(pid_gone(pid));
  }
  SUBCASE("crash at start") {
    auto m = start({"--behavior", "crash-at-start"});
    auto r = (*m)->handshake(SteadyClock::now() + 5s);
    CHECK(r.status == Status::Disconnected);
    CHECK((*m)->state() == EngineState::Dead);
    pid_t pid = m->pid;
    m.reset();
    CHECK(pid_gone(pid));
  }
}

TEST_CASE("slow usiok: the startup deadline holds") {
  auto m = start({"--behavior", "slow-usiok", "--delay-ms", "400"});
  auto t0 = SteadyClock::now();
  auto r = (*m)->handshake(t0 + 150ms);
  CHECK(r.status == Status::Timeout);
  CHECK(ms(SteadyClock::now() - t0) < 210.0);
  CHECK((*m)->state() == EngineState::Starting);

  auto patient = start({"--behavior", "slow-usiok", "--delay-ms", "100"});
  CHECK((*patient)->handshake(SteadyClock::now() + 5s).ok());
  CHECK((*patient)->options().size() == 8);
}

TEST_CASE("bestmove variants are reported, not judged") {
  auto run = [](std::vector<std::string> args) {
    auto m = ready_mock(std::move(args));
    REQUIRE((*m)->go(byoyomi(100)).ok());
    return (*m)->wait_bestmove(SteadyClock::now() + 5s);
  };
  auto malformed = run({"--behavior", "malformed-bestmove"});
  CHECK(malformed.status == Status::ProtocolError);
  CHECK(malformed.text == "bestmove");
  auto junk = run({"--behavior", "malformed-bestmove", "--text", "bestmove 7g7f and more"});
  CHECK(junk.status == Status::ProtocolError);
  CHECK(junk.text == "bestmove 7g7f and more");
  auto garbage = run({"--behavior", "malformed-bestmove", "--text", "bestmove 7g7"});
  CHECK(garbage.status == Status::Ok);  // well-formed line; the game finds the move unparsable
  CHECK(garbage.bestmove.move == "7g7");

  auto illegal = run({"--behavior", "illegal-move"});
  REQUIRE(illegal.status == Status::Ok);
  shogi::GameRecord record;
  REQUIRE(record.start("startpos"));
  CHECK_FALSE(record.play_usi(illegal.bestmove.move).has_value());

  CHECK(run({"--behavior", "false-win"}).bestmove.is_win());
  CHECK(run({"--behavior", "resign"}).bestmove.is_resign());

  auto delayed = run({"--behavior", "answer-after-delay", "--delay-ms", "150"});
  CHECK(delayed.status == Status::Ok);
  CHECK(delayed.elapsed() >= 150ms);
}

TEST_CASE("ponder: ponderhit continues the search, stop ends it") {
  auto m = ready_mock({"--with-ponder", "--think-ms", "50"});
  REQUIRE((*m)->go(byoyomi(1000)).ok());
  auto first = (*m)->wait_bestmove(SteadyClock::now() + 5s);
  REQUIRE(first.status == Status::Ok);
  REQUIRE_FALSE(first.bestmove.ponder.empty());

  std::string line = "position startpos moves " + first.bestmove.move + " " + first.bestmove.ponder;
  REQUIRE((*m)->position(line).ok());
  GoParams p = byoyomi(1000);
  p.ponder = true;
  REQUIRE((*m)->go(p).ok());
  CHECK(m->sent.back() == "go ponder btime 0 wtime 0 byoyomi 1000");
  CHECK((*m)->state() == EngineState::Pondering);
  CHECK((*m)->wait_bestmove(SteadyClock::now() + 100ms).status == Status::Timeout);  // pondering is silent
  REQUIRE((*m)->ponder_hit().ok());
  CHECK((*m)->state() == EngineState::Thinking);
  auto hit = (*m)->wait_bestmove(SteadyClock::now() + 5s);
  REQUIRE(hit.status == Status::Ok);
  CHECK(hit.bestmove_time - (*m)->ponderhit_time() >= 50ms);

  REQUIRE((*m)->go(p).ok());
  REQUIRE((*m)->stop().ok());
  auto miss = (*m)->wait_bestmove(SteadyClock::now() + 5s);
  CHECK(miss.status == Status::Ok);
  CHECK((*m)->state() == EngineState::Idle);
  CHECK((*m)->game_over(UsiClient::GameOver::Draw).ok());
  CHECK(m->sent.back() == "gameover draw");
}

TEST_CASE("quit: grace, then kill; never a process left behind") {
  SUBCASE("ignores stop, quits when told") {
    auto m = ready_mock({"--behavior", "ignore-stop"});
    REQUIRE((*m)->go(byoyomi(100)).ok());
    CHECK((*m)->wait_bestmove(SteadyClock::now() + 100ms).status == Status::Timeout);
    REQUIRE((*m)->stop().ok());
    CHECK((*m)->wait_bestmove(SteadyClock::now() + 200ms).status == Status::Timeout);
    pid_t pid = m->pid;
    CHECK((*m)->quit(1s));
    CHECK(pid_gone(pid));
  }
  SUBCASE("exits late: killed after the grace period") {
    auto m = ready_mock({"--behavior", "late-quit-exit", "--delay-ms", "5000"});
    pid_t pid = m->pid;
    auto t0 = SteadyClock::now();
    CHECK_FALSE((*m)->quit(200ms));
    double took = ms(SteadyClock::now() - t0);
    CHECK(took >= 195.0);
    CHECK(took < 1000.0);
    CHECK((*m)->state() == EngineState::Dead);
    CHECK(WIFSIGNALED((*m)->process().exit_status()));
    CHECK(pid_gone(pid));
  }
  SUBCASE("exits a little late: within the grace period") {
    auto m = ready_mock({"--behavior", "late-quit-exit", "--delay-ms", "100"});
    pid_t pid = m->pid;
    auto t0 = SteadyClock::now();
    CHECK((*m)->quit(2s));
    double took = ms(SteadyClock::now() - t0);
    CHECK(took >= 95.0);
    CHECK(took < 1000.0);
    CHECK(WIFEXITED((*m)->process().exit_status()));
    CHECK(pid_gone(pid));
  }
}
