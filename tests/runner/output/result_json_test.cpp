// The per-game JSON line: what it contains, that it reads back to the same game, and that garbage is refused
// with a clear error (the journal is re-read by --resume and the stats command).
#include <doctest/doctest.h>

#include "output/result_json.h"
#include "rules/notation.h"
#include "sample_games.h"

using namespace arena;
using namespace arena::testing;

namespace {

void check_same(const PlayedGame& a, const PlayedGame& b) {
  CHECK(a.event == b.event);
  CHECK(a.names[0] == b.names[0]);
  CHECK(a.names[1] == b.names[1]);
  CHECK(a.start_time == b.start_time);
  CHECK(a.end_time == b.end_time);
  CHECK(a.start_sfen == b.start_sfen);
  CHECK(a.time_control == b.time_control);
  CHECK(a.result.outcome == b.result.outcome);
  CHECK(a.result.termination == b.result.termination);
  CHECK(a.result.detail == b.result.detail);
  CHECK(a.illegal_move_text == b.illegal_move_text);
  REQUIRE(a.moves.size() == b.moves.size());
  for (size_t i = 0; i < a.moves.size(); ++i) {
    CAPTURE(i);
    const MoveRecord& x = a.moves[i];
    const MoveRecord& y = b.moves[i];
    CHECK(x.move == y.move);  // the full move, moved piece included
    CHECK(x.time_ms == y.time_ms);
    CHECK(x.opening == y.opening);
    CHECK(x.info.depth == y.info.depth);
    CHECK(x.info.seldepth == y.info.seldepth);
    CHECK(x.info.score_cp == y.info.score_cp);
    CHECK(x.info.score_mate == y.info.score_mate);
    CHECK(x.info.nodes == y.info.nodes);
    CHECK(x.info.pv == y.info.pv);
  }
}

std::string error_of(std::string_view line) {
  auto g = parse_result_json(line);
  REQUIRE_FALSE(g.has_value());
  return g.error();
}

}  // namespace

TEST_CASE("result JSON: the exact line for a short game") {
  PlayedGame g = make_game("startpos", {{"7g7f", 1234}, {"3c3d", 5}}, Outcome::WhiteWin, Termination::IllegalMove,
                           "7g7e: \"no piece\"");
  g.start_time += std::chrono::milliseconds(42);
  g.moves[0].opening = true;
  g.moves[1].info.score_mate = -3;
  g.moves[1].info.pv = {"3c3d", "2g2f"};
  g.illegal_move_text = "7g7e";
  CHECK(to_result_json(g) ==
        R"({"version":1,"event":"Shogi Arena test","black":"EngineA","white":"EngineB",)"
        R"("start_time":"2024-01-01T10:00:00.042Z","end_time":"2024-01-01T10:00:31.000Z","time_control":"300+2",)"
        R"("time_controls":["300+2","300+2"],)"
        R"("start_sfen":"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",)"
        R"("moves":["7g7f","3c3d"],"times_ms":[1234,5],"opening_plies":1,)"
        R"("info":[null,{"depth":null,"seldepth":null,"score_cp":null,"score_mate":-3,"nodes":null,)"
        R"("pv":["3c3d","2g2f"]}],"result":"white","termination":"illegal-move","detail":"7g7e: \"no piece\"",)"
        R"("illegal_move":"7g7e"})");
}

TEST_CASE("result JSON: round trip of full games") {
  std::vector<PlayedGame> games = {resign_game(), mate_from_sfen_game(), promoted_pieces_game()};
  for (NamedGame& g : ending_games()) games.push_back(g.game);
  PlayedGame odd = resign_game();
  odd.names[shogi::BLACK] = "名前 \"quoted\"\n\ttab";
  odd.event = "\x01\x7f";
  odd.start_time = {};  // unknown times are null
  odd.end_time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1709251199999));  // leap-year end
  odd.moves[0].opening = odd.moves[1].opening = true;
  odd.moves[3].info.nodes = 1ull << 40;
  games.push_back(odd);
  for (const PlayedGame& g : games) {
    std::string line = to_result_json(g);
    CHECK(line.find('\n') == std::string::npos);
    auto back = parse_result_json(line);
    REQUIRE_MESSAGE(back.has_value(), (back ? "" : back.error()));
    check_same(g, *back);
    CHECK(to_result_json(*back) == line);
  }
}

