#include <doctest/doctest.h>

#include "test_util.h"

using namespace shogi;
using shogi::test::Board;
using shogi::test::has_legal;
using shogi::test::legal_usi;

TEST_CASE("start position has 30 moves") { CHECK(legal_usi(Board().pos).size() == 30); }

TEST_CASE("pawn-drop mate is illegal, a pawn-drop check that is not mate is legal") {
  // King on 1a: the drop on 1b is defended by the gold on 2c, 2a is covered by the knight, 2b by the gold.
  Board mate("8k/9/6NG1/9/9/9/9/9/4K4 b P 1");
  CHECK_FALSE(has_legal(mate.pos, "P*1b"));
  CHECK(mate.pos.is_pawn_drop_mate(make_square(FILE_1, RANK_2)));
  CHECK(illegal_reason(mate.pos, make_drop(B_PAWN, make_square(FILE_1, RANK_2))).find("uchifuzume") !=
        std::string::npos);
  // Without the knight the king escapes to 2a, so the same drop is a legal check.
  Board check("8k/9/7G1/9/9/9/9/9/4K4 b P 1");
  CHECK(has_legal(check.pos, "P*1b"));
  // A pawn drop that checks a king with a free escape square is legal anywhere else too.
  CHECK(has_legal(check.pos, "P*5e"));
}

TEST_CASE("pawn-drop mate: a pinned defender cannot save the king") {
  // The gold on 2a could take on 1b but is pinned by the rook on 5a.
  Board pinned("4R2gk/9/7G1/9/9/9/9/9/4K4 b P 1");
  CHECK_FALSE(has_legal(pinned.pos, "P*1b"));
  // Without the rook the gold takes the pawn: no mate, the drop is legal.
  Board free("7gk/9/7G1/9/9/9/9/9/4K4 b P 1");
  CHECK(has_legal(free.pos, "P*1b"));
}

TEST_CASE("pawn-drop mate: the dropped pawn itself can unpin a defender") {
  // Before the drop the gold on 5c is pinned by the lance on 5i; the pawn on 5b blocks that line, so the gold may
  // capture it and the drop is not mate.
  Board b("3pkp3/9/3GgG3/9/9/9/9/9/K3L4 b P 1");
  CHECK(has_legal(b.pos, "P*5b"));
  CHECK_FALSE(b.pos.is_pawn_drop_mate(make_square(FILE_5, RANK_2)));
}

TEST_CASE("drop restrictions: nifu, last ranks, knights") {
  Board b("4k4/9/9/9/9/9/4P4/9/4K4 b PLN 1");
  CHECK_FALSE(has_legal(b.pos, "P*5e"));  // nifu
  CHECK(has_legal(b.pos, "P*4e"));
  CHECK_FALSE(has_legal(b.pos, "P*4a"));  // a pawn on the last rank could never move
  CHECK_FALSE(has_legal(b.pos, "L*4a"));
  CHECK(has_legal(b.pos, "L*4b"));
  CHECK_FALSE(has_legal(b.pos, "N*4b"));
  CHECK(has_legal(b.pos, "N*4c"));
  Board w("4k4/9/9/9/9/9/9/9/4K4 w pln 1");
  CHECK_FALSE(has_legal(w.pos, "P*4i"));
  CHECK_FALSE(has_legal(w.pos, "N*4h"));
  CHECK(has_legal(w.pos, "N*4g"));
}

TEST_CASE("promotion: optional, forced, and never for gold or king") {
  Board b("4k4/9/9/P1L1N1S2/9/9/9/9/4K4 b - 1");
  // Pawn to rank 3: both, as every legal move counts.
  CHECK(has_legal(b.pos, "9d9c+"));
  CHECK(has_legal(b.pos, "9d9c"));
  // Lance to rank 1 must promote, to rank 2 and 3 may not.
  CHECK(has_legal(b.pos, "7d7a+"));
  CHECK_FALSE(has_legal(b.pos, "7d7a"));
  CHECK(has_legal(b.pos, "7d7b"));
  // Knight to rank 2 must promote.
  CHECK(has_legal(b.pos, "5d4b+"));
  CHECK_FALSE(has_legal(b.pos, "5d4b"));
  // Silver entering the zone may promote or not.
  CHECK(has_legal(b.pos, "3d3c+"));
  CHECK(has_legal(b.pos, "3d3c"));
  // Search generators skip the pawn non-promotion that is never better.
  CHECK_FALSE(MoveList<NON_EVASIONS>(b.pos).contains(*parse_usi_move(b.pos, "9d9c")));
  CHECK(MoveList<NON_EVASIONS_ALL>(b.pos).contains(*parse_usi_move(b.pos, "9d9c")));
}

