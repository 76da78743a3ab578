// Golden CSA text for small games and every ending. Times are pinned to UTC (records use local time).
#include <cstdlib>
#include <ctime>

#include <doctest/doctest.h>

#include "output/csa_record.h"
#include "sample_games.h"

using namespace arena;
using namespace arena::testing;

namespace {

void pin_utc() {
  setenv("TZ", "UTC", 1);
  tzset();
}

std::string csa(const PlayedGame& g) {
  pin_utc();
  auto text = to_csa_record(g);
  REQUIRE_MESSAGE(text.has_value(), (text ? "" : text.error()));
  return *text;
}

}  // namespace

TEST_CASE("CSA: a resignation game from the start position, with engine comments") {
  // The moves and the '** line are those of the hand-checked sample in tests/kifu/samples/short_resign.csa.
  CHECK(csa(resign_game()) ==
        "V2.2\n"
        "N+EngineA\n"
        "N-EngineB\n"
        "$EVENT:Shogi Arena test\n"
        "$START_TIME:2024/01/01 10:00:00\n"
        "$END_TIME:2024/01/01 10:00:31\n"
        "$TIME_LIMIT:300+2\n"
        "PI\n"
        "+\n"
        "+7776FU\nT1\n"
        "-3334FU\nT2\n"
        "'** 35 +8822UM -3122GI\n"  // white's -35 is +35 for black; the played move is left out of the PV
        "+8822UM\nT3\n"             // 3999 ms: truncated like the CSA server
        "-3122GI\nT1\n"
        "+0045KA\nT5\n"
        "-8384FU\nT2\n"
        "+4534KA\nT4\n"
        "'** 30000 -2233GI +3423KA\n"  // mate in 3 for the mover (black)
        "-2233GI\nT6\n"
        "+3423KA\nT1\n"
        "%TORYO\n"
        "'result: black wins by resignation\n");
}

TEST_CASE("CSA: a position with pieces in hand is written as P1..P9 and P+/P- lines") {
  CHECK(csa(mate_from_sfen_game()) ==
        "V2.2\n"
        "N+EngineA\n"
        "N-EngineB\n"
        "$EVENT:Shogi Arena test\n"
        "$START_TIME:2024/01/01 10:00:00\n"
        "$END_TIME:2024/01/01 10:00:31\n"
        "$TIME_LIMIT:300+2\n"
        "P1 *  *  *  * -OU *  *  *  * \n"
        "P2 *  *  *  *  *  *  *  *  * \n"
        "P3 *  *  *  * +FU *  *  *  * \n"
        "P4 *  *  *  *  *  *  *  *  * \n"
        "P5 *  *  *  *  *  *  *  *  * \n"
        "P6 *  *  *  *  *  *  *  *  * \n"
        "P7 *  *  *  *  *  *  *  *  * \n"
        "P8 *  *  *  *  *  *  *  *  * \n"
        "P9 *  *  *  * +OU *  *  *  * \n"
        "P+00KI00FU00FU\n"
        "P-00HI\n"
        "+\n"
        "+0052KI\nT0\n"
        "%TSUMI\n"
        "'result: black wins by checkmate\n");
}

TEST_CASE("CSA: white to move first and promoted pieces") {
  std::string text = csa(promoted_pieces_game());
  CHECK(text.find("P3 *  *  * +NG *  *  *  *  * \n") != std::string::npos);
  CHECK(text.find("P8 * +UM *  *  *  *  * +RY * \n") != std::string::npos);
  CHECK(text.find("P-00KI\n-\n-5141OU\nT61\n+8855UM\nT0\n-0052KI\n") != std::string::npos);
  CHECK(text.find("+7563KE\n") != std::string::npos);  // declined promotion: the piece stays KE
}

