// The USI client against the real engines Debian packages (fairy-stockfish, gpsshogi): their advertised options
// are parsed and one move is played. Skipped, with a warning, when an engine is not installed. Separate from the
// mock tests because gpsusi needs about 6 s of CPU before it answers `usi` (ctest label real_engines).

#include <doctest/doctest.h>

#include <cerrno>
#include <csignal>
#include <filesystem>

#include "rules/game_end.h"
#include "rules/position.h"
#include "usi/usi_client.h"
#include "usi_checks.h"

using namespace arena::usi;
using arena::process::EngineProcess;
using arena::process::ProcessSpec;
using namespace std::chrono_literals;
using namespace usi_test;

namespace {

std::unique_ptr<UsiClient> start(const std::string& executable) {
  ProcessSpec spec;
  spec.executable = executable;
  auto p = EngineProcess::start(std::move(spec));
  REQUIRE_MESSAGE(p.has_value(), (p ? "" : p.error()));
  return std::make_unique<UsiClient>(std::move(*p));
}

}  // namespace

TEST_CASE("real engines: handshake and options (skipped when not installed)") {
  struct Real {
    const char* path;
    std::vector<std::string> must_have;
    GoParams go;
  };
  GoParams quick;
  quick.movetime = 200;
  std::vector<Real> engines = {{"/usr/games/fairy-stockfish", {"Hash", "Threads", "Move Overhead"}, quick},
                               {"/usr/games/gpsusi", {"Thread", "BookDepth", "LimitDepth"}, byoyomi(1000)}};
  for (const auto& e : engines) {
    if (!std::filesystem::exists(e.path)) {
      WARN_MESSAGE(false, "skipped: " << e.path << " is not installed");
      continue;
    }
    CAPTURE(e.path);
    shogi::Position::init();
    auto m = start(e.path);
    auto t0 = SteadyClock::now();
    auto r = m->handshake(t0 + 60s);
    REQUIRE_MESSAGE(r.ok(), to_string(r.status) << ": " << r.text << " after " << ms(SteadyClock::now() - t0) << " ms");
    CHECK_FALSE(m->identity().name.empty());
    CHECK(m->warnings().empty());
    for (const auto& name : e.must_have) CHECK_MESSAGE(m->find_option(name), name);
    MESSAGE(m->identity().name << ": " << m->options().size() << " options, usiok after "
                                  << ms(SteadyClock::now() - t0) << " ms");
    if (std::string(e.path).find("fairy") != std::string::npos) {
      CHECK(m->find_option("Hash")->max == 131072);
      CHECK(m->set_option("Hash", "0").status == Status::InvalidOption);
      CHECK(m->set_option("Hash", "16").ok());
      CHECK(m->find_option("UCI_Variant")->vars.size() > 10);
    } else {
      CHECK(m->find_option("Thread")->max == 2);
      CHECK(m->set_option("Thread", "3").status == Status::InvalidOption);
      CHECK(m->set_option("Thread", "1").ok());
    }
    REQUIRE(m->is_ready(SteadyClock::now() + 10s).ok());
    REQUIRE(m->new_game().ok());
    REQUIRE(m->position("position startpos").ok());
    REQUIRE(m->go(e.go).ok());
    auto best = m->wait_bestmove(SteadyClock::now() + 10s);
    REQUIRE(best.status == Status::Ok);
    shogi::GameRecord record;
    REQUIRE(record.start("startpos"));
    CHECK(record.play_usi(best.bestmove.move).has_value());
    pid_t pid = m->process().pid();
    m->game_over(UsiClient::GameOver::Draw);
    CHECK(m->quit(2s));
    CHECK(pid_gone(pid));
  }
}

// The two real engines' misreadings of `go` and the GoQuirks that work around them (README, engine keys
// swap_btime_wtime and send_inc). If one of these checks of the bug itself fails, the installed engine has been
// fixed: the workaround should then be dropped from the configs.
TEST_CASE("real engines: fairy-stockfish reads btime as gote's time; swap_sides makes it use its own clock") {
  const char* path = "/usr/games/fairy-stockfish";
  if (!std::filesystem::exists(path)) {
    WARN_MESSAGE(false, "skipped: " << path << " is not installed");
    return;
  }
  shogi::Position::init();
  auto m = start(path);
  REQUIRE(m->handshake(SteadyClock::now() + 30s).ok());
  REQUIRE(m->set_option("Hash", "16").ok());
  REQUIRE(m->is_ready(SteadyClock::now() + 30s).ok());
  // Sente to move with 0.2 s + 0.1 s left, gote with 20 s: it may use 0.3 s.
  GoParams p;
  p.btime = 200;
  p.wtime = 20000;
  p.binc = 100;
  p.winc = 100;
  auto think = [&](GoQuirks quirks) {
    m->set_go_quirks(quirks);
    REQUIRE(m->new_game().ok());
    REQUIRE(m->position("position startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b").ok());
    REQUIRE(m->go(p).ok());
    auto best = m->wait_bestmove(SteadyClock::now() + 10s);
    REQUIRE(best.status == Status::Ok);
    return ms(best.elapsed());
  };
  double as_sent = think({});
  double swapped = think({.swap_sides = true});
  MESSAGE("fairy-stockfish with 0.3 s to spend: " << as_sent << " ms told btime=own, " << swapped
                                                  << " ms with the sides swapped");
  CHECK_MESSAGE(as_sent > 300, "fairy-stockfish now reads btime as its own: drop swap_btime_wtime from the configs");
  CHECK(swapped < 300);
  CHECK(m->quit(2s));
}

TEST_CASE("real engines: gpsusi aborts on binc/winc; fold_increments lets it play Fischer") {
  const char* path = "/usr/games/gpsusi";
  if (!std::filesystem::exists(path)) {
    WARN_MESSAGE(false, "skipped: " << path << " is not installed");
    return;
  }
  shogi::Position::init();
  auto m = start(path);
  REQUIRE(m->handshake(SteadyClock::now() + 60s).ok());
  REQUIRE(m->is_ready(SteadyClock::now() + 30s).ok());
  GoParams p;
  p.btime = 1000;
  p.wtime = 1000;
  p.binc = 100;
  p.winc = 100;
  const std::string position = "position startpos moves 7g7f 3c3d 2g2f 4c4d 3i4h 8b4b 5i6h 5a6b 6h7h 6b7b";
  REQUIRE(m->new_game().ok());
  REQUIRE(m->position(position).ok());
  m->set_go_quirks({.fold_increments = true});
  REQUIRE(m->go(p).ok());
  auto best = m->wait_bestmove(SteadyClock::now() + 10s);
  REQUIRE(best.status == Status::Ok);
  MESSAGE("gpsusi, go btime 1100 wtime 1100: " << best.bestmove.move << " after " << ms(best.elapsed()) << " ms");
  REQUIRE(m->position(position).ok());
  m->set_go_quirks({});
  REQUIRE(m->go(p).ok());
  auto dead = m->wait_bestmove(SteadyClock::now() + 10s);
  CHECK_MESSAGE(dead.status == Status::Disconnected,
                "gpsusi now accepts binc/winc: send_inc=false is no longer needed for it");
  m->quit(0s);
}