namespace {
// Where the search generators put each move of a position: the capture stage, the quiet stage, or nowhere.
struct SearchStages {
  explicit SearchStages(std::string sfen) : b(std::move(sfen)), caps(b.pos), quiets(b.pos) {}
  bool capture(std::string_view usi) const { return caps.contains(move(usi)) && !quiets.contains(move(usi)); }
  bool quiet(std::string_view usi) const { return quiets.contains(move(usi)) && !caps.contains(move(usi)); }
  bool absent(std::string_view usi) const { return !caps.contains(move(usi)) && !quiets.contains(move(usi)); }
  Move move(std::string_view usi) const { return *parse_usi_move(b.pos, usi); }
  Board b;
  MoveList<CAPTURES> caps;
  MoveList<QUIETS> quiets;
};
}  // namespace

TEST_CASE("search generators keep a dominated non-promotion exactly when it gives check") {
  // Bishop: the non-promotion on 3c checks 5a, the one on 2b does not.
  const SearchStages bishop("4k4/9/9/9/9/9/9/9/B3K4 b - 1");
  CHECK(bishop.quiet("9i3c"));
  CHECK(bishop.quiet("9i3c+"));
  CHECK(bishop.absent("9i2b"));
  CHECK(bishop.quiet("9i2b+"));
  CHECK(MoveList<QUIET_CHECKS>(bishop.b.pos).contains(bishop.move("9i3c")));
  // Pawn: a quiet checking non-promotion is a quiet move, its promotion a capture-stage move; capturing, both are.
  const SearchStages pawn("9/5k3/9/5P3/9/9/9/9/4K4 b - 1");
  CHECK(pawn.capture("4d4c+"));
  CHECK(pawn.quiet("4d4c"));
  const SearchStages pawn_takes("9/5k3/5g3/5P3/9/9/9/9/4K4 b - 1");
  CHECK(pawn_takes.capture("4d4c+"));
  CHECK(pawn_takes.capture("4d4c"));
  // Lance capturing on the second rank, checking the king behind the captured piece; the third rank is always kept.
  const SearchStages lance("8k/8g/9/9/8L/9/9/9/4K4 b - 1");
  CHECK(lance.capture("1e1b"));
  CHECK(lance.capture("1e1b+"));
  CHECK(lance.quiet("1e1c"));
  // A discovered check counts: the bishop uncovers the lance on 5i.
  const SearchStages discovered("4k4/9/9/4B4/9/9/9/9/K3L4 b - 1");
  CHECK(discovered.quiet("5d4c"));
  CHECK(discovered.quiet("5d6c"));
  // A rook capturing into the zone with check: the first move of a mate in 5 that needs the non-promotion.
  const SearchStages rook("5g3/5k1+pG/6g2/7R1/7+B1/4L4/9/9/K8 b - 1");
  CHECK(rook.capture("2d2b"));
  CHECK(rook.capture("2d2b+"));
}

TEST_CASE("a piece leaving the zone may promote") {
  Board b("4k4/9/2S6/9/9/9/9/9/4K4 b - 1");
  CHECK(has_legal(b.pos, "7c6d+"));
  CHECK(has_legal(b.pos, "7c6d"));
}

TEST_CASE("pinned pieces move only along the pin line; the king never walks into check") {
  // The white rook on 5a pins the black gold on 5e to the king on 5i.
  Board b("4r3k/9/9/9/4G4/9/9/9/4K4 b - 1");
  CHECK(has_legal(b.pos, "5e5d"));
  CHECK_FALSE(has_legal(b.pos, "5e4e"));
  CHECK_FALSE(has_legal(b.pos, "5e4d"));
  Board k("3r4k/9/9/9/9/9/9/9/4K4 b - 1");
  CHECK_FALSE(has_legal(k.pos, "5i6i"));
  CHECK(has_legal(k.pos, "5i4i"));
}

TEST_CASE("evasions: capture, interpose, king moves; double check allows only the king") {
  // Rook on 5a checks the king on 5i; black may interpose by drop or move, or step aside.
  Board b("4r3k/9/9/9/9/9/9/3G5/4K4 b G 1");
  REQUIRE(b.pos.in_check());
  auto moves = legal_usi(b.pos);
  CHECK(has_legal(b.pos, "G*5e"));
  CHECK(has_legal(b.pos, "6h5h"));
  CHECK(has_legal(b.pos, "5i4i"));
  CHECK_FALSE(has_legal(b.pos, "G*4e"));
  CHECK_FALSE(has_legal(b.pos, "6h6g"));
  // Double check from a rook and a bishop: only king moves.
  Board d("4r3k/9/9/9/b8/9/9/9/4K4 b G 1");
  REQUIRE(d.pos.checkers().count() == 2);
  for (const std::string& m : legal_usi(d.pos)) CHECK(m.substr(0, 2) == "5i");
}

TEST_CASE("positions without a king for one side (tsume) generate moves") {
  Board b("8k/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L17P 1");
  CHECK(legal_usi(b.pos).size() > 0);
  Board w("8k/9/9/9/9/9/9/9/9 w 2r2b4g4s4n4l17p 1");
  CHECK(legal_usi(w.pos).size() > 0);
}

