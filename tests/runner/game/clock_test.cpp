// Time-control text, the per-side clock with USI semantics, the go parameters built from two clocks, and
// score adjudication. Pure: no engines.

#include <doctest/doctest.h>

#include "game/adjudication.h"
#include "game/clock.h"
#include "game/game.h"

using namespace arena::game;
using namespace std::chrono_literals;
using Micros = std::chrono::microseconds;

namespace {

TimeControl tc(std::string_view text) {
  auto r = parse_time_control(text);
  REQUIRE_MESSAGE(r.has_value(), (r ? "" : r.error()));
  return *r;
}

std::string error_of(std::string_view text) {
  auto r = parse_time_control(text);
  REQUIRE_FALSE(r.has_value());
  return r.error();
}

}  // namespace

TEST_CASE("parse_time_control: the documented forms") {
  TimeControl f = tc("10+0.1");
  CHECK(f.base_ms == 10000);
  CHECK(f.increment_ms == 100);
  CHECK(f.byoyomi_ms == 0);
  CHECK(f.has_clock());

  TimeControl b = tc("0+1b");
  CHECK(b.base_ms == 0);
  CHECK(b.byoyomi_ms == 1000);
  CHECK(b.increment_ms == 0);

  TimeControl b2 = tc("60+10b");
  CHECK(b2.base_ms == 60000);
  CHECK(b2.byoyomi_ms == 10000);

  CHECK(tc("300").base_ms == 300000);
  CHECK(tc("0.5+0.001").increment_ms == 1);
  CHECK(*tc("movetime=1").movetime_ms == 1000);
  CHECK(*tc("movetime=0.25").movetime_ms == 250);
  CHECK(*tc("nodes=10000").nodes == 10000);
  CHECK(*tc("depth=6").depth == 6);
  CHECK_FALSE(tc("depth=6").has_clock());

  TimeControl combo = tc("10+0.1,nodes=5000,depth=12");
  CHECK(combo.base_ms == 10000);
  CHECK(*combo.nodes == 5000);
  CHECK(*combo.depth == 12);
}

TEST_CASE("TimeControl::to_string round-trips") {
  for (const char* text : {"10+0.1", "0+1b", "60+10b", "300", "movetime=1", "movetime=0.25", "nodes=10000", "depth=6",
                           "10+0.1,nodes=5000", "2.5+0.05,depth=3"}) {
    CAPTURE(text);
    CHECK(tc(text).to_string() == text);
  }
  CHECK(tc("10.000+0.100").to_string() == "10+0.1");
}

TEST_CASE("parse_time_control: errors name the problem") {
  CHECK(error_of("").find("empty") != std::string::npos);
  CHECK(error_of("abc").find("base time 'abc'") != std::string::npos);
  CHECK(error_of("10+x").find("increment 'x'") != std::string::npos);
  CHECK(error_of("10+0.0001").find("at most 3 decimals") != std::string::npos);
  CHECK(error_of("-1+0").find("base time") != std::string::npos);
  CHECK(error_of("0+0").find("no time at all") != std::string::npos);
  CHECK(error_of("0").find("no time at all") != std::string::npos);
  CHECK(error_of("movetime=0").find("positive") != std::string::npos);
  CHECK(error_of("nodes=0").find("nodes '0'") != std::string::npos);
  CHECK(error_of("nodes=12x").find("nodes '12x'") != std::string::npos);
  CHECK(error_of("depth=1000").find("from 1 to 200") != std::string::npos);
  CHECK(error_of("speed=3").find("unknown limit 'speed'") != std::string::npos);
  CHECK(error_of("10+0.1,5+0").find("two clocks") != std::string::npos);
  CHECK(error_of("10+0.1,movetime=1").find("movetime and a clock") != std::string::npos);
  CHECK(error_of("nodes=1,nodes=2").find("twice") != std::string::npos);
  CHECK(error_of("10+0.1,").find("empty part") != std::string::npos);
  // Every error shows the whole text and what was expected.
  CHECK(error_of("10+x").find("time control '10+x'") == 0);
  CHECK(error_of("10+x").find("expected e.g.") != std::string::npos);
}

