// Game_Summary blocks: the exact shogi-server block of csa-protocol.md §3, the 1.2.1 spec example of a resumed
// game, handicaps, per-side clocks, Time_Unit variants, unknown keys and broken blocks.
#include <string>

#include <doctest/doctest.h>

#include "csa/protocol/game_summary.h"
#include "rules/position.h"

using namespace arena::csa;
using shogi::BLACK;
using shogi::WHITE;

namespace {

const std::string HIRATE_ROWS =
    "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\n"
    "P2 * -HI *  *  *  *  * -KA * \n"
    "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
    "P4 *  *  *  *  *  *  *  *  * \n"
    "P5 *  *  *  *  *  *  *  *  * \n"
    "P6 *  *  *  *  *  *  *  *  * \n"
    "P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\n"
    "P8 * +KA *  *  *  *  * +HI * \n"
    "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n";

// What shogi-server sends (§3), key order and all.
const std::string FRESH =
    "BEGIN Game_Summary\n"
    "Protocol_Version:1.2\n"
    "Protocol_Mode:Server\n"
    "Format:Shogi 1.0\n"
    "Declaration:Jishogi 1.1\n"
    "Game_ID:local+testgame-300-10F+alice+bob+20261121122219\n"
    "Name+:alice\n"
    "Name-:bob\n"
    "Your_Turn:-\n"
    "Rematch_On_Draw:NO\n"
    "To_Move:+\n"
    "Max_Moves:256\n"
    "BEGIN Time\n"
    "Time_Unit:1sec\n"
    "Total_Time:300\n"
    "Byoyomi:0\n"
    "Increment:10\n"
    "Least_Time_Per_Move:0\n"
    "END Time\n"
    "BEGIN Position\n" +
    HIRATE_ROWS +
    "+\n"
    "END Position\n"
    "END Game_Summary\n";

// Same position through Position::set, so comparisons do not depend on SFEN hand-order details.
std::string canonical(const std::string& sfen) {
  shogi::Position::init();
  shogi::Position pos;
  shogi::StateInfo si;
  auto ok = pos.set(sfen, &si);
  REQUIRE(ok.has_value());
  return pos.sfen();
}

GameSummary parse_ok(const std::string& text) {
  auto s = parse_game_summary(text);
  if (!s) FAIL_CHECK(s.error());
  REQUIRE(s.has_value());
  return *s;
}

std::string parse_err(const std::string& text) {
  auto s = parse_game_summary(text);
  REQUIRE_FALSE(s.has_value());
  return s.error();
}

std::string replace(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// A summary around a given Time part and Position body.
std::string summary_with(const std::string& time_part, const std::string& position_body) {
  return "BEGIN Game_Summary\nGame_ID:g1\nName+:a\nName-:b\nYour_Turn:+\nTo_Move:+\n" + time_part +
         "BEGIN Position\n" + position_body + "END Position\nEND Game_Summary\n";
}

}  // namespace

TEST_CASE("a fresh game: the exact shogi-server block") {
  auto s = parse_ok(FRESH);
  CHECK(s.protocol_version == "1.2");
  CHECK(s.protocol_mode == "Server");
  CHECK(s.format == "Shogi 1.0");
  CHECK(s.declaration == "Jishogi 1.1");
  CHECK(s.game_id == "local+testgame-300-10F+alice+bob+20261121122219");
  CHECK(s.name[BLACK] == "alice");
  CHECK(s.name[WHITE] == "bob");
  CHECK(s.your_turn == WHITE);
  CHECK(s.to_move == BLACK);
  CHECK_FALSE(s.rematch_on_draw);
  CHECK(s.max_moves == 256);
  for (auto c : {BLACK, WHITE}) {
    CHECK(s.time[c].unit_ms == 1000);
    CHECK(s.time[c].total_ms == 300000);
    CHECK(s.time[c].byoyomi_ms == 0);
    CHECK(s.time[c].increment_ms == 10000);
    CHECK(s.time[c].least_ms == 0);
    CHECK_FALSE(s.time[c].roundup);
    CHECK(s.clock.remaining_ms(c) == 300000);
    CHECK(s.clock.budget_ms(c) == 310000);  // the increment is credited before the first move too
  }
  CHECK(s.start_sfen == canonical(std::string(shogi::START_SFEN)));
  CHECK(s.current_sfen == s.start_sfen);
  CHECK(s.moves.empty());
  CHECK(s.side_to_move == BLACK);
  CHECK(s.unknown.empty());
  CHECK(s.warnings.empty());
}

TEST_CASE("fed line by line, CR LF tolerated, keep-alives ignored") {
  GameSummaryParser p;
  std::string_view text = FRESH;
  int lines = 0;
  bool finished = false;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string line(text.substr(0, nl));
    text.remove_prefix(nl + 1);
    auto r = p.feed(line + "\r");
    REQUIRE(r.has_value());
    if (++lines == 3) REQUIRE(p.feed("").has_value());
    finished = *r;
    CHECK(p.done() == finished);
  }
  CHECK(finished);
  CHECK(p.summary().game_id == "local+testgame-300-10F+alice+bob+20261121122219");
}

