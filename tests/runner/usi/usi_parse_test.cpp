// Pure parsing and formatting of USI text: info lines, bestmove, option lines and values, go lines.

#include <doctest/doctest.h>

#include "usi/usi_client.h"
#include "usi/usi_info.h"
#include "usi/usi_option.h"

using namespace arena::usi;

TEST_CASE("info lines") {
  auto i = parse_info("info depth 12 seldepth 18 score cp -35 upperbound nodes 123456 nps 789 time 1500 hashfull 12 "
                      "multipv 1 pv 7g7f 3c3d 2g2f currmove 7g7f");
  REQUIRE(i);
  CHECK(i->depth == 12);
  CHECK(i->seldepth == 18);
  REQUIRE(i->score);
  CHECK(i->score->kind == Score::Kind::Cp);
  CHECK(i->score->value == -35);
  CHECK(i->score->upperbound);
  CHECK_FALSE(i->score->lowerbound);
  CHECK(i->nodes == 123456u);
  CHECK(i->nps == 789u);
  CHECK(i->time_ms == 1500);
  CHECK(i->hashfull == 12);
  CHECK(i->multipv == 1);
  CHECK(i->pv == std::vector<std::string>{"7g7f", "3c3d", "2g2f"});  // stops at the next key

  auto m = parse_info("info score mate 7 lowerbound pv P*5e");
  REQUIRE(m);
  CHECK(m->score->is_mate());
  CHECK(m->score->value == 7);
  CHECK(m->score->mate_sign == 1);
  CHECK(m->score->lowerbound);
  CHECK(parse_info("info score mate -4")->score->mate_sign == -1);
  auto plus = parse_info("info score mate +");
  REQUIRE(plus);
  CHECK(plus->score->mate_sign == 1);
  CHECK(parse_info("info score mate -")->score->mate_sign == -1);
  CHECK(parse_info("info score mate -0")->score->mate_sign == -1);

  auto s = parse_info("info string  hello  world ");
  REQUIRE(s);
  CHECK(s->string == "hello  world ");

  // Unknown keys are skipped; bad values of known keys are errors.
  CHECK(parse_info("info depth 3 foo nodes 10")->nodes == 10u);
  std::string error;
  CHECK_FALSE(parse_info("info depth x", &error));
  CHECK(error.find("depth") != std::string::npos);
  CHECK_FALSE(parse_info("info score cp", &error));
  CHECK_FALSE(parse_info("info score centipawns 5"));
  CHECK_FALSE(parse_info("info nodes"));
}

TEST_CASE("info merging keeps the last main line") {
  SearchInfo info;
  info.merge(*parse_info("info depth 5 score cp 20 pv 7g7f 3c3d"));
  info.merge(*parse_info("info nodes 5000 nps 100"));  // a progress line without score keeps the pv
  CHECK(info.score->value == 20);
  CHECK(info.pv.size() == 2);
  CHECK(info.nodes == 5000u);
  info.merge(*parse_info("info depth 6 score cp 25"));  // a new score replaces the old pv
  CHECK(info.pv.empty());
  CHECK(info.depth == 6);
}

TEST_CASE("parsing into a reused info starts from nothing each time") {
  SearchInfo info;
  REQUIRE(parse_info("info depth 5 seldepth 9 score mate 3 lowerbound multipv 2 pv 7g7f 3c3d 2g2f", info));
  REQUIRE(info.score);
  CHECK(info.pv.size() == 3);
  REQUIRE(parse_info("info nodes 7 string  hi there", info));
  CHECK_FALSE(info.score);
  CHECK_FALSE(info.depth);
  CHECK_FALSE(info.seldepth);
  CHECK_FALSE(info.multipv);
  CHECK(info.pv.empty());
  CHECK(info.nodes == 7u);
  CHECK(info.string == "hi there");
  REQUIRE(parse_info("info depth 2 pv 1g1f", info));
  CHECK_FALSE(info.string);
  CHECK(info.pv == std::vector<std::string>{"1g1f"});
  // A known key with a missing value at the end of the line is an error, as in the middle.
  std::string error;
  CHECK_FALSE(parse_info("info depth 2 hashfull", info, &error));
  CHECK(error.find("hashfull") != std::string::npos);
  CHECK_FALSE(parse_info("info score mate", info, &error));
}