TEST_CASE("Clock, Fischer: go carries btime = remaining and binc = increment; allowed = remaining + increment") {
  Clock black(tc("10+2")), white(tc("10+2"));
  auto go = go_params(black, white, shogi::BLACK);
  CHECK(*go.btime == 10000);  // the increment is NOT pre-added ...
  CHECK(*go.wtime == 10000);
  CHECK(*go.binc == 2000);  // ... because it is sent here
  CHECK(*go.winc == 2000);
  CHECK_FALSE(go.byoyomi);
  CHECK(*black.allowed() == 12000ms);  // remaining + increment, counted once

  // 3 s used: 10 - 3 + 2 = 9 s left, credited after the move.
  CHECK(black.charge(3000ms, 0ms) == Clock::Verdict::Ok);
  CHECK(black.remaining_ms() == 9000);
  CHECK(*go_params(black, white, shogi::WHITE).btime == 9000);

  // Exactly remaining + increment is still in time (with margin 0); the clock is then empty.
  CHECK(black.charge(11000ms, 0ms) == Clock::Verdict::Ok);
  CHECK(black.remaining_ms() == 0);
  CHECK(*black.allowed() == 2000ms);
  // One microsecond beyond remaining + increment with margin 0 is a flag; a double-counting runner (allowing
  // remaining + 2 * increment) would accept up to 4 s here.
  CHECK(black.charge(Micros(2000001), 0ms) == Clock::Verdict::Flag);
}

TEST_CASE("Clock, Fischer with margin: the margin tolerates, it is not banked") {
  Clock c(tc("1+1"));
  CHECK(c.charge(2050ms, 100ms) == Clock::Verdict::Ok);  // over allowed (2000) but within the margin
  CHECK(c.remaining_ms() == 0);                          // not negative, nothing extra
  CHECK(c.charge(1101ms, 100ms) == Clock::Verdict::Flag);
}

TEST_CASE("Clock, byoyomi: main time first, byoyomi per move and never banked") {
  Clock black(tc("1+0.5b")), white(tc("1+0.5b"));
  auto go = go_params(black, white, shogi::BLACK);
  CHECK(*go.btime == 1000);
  CHECK(*go.byoyomi == 500);
  CHECK_FALSE(go.binc);
  CHECK(*black.allowed() == 1500ms);

  CHECK(black.charge(800ms, 0ms) == Clock::Verdict::Ok);
  CHECK(black.remaining_ms() == 200);  // main time consumed first
  CHECK(*black.allowed() == 700ms);
  CHECK(black.charge(600ms, 0ms) == Clock::Verdict::Ok);  // 200 main + 400 of byoyomi
  CHECK(black.remaining_ms() == 0);                       // the unused 100 ms of byoyomi are not kept
  CHECK(*black.allowed() == 500ms);
  CHECK(black.charge(100ms, 0ms) == Clock::Verdict::Ok);
  CHECK(black.remaining_ms() == 0);  // a quick move banks nothing either
  CHECK(*go_params(black, white, shogi::BLACK).btime == 0);
  CHECK(black.charge(500ms, 0ms) == Clock::Verdict::Ok);
  CHECK(black.charge(Micros(500001), 0ms) == Clock::Verdict::Flag);

  Clock only(tc("0+1b"));
  CHECK(*only.allowed() == 1000ms);
  CHECK(only.charge(1000ms, 0ms) == Clock::Verdict::Ok);
  CHECK(only.charge(1001ms, 0ms) == Clock::Verdict::Flag);
}

TEST_CASE("Clock: sub-millisecond use accumulates exactly; go rounds down") {
  Clock c(tc("1+0"));
  for (int i = 0; i < 1000; ++i) REQUIRE(c.charge(Micros(999), 0ms) == Clock::Verdict::Ok);
  CHECK(c.remaining() == Micros(1000000 - 999000));
  CHECK(c.remaining_ms() == 1);
  CHECK(c.charge(Micros(500), 0ms) == Clock::Verdict::Ok);
  CHECK(c.remaining_ms() == 0);  // 500 us left: go says 0, never more than there is
}