TEST_CASE("a resumed game: the 1.2.1 example with played moves") {
  const std::string text =
      "BEGIN Game_Summary\n"
      "Protocol_Version:1.2\n"
      "Protocol_Mode:Server\n"
      "Format:Shogi 1.0\n"
      "Declaration:Jishogi 1.1\n"
      "Game_ID:20150505-CSA25-3-5-7\n"
      "Name+:TANUKI\n"
      "Name-:KITSUNE\n"
      "Your_Turn:+\n"
      "Rematch_On_Draw:NO\n"
      "To_Move:+\n"
      "BEGIN Time\n"
      "Time_Unit:1sec\n"
      "Total_Time:600\n"
      "Byoyomi:10\n"
      "Least_Time_Per_Move:1\n"
      "END Time\n"
      "BEGIN Position\n" +
      HIRATE_ROWS +
      "P+\n"
      "P-\n"
      "+\n"
      "+2726FU,T12\n"
      "-3334FU,T6\n"
      "END Position\n"
      "END Game_Summary\n";
  auto s = parse_ok(text);
  REQUIRE(s.moves.size() == 2);
  CHECK(s.moves[0].csa == "+2726FU");
  CHECK(s.moves[0].usi == "2g2f");
  CHECK(s.moves[0].time_ms == 12000);
  CHECK(s.moves[1].usi == "3c3d");
  CHECK(s.moves[1].time_ms == 6000);
  CHECK(s.start_sfen == canonical(std::string(shogi::START_SFEN)));
  CHECK(s.current_sfen == canonical("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/7P1/PPPPPPP1P/1B5R1/LNSGKGSNL b - 3"));
  CHECK(s.side_to_move == BLACK);
  CHECK(s.max_moves == 0);
  CHECK(s.time[BLACK].least_ms == 1000);
  CHECK(s.time[BLACK].byoyomi_ms == 10000);
  // The played moves' times are charged (§5.4): no increment here, so remaining = 600 - T.
  CHECK(s.clock.remaining_ms(BLACK) == 588000);
  CHECK(s.clock.remaining_ms(WHITE) == 594000);
  CHECK(s.clock.budget_ms(BLACK) == 598000);
  CHECK(s.warnings.empty());
}

TEST_CASE("a buoy game with Fischer time, moves with decimal T and a separate T line") {
  auto s = parse_ok(summary_with("BEGIN Time\nTime_Unit:1sec\nTotal_Time:60\nIncrement:5\nEND Time\n",
                                 "PI\n+\n+7776FU,T1\n-3334FU\nT2.5\n+8822UM,T0.25\n"));
  REQUIRE(s.moves.size() == 3);
  CHECK(s.moves[1].time_ms == 2500);
  CHECK(s.moves[2].usi == "8h2b+");
  CHECK(s.side_to_move == WHITE);
  // rem <- rem + inc - T per move: black 60+5-1+5-0.25, white 60+5-2.5.
  CHECK(s.clock.remaining_ms(BLACK) == 68750);
  CHECK(s.clock.remaining_ms(WHITE) == 62500);
  // To_Move:+ matches the block's initial turn (not the turn after the moves): accepted without a warning.
  CHECK(s.warnings.empty());
}

