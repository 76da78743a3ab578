// The three places that start an engine (a tournament's game::Player, the CSA client's csa::ClientEngine and the
// checker's check::ProbeEngine) start it the same way, through game::start_engine: the same lines reach the engine,
// and a bad configuration is refused for the same reason before anything is sent. They used to differ: the CSA
// client sent the options one by one (a bad second option came after the first had been sent) and told the engine
// nothing of USI_Ponder unless it pondered.

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "check/probe_engine.h"
#include "csa/client/engine.h"
#include "game/game.h"

using namespace arena;
using namespace std::chrono_literals;

namespace {

std::string temp_path(const std::string& tag) {
  static int counter = 0;
  auto path = std::filesystem::temp_directory_path() /
              ("shogi-arena-starts-" + std::to_string(::getpid()) + "-" + tag + std::to_string(++counter) + ".log");
  std::filesystem::remove(path);
  return path.string();
}

// The lines written to the engine, from its I/O log ("<seconds> <name> > <text>").
std::vector<std::string> sent_lines(const std::string& io_log) {
  std::vector<std::string> out;
  std::ifstream in(io_log);
  std::string line;
  while (std::getline(in, line))
    if (auto at = line.find(" > "); at != std::string::npos) out.push_back(line.substr(at + 3));
  std::filesystem::remove(io_log);
  return out;
}

game::EngineConfig config(std::vector<std::pair<std::string, std::string>> options) {
  game::EngineConfig c;
  c.name = "mock";
  c.command = MOCK_USI_ENGINE;
  c.options = std::move(options);
  c.startup_timeout = 5000ms;
  c.quit_grace = 500ms;
  return c;
}

struct Start {
  std::vector<std::string> sent;
  std::string error;  // empty when started
};

Start through_player(game::EngineConfig c) {
  c.io_log = temp_path("player");
  Start s;
  {
    game::Player p(c);
    if (auto r = p.start(); !r) s.error = r.error();
  }
  s.sent = sent_lines(c.io_log);
  return s;
}

Start through_csa_client(game::EngineConfig c) {
  c.io_log = temp_path("csa");
  Start s;
  {
    csa::ClientEngine e(c, nullptr);
    if (auto r = e.start(); !r) s.error = r.error();
  }
  s.sent = sent_lines(c.io_log);
  return s;
}

Start through_checker(game::EngineConfig c) {
  c.io_log = temp_path("check");
  Start s;
  {
    check::ProbeEngine e(c);
    if (auto r = e.start(5000ms); !r) s.error = r.error();
  }
  s.sent = sent_lines(c.io_log);
  return s;
}

}  // namespace

TEST_CASE("the three engine starts send the same lines") {
  const game::EngineConfig c = config({{"Hash", "32"}, {"Style", "Solid"}});
  const Start player = through_player(c), csa = through_csa_client(c), checker = through_checker(c);
  CHECK(player.error.empty());
  CHECK(csa.error.empty());
  CHECK(checker.error.empty());
  // Up to readyok (then each goes its own way: quit at once, or a game).
  auto until_ready = [](std::vector<std::string> lines) {
    auto at = std::find(lines.begin(), lines.end(), "isready");
    if (at != lines.end()) lines.erase(at + 1, lines.end());
    return lines;
  };
  const std::vector<std::string> expected = {"usi", "setoption name Hash value 32", "setoption name Style value Solid",
                                             "setoption name USI_Ponder value false", "isready"};
  CHECK(until_ready(player.sent) == expected);
  CHECK(until_ready(csa.sent) == expected);
  CHECK(until_ready(checker.sent) == expected);
}

TEST_CASE("a bad second option: all three refuse it for the same reason, before any option is sent") {
  const game::EngineConfig c = config({{"Hash", "32"}, {"Threads", "99"}});
  const Start player = through_player(c), csa = through_csa_client(c), checker = through_checker(c);
  const std::string reason = "option 'Threads' must be an integer from 1 to 8, not '99'";
  CHECK(player.error == "engine 'mock' (" + std::string(MOCK_USI_ENGINE) + "): " + reason);
  CHECK(csa.error == player.error);
  CHECK(checker.error == reason);  // the checker's report names the engine itself
  for (const Start* s : {&player, &csa, &checker}) {
    CHECK(std::count_if(s->sent.begin(), s->sent.end(),
                        [](const std::string& l) { return l.starts_with("setoption"); }) == 0);
  }
}