TEST_CASE("the word cursor splits as split_words does") {
  for (std::string_view text : {"", "   ", "a", " \t a  b\tc ", "info depth 1 pv 7g7f", "x\t\ty"}) {
    std::vector<std::string_view> words;
    for (WordCursor w(text); !w.at_end();) words.push_back(w.next());
    CHECK(words == split_words(text));
  }
  WordCursor w("go ponder");
  CHECK(w.peek() == "go");
  CHECK(w.peek() == "go");
  CHECK(w.next() == "go");
  CHECK(w.next() == "ponder");
  CHECK(w.at_end());
  CHECK(w.next().empty());
  CHECK(w.peek().empty());
}

TEST_CASE("bestmove lines") {
  auto b = parse_bestmove("bestmove 7g7f ponder 3c3d");
  REQUIRE(b);
  CHECK(b->move == "7g7f");
  CHECK(b->ponder == "3c3d");
  CHECK(parse_bestmove("bestmove resign")->is_resign());
  CHECK(parse_bestmove("bestmove win")->is_win());
  CHECK(parse_bestmove("bestmove  P*5e ")->move == "P*5e");
  CHECK(parse_bestmove("bestmove 7g7f ponder")->ponder.empty());
  std::string error;
  CHECK_FALSE(parse_bestmove("bestmove", &error));
  CHECK(error == "bestmove without a move");
  CHECK_FALSE(parse_bestmove("bestmove 7g7f junk"));
  CHECK_FALSE(parse_bestmove("bestmove 7g7f ponder 3c3d junk"));
  CHECK_FALSE(parse_bestmove("bestmoves 7g7f"));
}

TEST_CASE("option lines") {
  auto spin = parse_option_line("option name Move Overhead type spin default 30 min 0 max 5000");
  REQUIRE(spin);
  CHECK(spin->name == "Move Overhead");
  CHECK(spin->type == OptionType::Spin);
  CHECK(spin->default_value == "30");
  CHECK(spin->min == 0);
  CHECK(spin->max == 5000);

  auto combo = parse_option_line("option name Analysis Contempt type combo default Both var Both var Off var White");
  REQUIRE(combo);
  CHECK(combo->vars == std::vector<std::string>{"Both", "Off", "White"});

  auto empty_default = parse_option_line("option name Debug Log File type string default ");  // fairy-stockfish
  REQUIRE(empty_default);
  CHECK(empty_default->name == "Debug Log File");
  CHECK(empty_default->default_value.empty());

  auto button = parse_option_line("option name Clear Hash type button");
  REQUIRE(button);
  CHECK(button->type == OptionType::Button);
  CHECK(parse_option_line("option name Contempt type spin default 24 min -100 max 100")->min == -100);

  CHECK_FALSE(parse_option_line("option name X type spin default 5"));  // no range
  CHECK_FALSE(parse_option_line("option name X type colour default red"));
  CHECK_FALSE(parse_option_line("option name type check"));
  CHECK_FALSE(parse_option_line("option name X"));
  auto bad = parse_option_line("option name X type spin default 1 min a max 3");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("min 'a'") != std::string::npos);
}