TEST_CASE("handicap starts") {
  SUBCASE("bishop handicap: PI22KA, white moves first") {
    auto s = parse_ok(summary_with("", "PI22KA\n-\n-3334FU\n"));
    CHECK(s.start_sfen == canonical("lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"));
    REQUIRE(s.moves.size() == 1);
    CHECK(s.side_to_move == BLACK);
  }
  SUBCASE("two pieces: PI82HI22KA") {
    auto s = parse_ok(summary_with("", "PI82HI22KA\n-\n"));
    CHECK(s.start_sfen == canonical("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"));
  }
  SUBCASE("a handicap written as rows") {
    std::string rows = replace(HIRATE_ROWS, "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY", "P1 * -KE-GI-KI-OU-KI-GI-KE * ");
    auto s = parse_ok(summary_with("", rows + "-\n"));
    CHECK(s.start_sfen == canonical("1nsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"));
  }
  SUBCASE("removing a piece that is not there") {
    CHECK(parse_err(summary_with("", "PI22HI\n-\n")).find("no HI on 22") != std::string::npos);
  }
  SUBCASE("untimed: no Time block") {
    auto s = parse_ok(summary_with("", "PI\n+\n"));
    CHECK_FALSE(s.time[BLACK].timed());
    CHECK_FALSE(s.clock.budget_ms(BLACK).has_value());
  }
}

TEST_CASE("P+ / P- placements, hands and 00AL") {
  auto s = parse_ok(summary_with("", "P1 *  *  *  * -OU *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \n"
                                     "P+00HI00KA\nP-00AL\n+\n"));
  CHECK(s.start_sfen == canonical("4k4/9/9/9/9/9/9/9/4K4 b RBrb4g4s4n4l18p 1"));
  auto placed = parse_ok(summary_with("", "P+59OU28HI00FU00FU\nP-51OU\n+\n"));
  CHECK(placed.start_sfen == canonical("4k4/9/9/9/9/9/9/7R1/4K4 b 2P 1"));
  CHECK(parse_err(summary_with("", "P+59OU59KI\nP-51OU\n+\n")).find("occupied") != std::string::npos);
  CHECK(parse_err(summary_with("", "P+59OU00OU\nP-51OU\n+\n")).find("cannot be held in hand") != std::string::npos);
  CHECK(parse_err(summary_with("", "P+59OU00F\n+\n")).find("4-character groups") != std::string::npos);
}

TEST_CASE("per-side clocks: Time+ / Time-") {
  SUBCASE("both sides") {
    auto s = parse_ok(summary_with(
        "BEGIN Time+\nTime_Unit:1sec\nTotal_Time:600\nByoyomi:10\nEND Time+\n"
        "BEGIN Time-\nTime_Unit:1sec\nTotal_Time:300\nIncrement:5\nEND Time-\n",
        "PI\n+\n"));
    CHECK(s.time[BLACK].total_ms == 600000);
    CHECK(s.time[BLACK].byoyomi_ms == 10000);
    CHECK(s.time[BLACK].increment_ms == 0);
    CHECK(s.time[WHITE].total_ms == 300000);
    CHECK(s.time[WHITE].increment_ms == 5000);
    CHECK(s.clock.budget_ms(BLACK) == 610000);
    CHECK(s.clock.budget_ms(WHITE) == 305000);
  }
  SUBCASE("a common block with one side overridden") {
    auto s = parse_ok(summary_with("BEGIN Time\nTotal_Time:900\nByoyomi:30\nEND Time\n"
                                   "BEGIN Time-\nTotal_Time:60\nByoyomi:30\nEND Time-\n",
                                   "PI\n+\n"));
    CHECK(s.time[BLACK].total_ms == 900000);
    CHECK(s.time[WHITE].total_ms == 60000);
  }
  SUBCASE("a second Time- block is an error") {
    auto e = parse_err(summary_with("BEGIN Time-\nEND Time-\nBEGIN Time-\nEND Time-\n", "PI\n+\n"));
    CHECK(e.find("line 9: a second BEGIN Time- block") != std::string::npos);
  }
}

