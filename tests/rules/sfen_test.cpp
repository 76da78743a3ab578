#include <doctest/doctest.h>

#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/sfen.h"

using namespace shogi;

namespace {

std::string error_of(std::string_view sfen) {
  Position::init();
  Position pos;
  StateInfo si;
  auto r = pos.set(sfen, &si);
  return r ? std::string() : r.error();
}

}  // namespace

TEST_CASE("SFEN round trip keeps every field") {
  Position::init();
  for (std::string_view sfen : {
           START_SFEN,
           std::string_view("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"),
           std::string_view("8k/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 7"),  // tsume: black has no king
           std::string_view("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 124"),
       }) {
    Position pos;
    StateInfo si;
    REQUIRE(pos.set(sfen, &si));
    CHECK(pos.sfen() == sfen);
    CHECK(pos.validate() == "");
  }
}

TEST_CASE("SFEN accepts startpos, a 'sfen' prefix and a missing move number") {
  Position::init();
  Position pos;
  StateInfo si;
  REQUIRE(pos.set("startpos", &si));
  CHECK(pos.sfen() == START_SFEN);
  REQUIRE(pos.set("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -", &si));
  CHECK(pos.game_ply() == 1);
  CHECK(pos.hand(BLACK) == HAND_ZERO);
}

TEST_CASE("every malformed SFEN names the bad field") {
  CHECK(error_of("").find("expected 3 or 4 fields") != std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b -").find("9 ranks") != std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/pppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").find("rank 3") != std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/pppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").find("more than 9") !=
        std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppxpppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").find("unknown piece letter 'x'") !=
        std::string::npos);
  CHECK(error_of("lnsg+kgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -").find("cannot be promoted") !=
        std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL+ b -").find("'+' must be followed") !=
        std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x -").find("side to move") !=
        std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0").find("move number") !=
        std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - x").find("move number") !=
        std::string::npos);
  // Too many pieces of a kind, counting the board and both hands.
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P").find("too many pawns") !=
        std::string::npos);
  CHECK(error_of("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b r").find("too many rooks") !=
        std::string::npos);
  CHECK(error_of("4k4/9/9/9/9/9/9/9/3KK4 b -").find("more than one black king") != std::string::npos);
  // Pieces that could never move.
  CHECK(error_of("P3k4/9/9/9/9/9/9/9/4K4 b -").find("black pawn on 9a can never move") != std::string::npos);
  CHECK(error_of("4k4/9/9/9/9/9/9/9/l3K4 b -").find("white lance on 9i can never move") != std::string::npos);
  CHECK(error_of("4k4/N8/9/9/9/9/9/9/4K4 b -").find("black knight on 9b can never move") != std::string::npos);
  // Two unpromoted pawns of one side on a file; a promoted pawn does not count.
  CHECK(error_of("4k4/9/4P4/4P4/9/9/9/9/4K4 b -").find("nifu") != std::string::npos);
  CHECK(error_of("4k4/9/4+P4/4P4/9/9/9/9/4K4 b -") == "");
  // Hands.
  CHECK(error_of("4k4/9/9/9/9/9/9/9/4K4 b 2P2P").find("appears twice") != std::string::npos);
  CHECK(error_of("4k4/9/9/9/9/9/9/9/4K4 b 0P").find("bad count") != std::string::npos);
  CHECK(error_of("4k4/9/9/9/9/9/9/9/4K4 b 2").find("followed by a piece letter") != std::string::npos);
  CHECK(error_of("4k4/9/9/9/9/9/9/9/4K4 b K").find("not a piece that can be held in hand") != std::string::npos);
  CHECK(error_of("4k4/9/9/9/9/9/9/9/4K4 b 19P").find("more than exist") != std::string::npos);
  CHECK(error_of("4k4/9/9/9/9/9/9/9/4K4 b +P").find("not a piece that can be held in hand") != std::string::npos);
  // The side that is not to move must not be in check.
  CHECK(error_of("4k4/4R4/9/9/9/9/9/9/4K4 b -").find("not to move (white) is in check") != std::string::npos);
}

TEST_CASE("a failed set leaves the position unchanged") {
  Position::init();
  Position pos;
  StateInfo si;
  REQUIRE(pos.set(START_SFEN, &si));
  StateInfo si2;
  CHECK_FALSE(pos.set("garbage", &si2));
  CHECK(pos.sfen() == START_SFEN);
}

TEST_CASE("relaxed piece limits admit composed positions but still bound hands") {
  Position::init();
  Position pos;
  StateInfo si;
  std::string_view extra = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1";
  CHECK_FALSE(pos.set(extra, &si));
  CHECK(pos.set(extra, &si, PieceLimits::Relaxed));
  CHECK(pos.sfen() == extra);
  CHECK_FALSE(pos.set("4k4/9/9/9/9/9/9/9/4K4 b 4B", &si, PieceLimits::Relaxed));
}

TEST_CASE("relaxed limits bound the total of a kind, so a capture cannot overflow a hand field") {
  // Found by fuzz_sfen: seven knights in white's hand and one on the board; capturing it made eight, which does
  // not fit the 3-bit field and corrupted the hand (and its Zobrist key).
  Position::init();
  Position pos;
  StateInfo si;
  auto r = pos.set("l6nl/5+Pg1k/2np1S3/p1p4Pp/3+P2Sp1/3PbPP1P/PS5G1/R8/LNbK4L w GSg7n5p 1", &si, PieceLimits::Relaxed);
  REQUIRE_FALSE(r);
  CHECK(r.error().find("too many knights") != std::string::npos);
  // Seven in all is fine, and every capture keeps the position consistent.
  REQUIRE(pos.set("1r2k4/9/9/9/9/9/9/9/1N2K4 w 6n 1", &si, PieceLimits::Relaxed));
  MoveList<LEGAL> moves(pos);
  int captures = 0;
  for (const ExtMove& m : moves) {
    StateInfo st;
    captures += pos.piece_on(to_sq(m.move)) != NO_PIECE;
    pos.do_move(m.move, st);
    CHECK(pos.validate().empty());
    pos.undo_move(m.move);
  }
  CHECK(captures == 2);  // 8i is in white's promotion zone: with and without promotion
}

TEST_CASE("flipped SFEN swaps colours and rotates the board") {
  Position::init();
  Position pos;
  StateInfo si;
  REQUIRE(pos.set("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", &si));
  std::string flipped = pos.flipped_sfen();
  Position back;
  StateInfo si2;
  REQUIRE(back.set(flipped, &si2));
  CHECK(back.flipped_sfen() == pos.sfen());
  CHECK(back.side_to_move() == BLACK);
}
