// start_engine, the one way the runner starts an engine, against the mock engine: the handshake and its times,
// options checked before any is sent, USI_Ponder, each failed step as a value with the process reaped.

#include <doctest/doctest.h>

#include <filesystem>

#include "game/engine_start.h"
#include "game_checks.h"
#include "process/find_executable.h"
#include "usi/usi_client.h"

using namespace arena;
using namespace arena::game;
using namespace game_test;
using namespace std::chrono_literals;

namespace {

EngineConfig mock(const std::string& name, std::vector<std::string> args = {}) {
  EngineConfig c;
  c.name = name;
  c.command = MOCK_USI_ENGINE;
  c.args = std::move(args);
  c.startup_timeout = 5000ms;
  c.quit_grace = 500ms;
  c.io_log = temp_log(name);
  return c;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a start: usiok and readyok timed, options sent in order, USI_Ponder told, the client idle") {
  EngineConfig c = mock("", {"--name", "Mocky"});
  c.options = {{"hash", "64"}, {"Style", "Risky"}};
  auto started = start_engine(c);
  REQUIRE_MESSAGE(started.has_value(), (started ? "" : started.error().message()));
  CHECK(started->name == "Mocky");  // no configured name: the engine's id name
  CHECK(started->client->state() == usi::EngineState::Idle);
  CHECK(started->usiok >= 0ms);
  CHECK(started->usiok < 5000ms);
  CHECK(started->readyok < 5000ms);
  const auto sent = logged(c.io_log, '>');
  const auto options = lines_starting(sent, "setoption ");
  REQUIRE(options.size() == 3);
  CHECK(options[0] == "setoption name Hash value 64");  // as the engine spells it
  CHECK(options[1] == "setoption name Style value Risky");
  CHECK(options[2] == "setoption name USI_Ponder value false");
  CHECK(sent.back() == "isready");
  started->client->quit(500ms);
}

TEST_CASE("USI_Ponder: true when the engine ponders, never twice when the options set it") {
  EngineConfig c = mock("p");
  c.ponder = true;
  auto started = start_engine(c);
  REQUIRE(started.has_value());
  CHECK(lines_starting(logged(c.io_log, '>'), "setoption name USI_Ponder value true").size() == 1);
  started->client->quit(500ms);

  EngineConfig given = mock("q");
  given.options = {{"usi_ponder", "false"}};
  given.ponder = true;
  auto again = start_engine(given);
  REQUIRE(again.has_value());
  const auto options = lines_starting(logged(given.io_log, '>'), "setoption ");
  REQUIRE(options.size() == 1);
  CHECK(options[0] == "setoption name USI_Ponder value false");
  again->client->quit(500ms);
}

TEST_CASE("a bad option is refused before any option is sent, naming the engine") {
  EngineConfig c = mock("bad");
  c.options = {{"Hash", "64"}, {"Hash", "4096"}};
  auto started = start_engine(c);
  REQUIRE_FALSE(started.has_value());
  CHECK(started.error().step == StartFailure::Step::Options);
  CHECK(started.error().who == "engine 'bad' (" + std::string(MOCK_USI_ENGINE) + ")");
  CHECK(contains(started.error().what, "must be an integer from 1 to 1024"));
  CHECK(lines_starting(logged(c.io_log, '>'), "setoption ").empty());
  REQUIRE(started.error().client);
  CHECK(pid_gone(started.error().client->process().pid()));

  EngineConfig missing = mock("missing");
  missing.options = {{"NoSuchOption", "1"}};
  auto refused = start_engine(missing);
  REQUIRE_FALSE(refused.has_value());
  CHECK(contains(refused.error().what, "has no option 'NoSuchOption'"));
}

TEST_CASE("failed steps: spawn, a crash in the handshake with its stderr, a slow usiok") {
  EngineConfig none = mock("none");
  none.command = "/no/such/engine";
  auto spawn = start_engine(none);
  REQUIRE_FALSE(spawn.has_value());
  CHECK(spawn.error().step == StartFailure::Step::Spawn);
  CHECK(spawn.error().what == "'/no/such/engine' is not an executable file");
  CHECK_FALSE(spawn.error().client);

  EngineConfig crasher = mock("crasher", {"--behavior", "crash-at-start", "--stderr-bytes", "20"});
  crasher.stderr_log = temp_log("crasher-stderr");
  auto crash = start_engine(crasher);
  REQUIRE_FALSE(crash.has_value());
  CHECK(crash.error().step == StartFailure::Step::Handshake);
  CHECK(contains(crash.error().what, "exited during the USI handshake (killed by signal 11"));
  CHECK(contains(crash.error().what, "; stderr: 'eeeeeeeeeeeeeeeeeeee'"));
  REQUIRE(crash.error().client);
  CHECK(pid_gone(crash.error().client->process().pid()));

  EngineConfig slow = mock("slow", {"--behavior", "slow-usiok", "--delay-ms", "3000"});
  slow.startup_timeout = 200ms;
  auto late = start_engine(slow);
  REQUIRE_FALSE(late.has_value());
  CHECK(late.error().what == "no usiok within 200 ms (startup timeout)");
  CHECK(late.error().message() == "engine 'slow' (" + std::string(MOCK_USI_ENGINE) + "): " + late.error().what);
  CHECK(pid_gone(late.error().client->process().pid()));
}

TEST_CASE("a stderr log holding an earlier run's lines: only this start's are quoted") {
  EngineConfig c = mock("tail", {"--behavior", "crash-at-start"});
  c.stderr_log = temp_log("tail-stderr");
  {
    std::ofstream earlier(c.stderr_log);
    earlier << "an earlier run's last words\n";
  }
  auto crash = start_engine(c);
  REQUIRE_FALSE(crash.has_value());
  CHECK_FALSE(contains(crash.error().what, "stderr:"));
}

TEST_CASE("find_executable: paths as given, bare names on PATH, then /usr/games") {
  CHECK(process::find_executable(MOCK_USI_ENGINE) == std::filesystem::path(MOCK_USI_ENGINE));
  CHECK_FALSE(process::find_executable("/etc"));  // a directory is not a program
  const std::string plain = temp_log("not-a-program");
  std::ofstream(plain) << "text\n";
  std::filesystem::permissions(plain, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  CHECK_FALSE(process::find_executable(plain));  // nor a file without x
  CHECK(process::find_executable("sh").has_value());
  CHECK_FALSE(process::find_executable("no-such-program-shogi-arena"));
  CHECK_FALSE(process::find_executable(""));
  CHECK(process::not_found_text("x-y") == "'x-y' was not found on PATH, in /usr/games or beside shogi-arena");
  // Debian's engines: root's PATH often lacks /usr/games, the lookup does not.
  if (std::filesystem::exists("/usr/games/fairy-stockfish")) {
    const char* old = std::getenv("PATH");
    const std::string saved = old ? old : "";
    ::setenv("PATH", "/usr/bin:/bin", 1);
    CHECK(process::find_executable("fairy-stockfish") == std::filesystem::path("/usr/games/fairy-stockfish"));
    ::setenv("PATH", saved.c_str(), 1);
  }
}

TEST_CASE("the game's rules: set on an engine that advertises them, after the configured options") {
  EngineConfig c = mock("rules", {"--rule-options"});
  c.options = {{"Style", "Risky"}};
  c.rules = GameRules{shogi::EnteringKingRule::Point24, 300};
  auto started = start_engine(c);
  REQUIRE(started.has_value());
  const auto options = lines_starting(logged(c.io_log, '>'), "setoption ");
  REQUIRE(options.size() == 4);
  CHECK(options[0] == "setoption name Style value Risky");
  CHECK(options[1] == "setoption name EnteringKingRule value CSARule24");
  CHECK(options[2] == "setoption name MaxMovesToDraw value 300");
  CHECK(options[3] == "setoption name USI_Ponder value false");
  CHECK(started->rule_notes.size() == 2);
  started->client->quit(500ms);

  // Without rules (the checker), or without the options (most engines), nothing is added.
  EngineConfig plain = mock("plain");
  plain.rules = GameRules{};
  auto p = start_engine(plain);
  REQUIRE(p.has_value());
  CHECK(lines_starting(logged(plain.io_log, '>'), "setoption ").size() == 1);
  CHECK(p->rule_notes.empty());
  p->client->quit(500ms);
}