TEST_CASE("Time_Unit variants") {
  auto with_unit = [](const std::string& unit, const std::string& extra = "") {
    return summary_with("BEGIN Time\nTime_Unit:" + unit + "\nTotal_Time:10\nByoyomi:3\n" + extra + "END Time\n",
                        "PI\n+\n");
  };
  auto sec = parse_ok(with_unit("1sec"));
  CHECK(sec.time[BLACK].total_ms == 10000);
  auto min = parse_ok(with_unit("1min"));
  CHECK(min.time[BLACK].unit_ms == 60000);
  CHECK(min.time[BLACK].total_ms == 600000);
  CHECK(min.time[BLACK].byoyomi_ms == 180000);
  auto msec = parse_ok(with_unit("500msec"));
  CHECK(msec.time[BLACK].unit_ms == 500);
  CHECK(msec.time[BLACK].total_ms == 5000);
  auto nsec = parse_ok(with_unit("2sec", "Least_Time_Per_Move:1\nTime_Roundup:YES\nDelay:3\n"));
  CHECK(nsec.time[WHITE].total_ms == 20000);
  CHECK(nsec.time[WHITE].least_ms == 2000);
  CHECK(nsec.time[WHITE].roundup);
  CHECK(nsec.time[WHITE].delay_ms == 6000);
  // Time_Unit after the values it scales still applies to them.
  auto late = parse_ok(summary_with("BEGIN Time\nTotal_Time:10\nTime_Unit:1min\nEND Time\n", "PI\n+\n"));
  CHECK(late.time[BLACK].total_ms == 600000);
  auto e = parse_err(with_unit("2hours"));
  CHECK(e.find("line 8: Time_Unit in Time: expected 1sec, 1min") != std::string::npos);
  CHECK(parse_err(with_unit("0sec")).find("Time_Unit") != std::string::npos);
}

TEST_CASE("unknown keys and blocks are collected, not fatal") {
  std::string text = replace(FRESH, "Max_Moves:256\n", "Max_Moves:256\nKIOU_Rating:1500\nBEGIN Extra\nFoo:1\n"
                                                      "END Extra\n");
  text = replace(text, "Least_Time_Per_Move:0\n", "Least_Time_Per_Move:0\nMystery:7\n");
  auto s = parse_ok(text);
  REQUIRE(s.unknown.size() == 3);
  CHECK(s.unknown[0] == "line 13: KIOU_Rating:1500");
  CHECK(s.unknown[1].find("line 14: BEGIN Extra") == 0);
  CHECK(s.unknown[2] == "line 23: Mystery:7 (in Time)");
  CHECK(s.time[BLACK].increment_ms == 10000);
}

TEST_CASE("a tolerated space after the colon") {
  auto s = parse_ok(replace(FRESH, "Your_Turn:-", "Your_Turn: -"));
  CHECK(s.your_turn == WHITE);
}

TEST_CASE("To_Move that fits neither reading is a warning") {
  auto s = parse_ok(replace(summary_with("", "PI\n+\n+7776FU\n"), "To_Move:+", "To_Move:+"));
  CHECK(s.warnings.empty());
  auto odd = parse_ok(replace(summary_with("", "PI\n+\n"), "To_Move:+", "To_Move:-"));
  REQUIRE(odd.warnings.size() == 1);
  CHECK(odd.warnings[0].find("To_Move:-") == 0);
}

