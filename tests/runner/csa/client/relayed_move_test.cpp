// Moves relayed by the server, checked against our position and mirrored on our clocks, without a server.
#include <doctest/doctest.h>

#include "csa/client/relayed_move.h"
#include "rules/notation.h"

using namespace arena::csa;
using shogi::BLACK;
using shogi::WHITE;

namespace {

// A game at `position` on 300 s + 10 s byoyomi clocks, fed server lines.
struct Table {
  shogi::GameRecord game;
  CsaClock clock;
  explicit Table(const std::string& position = "startpos") {
    REQUIRE(game.start(position));
    TimeRule r;
    r.total_ms = 300000;
    r.byoyomi_ms = 10000;
    clock = CsaClock(r, r);
  }
  RelayedMove take(const std::string& line, shogi::Color us, const std::string& awaited_echo = "",
                   int64_t seen_ms = 0) {
    auto m = parse_server_line(line);
    REQUIRE(m);
    REQUIRE(m->kind == MessageKind::Move);
    return take_relayed_move(*m, us, awaited_echo, game, clock, seen_ms);
  }
};

}  // namespace

TEST_CASE("relayed move: the opponent's move with its T is played and charged") {
  Table t("startpos moves 7g7f");
  RelayedMove r = t.take("-3334FU,T7", BLACK, "", 123456);
  CHECK(r.kind == RelayedMove::Kind::Played);
  CHECK(r.mover == WHITE);
  CHECK(shogi::to_usi(r.move) == "3c3d");
  CHECK(r.time_ms == 7000);
  CHECK(r.warnings.empty());
  CHECK(t.clock.remaining_ms(WHITE) == 293000);
  CHECK(t.game.moves().size() == 2);
}

TEST_CASE("relayed move: no T is charged as the server would for the time we saw pass") {
  Table t;
  RelayedMove r = t.take("+7776FU", WHITE, "", 2600);
  CHECK(r.kind == RelayedMove::Kind::Played);
  CHECK(r.time_ms == 2000);  // whole seconds, rounded down
  CHECK(r.warnings == std::vector<std::string>{"no ,T on +7776FU; charged 2000 ms from our own clock"});
  CHECK(t.clock.remaining_ms(BLACK) == 298000);
}

TEST_CASE("relayed move: our echo, a different echo and a move of ours we never sent") {
  RelayedMove echo = Table().take("+7776FU,T1", BLACK, "+7776FU");
  CHECK(echo.kind == RelayedMove::Kind::Played);
  CHECK(echo.warnings.empty());

  RelayedMove other = Table().take("+2726FU,T1", BLACK, "+7776FU");
  CHECK(other.kind == RelayedMove::Kind::Played);  // the server is the judge of what was played
  CHECK(shogi::to_usi(other.move) == "2g2f");
  CHECK(other.warnings == std::vector<std::string>{"the server echoed +2726FU for our move +7776FU"});

  RelayedMove unsent = Table().take("+2726FU,T1", BLACK);
  CHECK(unsent.warnings == std::vector<std::string>{"the server reports a move of ours we did not send: +2726FU"});
}

TEST_CASE("relayed move: out of turn is ignored, a move our rules reject changes nothing") {
  Table t;
  RelayedMove r = t.take("-3334FU,T1", BLACK);
  CHECK(r.kind == RelayedMove::Kind::Ignored);
  CHECK(r.warnings == std::vector<std::string>{"move out of turn ignored: -3334FU"});
  CHECK(t.game.moves().empty());

  r = t.take("+5554FU,T3", WHITE);  // no piece on 5e
  CHECK(r.kind == RelayedMove::Kind::Rejected);
  CHECK_FALSE(r.rejection.empty());
  CHECK(t.game.moves().empty());
  CHECK(t.clock.remaining_ms(BLACK) == 300000);
}
