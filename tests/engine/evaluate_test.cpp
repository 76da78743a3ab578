// The evaluation is symmetric: the same position seen from the other side evaluates to the exact negation.
#include <doctest/doctest.h>

#include <deque>
#include <fstream>
#include <sstream>
#include <string>

#include "eval/builtin_weights.h"
#include "eval/evaluate.h"
#include "eval/hand_weights.h"
#include "rules/movegen.h"

using namespace shogi;

namespace {

void check_flip(const std::string& sfen) {
  Position::init();
  Position pos, flipped;
  StateInfo st1, st2;
  REQUIRE(pos.set(sfen, &st1).has_value());
  const std::string fs = pos.flipped_sfen();
  REQUIRE_MESSAGE(flipped.set(fs, &st2).has_value(), fs);
  INFO(sfen, " / ", fs);
  CHECK(evaluate_black(flipped) == -evaluate_black(pos));
  // From the side to move the flip changes nothing when it also swaps the side to move, else negates.
  if (flipped.side_to_move() != pos.side_to_move()) {
    CHECK(evaluate_hand_written(flipped) == evaluate_hand_written(pos));
    // The built-in weights on top of it keep the symmetry.
    const kp::Weights* builtin = kp::builtin_weights().get();
    CHECK(evaluate(flipped, builtin) == evaluate(pos, builtin));
  } else {
    CHECK(evaluate_hand_written(flipped) + evaluate_hand_written(pos) == 2 * eval::HAND_WEIGHTS.tempo);
  }
}

}  // namespace

TEST_CASE("evaluation: flipped positions evaluate to the exact negation") {
  check_flip("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
  check_flip("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1");
  check_flip("l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91");
  check_flip("3sks3/9/4S4/9/9/8B/9/9/9 b S 1");  // no black king
  check_flip("9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1");
}

TEST_CASE("evaluation: symmetric along random games") {
  Position::init();
  Position pos;
  std::deque<StateInfo> states(1);
  REQUIRE(pos.set("startpos", &states.back()).has_value());
  uint64_t rng = 12345;
  for (int ply = 0; ply < 200; ++ply) {
    MoveList<LEGAL> moves(pos);
    if (moves.size() == 0) break;
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    states.emplace_back();
    pos.do_move(moves.begin()[(rng >> 33) % moves.size()].move, states.back());
    check_flip(pos.sfen());
  }
}

TEST_CASE("evaluation: material counts, including pieces in hand") {
  Position::init();
  Position a, b;
  StateInfo s1, s2;
  REQUIRE(a.set("4k4/9/9/9/9/9/9/9/4K4 b R 1", &s1).has_value());
  REQUIRE(b.set("4k4/9/9/9/9/9/9/9/4K4 b - 1", &s2).has_value());
  CHECK(evaluate_hand_written(a) > evaluate_hand_written(b) + 800);
}

TEST_CASE("evaluation: the hand-written value stays below a known win when one side holds every piece") {
  Position::init();
  Position pos;
  StateInfo st;
  // A tsume-style position: the attacker has no king and every other piece in hand, over 15,000.
  REQUIRE(pos.set("4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1", &st).has_value());
  CHECK(evaluate_black(pos) >= VALUE_KNOWN_WIN);
  CHECK(evaluate_hand_written(pos) == VALUE_KNOWN_WIN - 1);
  // White holds them: clamped from either side's view.
  Position white;
  StateInfo st2, st3;
  REQUIRE(white.set("9/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 1", &st2).has_value());
  CHECK(evaluate_hand_written(white) == VALUE_KNOWN_WIN - 1);
  REQUIRE(white.set("9/9/9/9/9/9/9/9/4K4 b 2r2b4g4s4n4l18p 1", &st3).has_value());
  CHECK(evaluate_hand_written(white) == -VALUE_KNOWN_WIN + 1);
}