TEST_CASE("Clock: movetime, nodes, depth") {
  Clock m(tc("movetime=0.5"));
  CHECK(*m.allowed() == 500ms);
  CHECK(m.charge(500ms, 0ms) == Clock::Verdict::Ok);
  CHECK(*m.allowed() == 500ms);  // nothing carries over
  CHECK(m.charge(550ms, 50ms) == Clock::Verdict::Ok);
  CHECK(m.charge(551ms, 50ms) == Clock::Verdict::Flag);

  Clock n(tc("nodes=1000")), d(tc("depth=4"));
  CHECK_FALSE(n.allowed());
  CHECK(n.charge(100000ms, 0ms) == Clock::Verdict::Ok);
  auto go = go_params(n, d, shogi::BLACK);
  CHECK(*go.nodes == 1000);
  CHECK_FALSE(go.btime);
  CHECK_FALSE(go.movetime);
  CHECK(arena::usi::go_command(go) == "go nodes 1000");
  CHECK(arena::usi::go_command(go_params(n, d, shogi::WHITE)) == "go depth 4");
  CHECK(arena::usi::go_command(go_params(m, d, shogi::BLACK, true)) == "go ponder movetime 500");
}

TEST_CASE("go_params: different controls per side") {
  Clock black(tc("2+0.1")), white(tc("1+0.2"));
  CHECK(arena::usi::go_command(go_params(black, white, shogi::BLACK)) == "go btime 2000 wtime 1000 binc 100 winc 200");
  Clock wb(tc("5+1b"));
  // USI has one byoyomi field: the mover's own.
  CHECK(arena::usi::go_command(go_params(black, wb, shogi::WHITE)) ==
        "go btime 2000 wtime 5000 byoyomi 1000 binc 100 winc 0");
  CHECK(arena::usi::go_command(go_params(black, wb, shogi::BLACK)) == "go btime 2000 wtime 5000 binc 100 winc 0");
  // A side with only a node limit: the mover's time is shown for both, never a bogus 0.
  Clock nodes(tc("nodes=100"));
  CHECK(arena::usi::go_command(go_params(black, nodes, shogi::BLACK)) == "go btime 2000 wtime 2000 binc 100 winc 0");
  Clock limited(tc("10+0,nodes=50")), plain(tc("10"));
  CHECK(arena::usi::go_command(go_params(limited, plain, shogi::BLACK)) == "go btime 10000 wtime 10000 nodes 50");
}

TEST_CASE("Adjudicator: off by default, resign and draw streaks") {
  Adjudication off;
  Adjudicator none(off);
  for (int i = 0; i < 50; ++i)
    CHECK_FALSE(none.update(i % 2 ? shogi::WHITE : shogi::BLACK, i % 2 ? 5000 : -5000, 200 + i).has_value());

  Adjudication r;
  r.resign_enabled = true;
  r.resign_score_cp = 1000;
  r.resign_moves = 2;
  Adjudicator a(r);
  // Black says -1200 (it is losing), white says +1500 (it is winning): both agree black is lost.
  CHECK_FALSE(a.update(shogi::BLACK, -1200, 1));
  CHECK_FALSE(a.update(shogi::WHITE, 1500, 2));
  CHECK_FALSE(a.update(shogi::BLACK, -1000, 3));
  auto verdict = a.update(shogi::WHITE, 1000, 4);
  REQUIRE(verdict);
  CHECK(verdict->outcome == arena::Outcome::WhiteWin);
  CHECK(verdict->termination == arena::Termination::Adjudication);

  Adjudicator broken(r);
  CHECK_FALSE(broken.update(shogi::BLACK, -1200, 1));
  CHECK_FALSE(broken.update(shogi::WHITE, std::nullopt, 2));  // no score: the streak restarts
  CHECK_FALSE(broken.update(shogi::BLACK, -1200, 3));
  CHECK_FALSE(broken.update(shogi::WHITE, 1200, 4));
  CHECK_FALSE(broken.update(shogi::BLACK, -1200, 5));
  CHECK(broken.update(shogi::WHITE, 1200, 6));

  Adjudication d;
  d.draw_enabled = true;
  d.draw_score_cp = 10;
  d.draw_moves = 2;
  d.draw_min_ply = 6;
  Adjudicator dr(d);
  CHECK_FALSE(dr.update(shogi::BLACK, 0, 3));
  CHECK_FALSE(dr.update(shogi::WHITE, 5, 4));
  CHECK_FALSE(dr.update(shogi::BLACK, -10, 5));
  CHECK_FALSE(dr.update(shogi::WHITE, 10, 5));  // four plies but before the minimum ply
  auto draw = dr.update(shogi::BLACK, 0, 6);
  REQUIRE(draw);
  CHECK(draw->outcome == arena::Outcome::Draw);
}