namespace {

// Compares has_legal_move with the full generation at every node of a tree `depth` plies deep.
long check_has_legal_move(Position& pos, int depth) {
  long nodes = 1;
  const bool any = MoveList<LEGAL>(pos).size() != 0;
  CHECK_MESSAGE(has_legal_move(pos) == any, pos.sfen());
  if (depth == 0) return nodes;
  StateInfo st;
  for (const ExtMove& m : MoveList<LEGAL>(pos)) {
    pos.do_move(m.move, st);
    nodes += check_has_legal_move(pos, depth - 1);
    pos.undo_move(m.move);
  }
  return nodes;
}

}  // namespace

TEST_CASE("has_legal_move agrees with the full generation") {
  // Checkmates (in check, no move) and a king that is not in check but has nowhere to go and nothing to move.
  CHECK_FALSE(has_legal_move(Board("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1").pos));
  Board boxed("3lkl3/9/9/9/9/9/9/8r/4K4 b - 1");
  REQUIRE_FALSE(boxed.pos.in_check());
  CHECK_FALSE(has_legal_move(boxed.pos));
  CHECK(has_legal_move(Board("3lkl3/9/9/9/9/9/9/8r/4K4 b S 1").pos));  // the silver drop saves it
  CHECK(has_legal_move(Board("3lkl3/9/9/9/9/9/9/8r/4K4 b P 1").pos));  // so does a pawn
  CHECK(has_legal_move(Board("3lkl3/9/9/9/9/9/9/8r/4K4 b L 1").pos));
  // Trees: the start position, "matsuri" (drops, pins and checks everywhere) and positions near mate.
  const std::string_view trees[] = {
      START_SFEN,
      "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
      "8k/9/7G1/9/9/9/9/9/K8 b GR 1",
      "3lkl3/9/9/9/9/9/9/8r/4K4 b P 1",
  };
  for (std::string_view sfen : trees) {
    Board b(sfen);
    CHECK(check_has_legal_move(b.pos, 2) > 1);
  }
  Board exchanged;  // bishops traded: drops that check, and kings still boxed in by their own pieces
  for (const char* m : {"7g7f", "3c3d", "8h2b+", "3a2b"}) exchanged.play(m);
  CHECK(check_has_legal_move(exchanged.pos, 2) > 1);
}

namespace {

// Whether the generators restricted to `squares` give exactly the unrestricted generators' moves landing there, in
// the same order; counts the positions compared. The quiet checks are compared with the quiet moves that give check
// (what QUIET_CHECKS means), not with QUIET_CHECKS itself, which is generate_quiet_checks_onto on every square.
int check_onto(Position& pos, int depth, uint64_t& seed) {
  auto same = [&](const Bitboard& squares) {
    auto filtered = [&](const auto& list, bool checks_only = false) {
      std::vector<Move> out;
      for (const ExtMove& m : list)
        if (squares.test(to_sq(m.move)) && (!checks_only || pos.gives_check(m.move))) out.push_back(m.move);
      return out;
    };
    auto onto = [](ExtMove* begin, ExtMove* end) {
      std::vector<Move> out;
      for (ExtMove* m = begin; m != end; ++m) out.push_back(m->move);
      return out;
    };
    ExtMove moves[MAX_MOVES];
    CHECK_MESSAGE(onto(moves, generate_quiet_checks_onto(pos, moves, squares)) ==
                      filtered(MoveList<QUIETS>(pos), true), pos.sfen());
    CHECK_MESSAGE(onto(moves, generate_captures_onto(pos, moves, squares)) == filtered(MoveList<CAPTURES>(pos)),
                  pos.sfen());
  };
  int compared = 0;
  if (!pos.in_check()) {
    const Color them = ~pos.side_to_move();
    if (pos.has_king(them)) same(king_attacks(pos.king_square(them)) | pos.check_squares(KNIGHT));
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    same(Bitboard(seed & 0x7fffffffffffffffULL, (seed >> 20) & 0x3ffffULL));
    same(ALL_SQUARES_BB);
    ++compared;
  }
  if (depth == 0) return compared;
  for (const ExtMove& m : MoveList<LEGAL>(pos)) {
    StateInfo st;
    pos.do_move(m.move, st);
    compared += check_onto(pos, depth - 1, seed);
    pos.undo_move(m.move);
  }
  return compared;
}

}  // namespace

TEST_CASE("quiet checks and captures onto some squares: the full generation's moves there, in its order") {
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  for (std::string_view sfen : {START_SFEN,
                                std::string_view("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"),
                                std::string_view("8k/9/7G1/9/9/9/9/9/K8 b GR 1")}) {
    Board b(sfen);
    CHECK(check_onto(b.pos, 1, seed) > 1);
  }
}