TEST_CASE("result JSON: node counts beyond INT64_MAX read back") {
  PlayedGame g = resign_game();
  g.moves[0].info.nodes = UINT64_MAX;
  auto back = parse_result_json(to_result_json(g));
  REQUIRE_MESSAGE(back.has_value(), (back ? "" : back.error()));
  CHECK(back->moves[0].info.nodes == UINT64_MAX);
}

TEST_CASE("result JSON: garbage is refused with a clear error") {
  const std::string good = to_result_json(resign_game());
  auto with = [&](std::string_view from, std::string_view to) {
    std::string s = good;
    size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
  };
  CHECK(error_of("") == "result JSON: incomplete JSON at offset 0");
  CHECK(error_of("hello") == "result JSON: syntax error at offset 0");
  CHECK(error_of(good.substr(0, good.size() / 2)).starts_with("result JSON: "));
  CHECK(error_of("[1]") == "result JSON: expected an object");
  CHECK(error_of("{}") == "result JSON: \"version\" must be 1");
  CHECK(error_of(with("\"version\":1", "\"version\":2")) == "result JSON: \"version\" must be 1");
  CHECK(error_of(with("\"black\":\"EngineA\",", "")) == "result JSON: \"black\" is missing");
  CHECK(error_of(with("\"white\":\"EngineB\"", "\"white\":7")) == "result JSON: \"white\" must be a string");
  CHECK(error_of(with("\"termination\":\"resign\"", "\"termination\":\"gave up\"")) ==
        "result JSON: \"termination\" has an unknown value \"gave up\"");
  CHECK(error_of(with("\"result\":\"black\"", "\"result\":\"sente\"")) ==
        "result JSON: \"result\" has an unknown value \"sente\"");
  CHECK(error_of(with("\"7g7f\",\"3c3d\"", "\"7g7e\",\"3c3d\"")) ==
        "result JSON: move 1: 7g7e: the pawn on 7g cannot move to 7e");
  CHECK(error_of(with("\"times_ms\":[1000,", "\"times_ms\":[")) ==
        "result JSON: \"times_ms\" must be an array with one time per move");
  CHECK(error_of(with("\"times_ms\":[1000,", "\"times_ms\":[\"1000\",")) ==
        "result JSON: \"times_ms\" must hold integers");
  CHECK(error_of(with("\"opening_plies\":0", "\"opening_plies\":10")) ==
        "result JSON: \"opening_plies\" must be between 0 and the number of moves");
  CHECK(error_of(with("2024-01-01T10:00:00.000Z", "yesterday")) ==
        "result JSON: \"start_time\" must look like 2024-01-01T10:00:00.000Z");
  CHECK(error_of(with("2024-01-01T10:00:00.000Z", "2024-02-30T10:00:00.000Z")) ==
        "result JSON: \"start_time\" is not a valid date and time");
  // Found by fuzz_journal_line: a year the clock cannot hold overflowed the conversion (undefined behaviour).
  CHECK(error_of(with("2024-01-01T10:00:00.000Z", "4052-11-25T09:49:40.041Z")) ==
        "result JSON: \"start_time\" has a year outside 1970-2200");
  CHECK(error_of(with("2024-01-01T10:00:00.000Z", "-999-11-25T09:49:40.041Z")) ==
        "result JSON: \"start_time\" has a year outside 1970-2200");
  CHECK(error_of(with("\"start_sfen\":\"lnsgkgsnl", "\"start_sfen\":\"xnsgkgsnl"))
            .starts_with("result JSON: \"start_sfen\" is invalid: "));
}