TEST_CASE("broken blocks name the line and what was expected") {
  CHECK(parse_err("Game_ID:x\n").find("line 1: expected BEGIN Game_Summary") != std::string::npos);
  CHECK(parse_err(replace(FRESH, "Total_Time:300", "Total_Time:abc"))
            .find("line 15: Total_Time in Time: expected a whole number of Time_Units, got 'abc'") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "Total_Time:300", "Total_Time:1.5")).find("line 15") != std::string::npos);
  CHECK(parse_err(replace(FRESH, "Your_Turn:-", "Your_Turn:x")).find("line 9: Your_Turn: expected + or -") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "Max_Moves:256", "Max_Moves:many")).find("line 12: Max_Moves") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "Rematch_On_Draw:NO", "Rematch_On_Draw:maybe")).find("YES or NO") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "Name-:bob\n", "Name-:bob\nName-:eve\n"))
            .find("line 9: duplicate key Name- (first on line 8)") != std::string::npos);
  CHECK(parse_err(replace(FRESH, "Format:Shogi 1.0", "this is not a key")).find("line 4: expected Key:Value") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "P3-FU-FU-FU-FU-FU-FU-FU-FU-FU", "P3-FU-FU-XX-FU-FU-FU-FU-FU-FU"))
            .find("line 23: P3: cell 3 is '-XX'") != std::string::npos);
  CHECK(parse_err(replace(FRESH, "+\nEND Position", "END Position")).find("line 30: END Position before the turn") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "Your_Turn:-\n", "")).find("line 31: END Game_Summary but no Your_Turn") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "Game_ID:local+testgame-300-10F+alice+bob+20261121122219\n", ""))
            .find("no Game_ID") != std::string::npos);
  CHECK(parse_err(replace(FRESH, "END Time\n", "")).find("line 19: expected a time key or END Time") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "END Game_Summary\n", "")).find("ended before END Game_Summary") !=
        std::string::npos);
  CHECK(parse_err(replace(FRESH, "END Time\n", "END Time\nEND Position\n")).find("without a matching BEGIN") !=
        std::string::npos);
  // An impossible board (a black pawn on the far rank) is rejected by the rules library.
  CHECK(parse_err(summary_with("", "P1+FU *  *  * -OU *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \n+\n"))
            .find("line 10: the Position block is not a valid position") != std::string::npos);
  CHECK(parse_err(summary_with("", "+\n")).find("before any board") != std::string::npos);
  CHECK(parse_err(summary_with("", "PI\nP1 *  *  *  *  *  *  *  *  * \n+\n")).find("after PI") != std::string::npos);
}

TEST_CASE("moves in the Position block are validated") {
  CHECK(parse_err(summary_with("", "PI\n+\n+7776FU,T1\n+2726FU,T1\n"))
            .find("line 11: move 2 is illegal: +2726FU: it is white's (-) turn") != std::string::npos);
  CHECK(parse_err(summary_with("", "PI\n+\n+7775FU,T1\n")).find("line 10: move 1 is illegal") != std::string::npos);
  CHECK(parse_err(summary_with("", "PI\n+\n+7776FU,Tx\n")).find("line 10") != std::string::npos);
  CHECK(parse_err(summary_with("", "PI\n+7776FU\n+\n")).find("a move before the turn line") != std::string::npos);
  CHECK(parse_err(summary_with("", "PI\n+\nT3\n")).find("does not follow a move") != std::string::npos);
}

TEST_CASE("after an error every feed returns it") {
  GameSummaryParser p;
  auto first = p.feed("garbage");
  REQUIRE_FALSE(first.has_value());
  auto again = p.feed("BEGIN Game_Summary");
  REQUIRE_FALSE(again.has_value());
  CHECK(again.error() == first.error());
  CHECK_FALSE(p.done());
}

TEST_CASE("every truncation of a valid block fails cleanly") {
  std::string text = replace(FRESH, "+\nEND Position", "+\n+7776FU,T1\n-3334FU,T2\nEND Position");
  for (size_t n = 0; n < text.size(); ++n) {
    auto s = parse_game_summary(std::string_view(text).substr(0, n));
    // Cutting inside the last line can still leave "END Game_Summary" minus its LF: that one is complete.
    if (n + 1 < text.size()) CHECK_FALSE(s.has_value());
  }
  CHECK(parse_game_summary(text).has_value());
}
