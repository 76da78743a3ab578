// Our turn's clock on a CSA server: deadlines, the `go` and the wait after a desync, without a server.
#include <doctest/doctest.h>

#include "csa/client/turn_time.h"

using namespace arena::csa;
using namespace std::chrono_literals;
using arena::usi::go_command;
using shogi::BLACK;
using shogi::WHITE;

namespace {
TimeRule rule(std::optional<int64_t> total_ms, int64_t byoyomi_ms, int64_t increment_ms) {
  TimeRule r;
  r.total_ms = total_ms;
  r.byoyomi_ms = byoyomi_ms;
  r.increment_ms = increment_ms;
  return r;
}
GameSettings margin(int64_t ms) {
  GameSettings s;
  s.margin_ms = ms;
  return s;
}
const Deadline T0 = SteadyClock::now();
}  // namespace

TEST_CASE("turn time: stop at the server budget minus the margin, play alone at half the margin") {
  CsaClock clock(rule(300000, 10000, 0), rule(300000, 10000, 0));
  auto d = turn_deadlines(clock, BLACK, margin(1000), T0);
  CHECK(d.stop_at - T0 == 309000ms);
  CHECK(d.emergency - T0 == 309500ms);
  clock.apply(BLACK, 300000);  // main time gone: byoyomi only
  d = turn_deadlines(clock, BLACK, margin(1000), T0);
  CHECK(d.stop_at - T0 == 9000ms);
  d = turn_deadlines(clock, BLACK, margin(30000), T0);  // a margin beyond the budget: stop at once
  CHECK(d.stop_at == T0);
  CHECK(d.emergency == T0);
}

TEST_CASE("turn time: an untimed game thinks for the fixed time, stopped after max(1 s, margin)") {
  CsaClock clock(rule(std::nullopt, 0, 0), rule(std::nullopt, 0, 0));
  GameSettings s = margin(200);
  s.untimed_move_ms = 4000;
  auto d = turn_deadlines(clock, WHITE, s, T0);
  CHECK(d.stop_at - T0 == 5000ms);
  CHECK(d.emergency - T0 == 10000ms);
  CHECK(go_command(turn_go(clock, WHITE, s, 123)) == "go btime 0 wtime 0 byoyomi 4000");
  CHECK(desync_deadline(clock, WHITE, s, T0) - T0 == 4000ms);
}

TEST_CASE("turn time: the go takes the margin and the time already gone off main time, then byoyomi") {
  CsaClock clock(rule(300000, 10000, 0), rule(300000, 10000, 0));
  CHECK(go_command(turn_go(clock, BLACK, margin(1000), 0)) == "go btime 299000 wtime 300000 byoyomi 10000");
  CHECK(go_command(turn_go(clock, WHITE, margin(1000), 250)) == "go btime 300000 wtime 298750 byoyomi 10000");
  clock.apply(WHITE, 299500);
  CHECK(go_command(turn_go(clock, WHITE, margin(1000), 0)) == "go btime 300000 wtime 0 byoyomi 9500");
  CHECK(desync_deadline(clock, WHITE, margin(1000), T0) - T0 == 9500ms);
}

TEST_CASE("turn time: Fischer clocks send both increments, the mover's reduced last") {
  CsaClock clock(rule(300000, 0, 10000), rule(60000, 0, 0));
  CHECK(go_command(turn_go(clock, BLACK, margin(500), 0)) == "go btime 299500 wtime 60000 binc 10000 winc 0");
  clock.apply(BLACK, 310000);  // all of the main time and the increment used
  CHECK(clock.remaining_ms(BLACK) == 0);
  CHECK(go_command(turn_go(clock, BLACK, margin(500), 2000)) == "go btime 0 wtime 60000 binc 7500 winc 0");
  CHECK(go_command(turn_go(clock, WHITE, margin(500), 0)) == "go btime 0 wtime 59500 binc 10000 winc 0");
}
