// Moves relayed by the server, checked against our position and mirrored on our clocks, without a server.
#include <doctest/doctest.h>

#include "csa/client/relayed_move.h"
#include "rules/notation.h"

using namespace arena::csa;
using shogi::BLACK;
using shogi::WHITE;

namespace {
Message move_line(const std::string& line) {
  auto m = parse_server_line(line);
  REQUIRE(m);
  REQUIRE(m->kind == MessageKind::Move);
  return *m;
}
CsaClock clocks_300_10() {
  TimeRule r;
  r.total_ms = 300000;
  r.byoyomi_ms = 10000;
  return CsaClock(r, r);
}
}  // namespace

TEST_CASE("relayed move: the opponent's move with its T is played and charged") {
  shogi::GameRecord game;
  REQUIRE(game.start("startpos moves 7g7f"));
  CsaClock clock = clocks_300_10();
  RelayedMove r = take_relayed_move(move_line("-3334FU,T7"), BLACK, "", game, clock, 123456);
  CHECK(r.kind == RelayedMove::Kind::Played);
  CHECK(r.mover == WHITE);
  CHECK(shogi::to_usi(r.move) == "3c3d");
  CHECK(r.time_ms == 7000);
  CHECK(r.warnings.empty());
  CHECK(clock.remaining_ms(WHITE) == 293000);
  CHECK(game.moves().size() == 2);
}

TEST_CASE("relayed move: no T is charged as the server would for the time we saw pass") {
  shogi::GameRecord game;
  REQUIRE(game.start("startpos"));
  CsaClock clock = clocks_300_10();
  RelayedMove r = take_relayed_move(move_line("+7776FU"), WHITE, "", game, clock, 2600);
  CHECK(r.kind == RelayedMove::Kind::Played);
  CHECK(r.time_ms == 2000);  // whole seconds, rounded down
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0] == "no ,T on +7776FU; charged 2000 ms from our own clock");
  CHECK(clock.remaining_ms(BLACK) == 298000);
}

TEST_CASE("relayed move: our echo, a different echo and a move of ours we never sent") {
  shogi::GameRecord game;
  REQUIRE(game.start("startpos"));
  CsaClock clock = clocks_300_10();
  RelayedMove r = take_relayed_move(move_line("+7776FU,T1"), BLACK, "+7776FU", game, clock, 0);
  CHECK(r.kind == RelayedMove::Kind::Played);
  CHECK(r.warnings.empty());

  REQUIRE(game.start("startpos"));
  r = take_relayed_move(move_line("+2726FU,T1"), BLACK, "+7776FU", game, clock, 0);
  CHECK(r.kind == RelayedMove::Kind::Played);  // the server is the judge of what was played
  CHECK(shogi::to_usi(r.move) == "2g2f");
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0] == "the server echoed +2726FU for our move +7776FU");

  REQUIRE(game.start("startpos"));
  r = take_relayed_move(move_line("+2726FU,T1"), BLACK, "", game, clock, 0);
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0] == "the server reports a move of ours we did not send: +2726FU");
}

TEST_CASE("relayed move: out of turn is ignored, a move our rules reject changes nothing") {
  shogi::GameRecord game;
  REQUIRE(game.start("startpos"));
  CsaClock clock = clocks_300_10();
  RelayedMove r = take_relayed_move(move_line("-3334FU,T1"), BLACK, "", game, clock, 0);
  CHECK(r.kind == RelayedMove::Kind::Ignored);
  CHECK(r.warnings == std::vector<std::string>{"move out of turn ignored: -3334FU"});
  CHECK(game.moves().empty());

  r = take_relayed_move(move_line("+5554FU,T3"), WHITE, "", game, clock, 0);  // no piece on 5e
  CHECK(r.kind == RelayedMove::Kind::Rejected);
  CHECK_FALSE(r.rejection.empty());
  CHECK(game.moves().empty());
  CHECK(clock.remaining_ms(BLACK) == 300000);
}
