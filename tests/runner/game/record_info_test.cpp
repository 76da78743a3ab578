// record_info: the one conversion of an engine's search info into the record's.

#include <doctest/doctest.h>

#include "game/record_info.h"

using namespace arena;

TEST_CASE("record_info: centipawns, mates with their distance, and mates of unknown distance") {
  usi::SearchInfo in;
  in.depth = 9;
  in.seldepth = 14;
  in.nodes = 12345;
  in.pv = {"7g7f", "3c3d"};
  in.score = usi::Score{usi::Score::Kind::Cp, 35, 0};
  SearchInfo out = game::record_info(in);
  CHECK(out.depth == 9);
  CHECK(out.seldepth == 14);
  CHECK(out.nodes == 12345u);
  CHECK(out.score_cp == 35);
  CHECK_FALSE(out.score_mate);
  CHECK(out.pv == std::vector<std::string>{"7g7f", "3c3d"});

  in.score = usi::Score{usi::Score::Kind::Mate, -5, -1};
  out = game::record_info(in);
  CHECK(out.score_mate == -5);
  CHECK_FALSE(out.score_cp);

  // `score mate +` / `score mate -`: the sign, at a distance longer than any real mate; never a mate in one.
  in.score = usi::Score{usi::Score::Kind::Mate, 0, +1};
  CHECK(game::record_info(in).score_mate == UNKNOWN_MATE_DISTANCE);
  in.score = usi::Score{usi::Score::Kind::Mate, 0, -1};
  CHECK(game::record_info(in).score_mate == -UNKNOWN_MATE_DISTANCE);

  // The move path takes the pv instead of copying it.
  SearchInfo moved = game::record_info(std::move(in));
  CHECK(moved.pv.size() == 2);
  in.score.reset();
  CHECK_FALSE(game::record_info(in).score_mate);
}
