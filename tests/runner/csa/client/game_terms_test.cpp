// What a Game_Summary means to the client before it agrees, without a server.
#include <algorithm>

#include <doctest/doctest.h>

#include "csa/client/game_terms.h"
#include "script_server.h"

using namespace arena::csa;
using csa_test::SummarySpec;
using shogi::BLACK;
using shogi::WHITE;

namespace {
GameSummary summary(const SummarySpec& spec) {
  auto s = parse_game_summary(csa_test::game_summary(spec));
  REQUIRE_MESSAGE(s, s.error());
  return *s;
}
bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}
}  // namespace

TEST_CASE("game terms: colour, clocks, the record's header and the Position block's moves") {
  SummarySpec spec;
  spec.your_turn = WHITE;
  spec.moves = {"+7776FU", "-3334FU", "+2726FU"};  // written with ,T1
  spec.total_s = 600;
  spec.byoyomi_s = 10;
  spec.increment_s = 0;
  shogi::GameRecord game;
  GameTerms t = game_terms(summary(spec), game);
  CHECK(t.unplayable.empty());
  CHECK(t.us == WHITE);
  CHECK(t.declaration_rule == shogi::EnteringKingRule::Point27);
  CHECK(game.moves().size() == 3);
  CHECK(game.position().side_to_move() == WHITE);
  CHECK(t.record.event == spec.game_id);
  CHECK(t.record.names[BLACK] == "alice");
  CHECK(t.record.time_control == "600+10b");
  REQUIRE(t.record.moves.size() == 3);
  CHECK(t.record.moves[0].time_ms == 1000);
  CHECK(t.record.moves[2].opening);
  CHECK(t.clock.remaining_ms(BLACK) == 598000);  // the Position block's times are charged
  CHECK(t.warnings.empty());
}

TEST_CASE("game terms: another declaration rule turns declarations off, with a warning") {
  SummarySpec spec;
  spec.declaration = "Jishogi 2.0";
  spec.extra_lines = {"KIOU_Rating:1500"};
  shogi::GameRecord game;
  GameTerms t = game_terms(summary(spec), game);
  CHECK(t.declaration_rule == shogi::EnteringKingRule::Off);
  REQUIRE(t.warnings.size() == 1);
  CHECK(t.warnings[0].find("will not be declared") != std::string::npos);
  REQUIRE(t.notes.size() == 1);
  CHECK(t.notes[0].find("KIOU_Rating:1500") != std::string::npos);
  CHECK(t.record.time_control == "300+10");
}

TEST_CASE("game terms: a Position block at Max_Moves or without a legal move is played, with a warning") {
  SummarySpec spec;
  spec.max_moves = 2;
  spec.moves = {"+7776FU", "-3334FU"};
  shogi::GameRecord game;
  GameTerms t = game_terms(summary(spec), game);
  CHECK(t.unplayable.empty());
  CHECK(has(t.warnings, "the Position block already reaches Max_Moves"));

  SummarySpec mated;
  mated.sfen = "4k4/9/9/9/9/9/7s1/8g/8K b - 1";
  t = game_terms(summary(mated), game);
  CHECK(has(t.warnings, "the side to move has no legal move in the Position block"));
}

TEST_CASE("game terms: time controls described as the runner writes them") {
  TimeRule r;
  CHECK(describe(r) == "untimed");
  r.total_ms = 300000;
  r.increment_ms = 2500;
  CHECK(describe(r) == "300+2.500");
  r.increment_ms = 0;
  r.byoyomi_ms = 10000;
  CHECK(describe(r) == "300+10b");
}
