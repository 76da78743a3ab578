// The USI time rule in one place: what each caller describes and the `go` it gets (usi_client.h's GoParams).
#include <doctest/doctest.h>

#include "usi/go_builder.h"

using namespace arena::usi;
using shogi::BLACK;
using shogi::WHITE;

namespace {
GoRequest both(SideClock black, SideClock white, shogi::Color mover) {
  GoRequest r;
  r.mover = mover;
  r.clock[BLACK] = black;
  r.clock[WHITE] = white;
  return r;
}
}  // namespace

TEST_CASE("go builder: main time never contains the increment, increments are sent for both sides") {
  auto r = both({60000, 1000, 0}, {50000, 0, 0}, WHITE);
  CHECK(go_command(build_go(r)) == "go btime 60000 wtime 50000 binc 1000 winc 0");
  r = both({60000, 0, 0}, {50000, 0, 0}, BLACK);
  CHECK(go_command(build_go(r)) == "go btime 60000 wtime 50000");
}

TEST_CASE("go builder: byoyomi is the mover's own") {
  auto r = both({0, 0, 10000}, {30000, 0, 5000}, BLACK);
  CHECK(go_command(build_go(r)) == "go btime 0 wtime 30000 byoyomi 10000");
  r.mover = WHITE;
  CHECK(go_command(build_go(r)) == "go btime 0 wtime 30000 byoyomi 5000");
}

TEST_CASE("go builder: what is spent comes off main time, then byoyomi, then increment") {
  auto r = both({3000, 2000, 5000}, {9000, 2000, 5000}, BLACK);
  r.spent_ms = 1000;
  CHECK(go_command(build_go(r)) == "go btime 2000 wtime 9000 byoyomi 5000 binc 2000 winc 2000");
  r.spent_ms = 4000;
  CHECK(go_command(build_go(r)) == "go btime 0 wtime 9000 byoyomi 4000 binc 2000 winc 2000");
  r.spent_ms = 9000;
  CHECK(go_command(build_go(r)) == "go btime 0 wtime 9000 byoyomi 0 binc 1000 winc 2000");
  r.spent_ms = 20000;  // more than everything: all zero, never negative
  CHECK(go_command(build_go(r)) == "go btime 0 wtime 9000 byoyomi 0 binc 0 winc 2000");
  r.spent_ms = -5;  // a clock that went backwards spends nothing
  CHECK(go_command(build_go(r)) == "go btime 3000 wtime 9000 byoyomi 5000 binc 2000 winc 2000");
}

TEST_CASE("go builder: a side without a clock is shown with the mover's time, movetime wins, limits go along") {
  GoRequest r;
  r.mover = BLACK;
  r.clock[BLACK] = SideClock{7000, 100, 0};
  r.nodes = 5000;
  CHECK(go_command(build_go(r)) == "go btime 7000 wtime 7000 binc 100 winc 0 nodes 5000");
  r.movetime_ms = 300;
  r.ponder = true;
  CHECK(go_command(build_go(r)) == "go ponder movetime 300 nodes 5000");
  GoRequest only_depth;
  only_depth.depth = 6;
  CHECK(go_command(build_go(only_depth)) == "go depth 6");
}