TEST_CASE("option values are checked against type and range") {
  auto hash = *parse_option_line("option name Hash type spin default 16 min 1 max 1024");
  CHECK(check_option_value(hash, "1024"));
  auto e = check_option_value(hash, "0");
  REQUIRE_FALSE(e);
  CHECK(e.error() == "option 'Hash' must be an integer from 1 to 1024, not '0'");
  CHECK_FALSE(check_option_value(hash, "12x"));
  CHECK_FALSE(check_option_value(hash, ""));
  auto check = *parse_option_line("option name Ponder type check default false");
  CHECK(check_option_value(check, "true"));
  CHECK_FALSE(check_option_value(check, "yes"));
  auto combo = *parse_option_line("option name Style type combo default Normal var Solid var Normal");
  CHECK(check_option_value(combo, "solid"));
  CHECK(setoption_command(combo, "solid") == "setoption name Style value Solid");
  CHECK(check_option_value(combo, "Wild").error() == "option 'Style' must be one of Solid, Normal, not 'Wild'");
  auto button = *parse_option_line("option name Clear Hash type button");
  CHECK(setoption_command(button, "") == "setoption name Clear Hash");
  CHECK_FALSE(check_option_value(button, "1"));
  auto str = *parse_option_line("option name Eval Dir type string default eval");
  CHECK(setoption_command(str, "") == "setoption name Eval Dir value <empty>");
  CHECK(setoption_command(str, "my dir") == "setoption name Eval Dir value my dir");
  CHECK_FALSE(check_option_value(str, "a\nisready"));
}

TEST_CASE("go lines follow USI time semantics as given") {
  GoParams fischer;
  fischer.btime = 60000;
  fischer.wtime = 59000;
  fischer.binc = 1000;
  fischer.winc = 1000;
  // btime is passed through untouched: the increment of this move is not folded into it.
  CHECK(go_command(fischer) == "go btime 60000 wtime 59000 binc 1000 winc 1000");
  GoParams byo;
  byo.btime = 0;
  byo.wtime = 0;
  byo.byoyomi = 3000;
  byo.ponder = true;
  CHECK(go_command(byo) == "go ponder btime 0 wtime 0 byoyomi 3000");
  GoParams fixed;
  fixed.movetime = 500;
  fixed.nodes = 10000;
  fixed.depth = 8;
  CHECK(go_command(fixed) == "go movetime 500 nodes 10000 depth 8");
  GoParams inf;
  inf.infinite = true;
  CHECK(go_command(inf) == "go infinite");
}

TEST_CASE("fold_increments: for engines without binc/winc, each side's time includes its increment, never both") {
  GoParams fischer;
  fischer.btime = 60000;
  fischer.wtime = 59000;
  fischer.binc = 1000;
  fischer.winc = 500;
  fischer.ponder = true;
  CHECK(go_command(fold_increments(fischer)) == "go ponder btime 61000 wtime 59500");
  // One side without an increment (different controls per side) gets nothing added.
  fischer.winc = 0;
  CHECK(go_command(fold_increments(fischer)) == "go ponder btime 61000 wtime 59000");
  // Nothing to fold: unchanged.
  GoParams byo;
  byo.btime = 0;
  byo.wtime = 1000;
  byo.byoyomi = 3000;
  CHECK(go_command(fold_increments(byo)) == "go btime 0 wtime 1000 byoyomi 3000");
  GoParams fixed;
  fixed.movetime = 500;
  CHECK(go_command(fold_increments(fixed)) == "go movetime 500");
}

TEST_CASE("swap_sides and GoQuirks: for engines that read btime as gote's time") {
  GoParams p;
  p.btime = 9000;
  p.wtime = 300;
  p.binc = 100;
  p.winc = 200;
  CHECK(go_command(swap_sides(p)) == "go btime 300 wtime 9000 binc 200 winc 100");
  CHECK(go_command(apply(GoQuirks{}, p)) == "go btime 9000 wtime 300 binc 100 winc 200");
  CHECK(go_command(apply(GoQuirks{.fold_increments = true}, p)) == "go btime 9100 wtime 500");
  CHECK(go_command(apply(GoQuirks{.swap_sides = true}, p)) == "go btime 300 wtime 9000 binc 200 winc 100");
  // Both: each side's own increment is folded into its own time before the exchange.
  CHECK(go_command(apply(GoQuirks{.fold_increments = true, .swap_sides = true}, p)) == "go btime 500 wtime 9100");
  GoParams byo;
  byo.btime = 0;
  byo.wtime = 5000;
  byo.byoyomi = 1000;
  CHECK(go_command(swap_sides(byo)) == "go btime 5000 wtime 0 byoyomi 1000");
}