TEST_CASE("CSA: every ending line, named relative to the side to move") {
  // Each game is 7g7f 3c3d: black is to move at the end.
  const std::pair<const char*, const char*> expected[] = {
      {"resign", "%TORYO\n'result: white wins by resignation\n"},
      {"sennichite", "%SENNICHITE\n'result: draw by repetition (sennichite)\n"},
      // White, who just moved, loses: %-ILLEGAL_ACTION is "white's foul, black wins" in the CSA standard.
      {"perpetual_check", "%-ILLEGAL_ACTION\n'result: black wins: white gave perpetual check (oute-sennichite)\n"},
      {"declaration", "%KACHI\n'result: black wins by entering-king declaration\n"},
      {"illegal_declaration",
       "%ILLEGAL_MOVE\n'*win: the king is not in the enemy camp\n"
       "'result: white wins: black made a false entering-king declaration\n"},
      {"illegal_move",
       "%ILLEGAL_MOVE\n'*illegal move by black: 7g7e\n'*7g7e: no piece of the side to move on 7g\n"
       "'result: white wins: black played an illegal move\n"},
      {"time_forfeit", "%TIME_UP\n'*used 2150 ms of 2000 ms\n'result: white wins on time\n"},
      {"stall", "%TIME_UP\n'result: white wins: black stopped answering (stall)\n"},
      {"disconnect", "%TORYO\n'*EngineA exited\n'result: white wins: black disconnected\n"},
      {"disconnect_not_to_move",
       "%-ILLEGAL_ACTION\n'*EngineB exited while pondering\n'result: black wins: white disconnected\n"},
      {"max_moves", "%MAX_MOVES\n'result: draw by the move limit\n"},
      {"adjudication_win", "%TORYO\n'result: white wins by adjudication\n"},
      {"adjudication_draw", "%HIKIWAKE\n'result: draw by adjudication\n"},
      {"interrupted", "%CHUDAN\n'result: game interrupted\n"},
  };
  std::vector<NamedGame> games = ending_games();
  REQUIRE(games.size() == std::size(expected));
  for (size_t i = 0; i < games.size(); ++i) {
    CAPTURE(games[i].name);
    REQUIRE(games[i].name == expected[i].first);
    std::string text = csa(games[i].game);
    std::string moves = "+7776FU\nT1\n-3334FU\nT2\n";
    size_t at = text.find(moves);
    REQUIRE(at != std::string::npos);
    CHECK(text.substr(at + moves.size()) == expected[i].second);
  }
}

TEST_CASE("CSA: a game without a result has no ending line") {
  PlayedGame g = make_game("startpos", {{"7g7f", 0}}, Outcome::None, Termination::None);
  CHECK(csa(g).ends_with("+\n+7776FU\nT0\n"));
}

TEST_CASE("CSA: header lines cannot be broken by names, and unset times are left out") {
  PlayedGame g = make_game("startpos", {}, Outcome::None, Termination::None);
  g.names[shogi::BLACK] = "Evil\nEngine";
  g.event.clear();
  g.time_control.clear();
  g.start_time = g.end_time = {};
  CHECK(csa(g) == "V2.2\nN+Evil Engine\nN-EngineB\nPI\n+\n");
}

TEST_CASE("CSA: a corrupted game is an error, not a record") {
  PlayedGame g = resign_game();
  std::swap(g.moves[0], g.moves[1]);  // white's move first
  auto text = to_csa_record(g);
  REQUIRE_FALSE(text.has_value());
  CHECK(text.error().find("move 1 (3c3d)") != std::string::npos);

  PlayedGame bad = resign_game();
  bad.start_sfen = "not a position";
  CHECK_FALSE(to_csa_record(bad).has_value());
}

TEST_CASE("CSA: a PV that turns illegal is cut there, and a PV not starting with the move is kept whole") {
  SearchInfo info;
  info.score_cp = 10;
  info.pv = {"2g2f", "8c8d", "9a9a"};  // the third move is junk
  SearchInfo other;
  other.score_cp = -20;
  other.pv = {"8c8d", "2f2e"};  // does not start with the played move 3c3d: kept from the position before it
  PlayedGame g = make_game("startpos", {{"2g2f", 0, info}, {"3c3d", 0, other}}, Outcome::None, Termination::None);
  std::string text = csa(g);
  CHECK(text.find("+2726FU\nT0\n'** 10 -8384FU\n") != std::string::npos);
  CHECK(text.find("-3334FU\nT0\n'** 20 -8384FU +2625FU\n") != std::string::npos);
}
