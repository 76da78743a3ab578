#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <vector>

#include "rules/movegen.h"
#include "rules/notation.h"
#include "test_util.h"

using namespace shogi;
using shogi::test::Board;
using shogi::test::Rng;

namespace {

std::vector<std::string> start_positions() {
  std::vector<std::string> out = {std::string(START_SFEN),
                                  "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
                                  "8k/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1"};
  std::ifstream in(std::string(SHOGI_ARENA_SHARED_DIR) + "/positions/perft.tsv");
  if (!in) MESSAGE("../shared/positions/perft.tsv not found: random playouts start from built-in positions only");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::string sfen = line.substr(0, line.find('\t'));
    Position p;
    StateInfo si;
    if (p.set(sfen, &si) && std::find(out.begin(), out.end(), sfen) == out.end()) out.push_back(sfen);
  }
  return out;
}

// Every property that must hold in any position, checked move by move.
void check_position_invariants(Position& pos, Rng& rng) {
  REQUIRE_MESSAGE(pos.validate() == "", pos.sfen());
  MoveList<LEGAL> legal(pos);
  std::string before = pos.sfen();
  Key key = pos.key();

  // SFEN round trip.
  Position copy;
  StateInfo copy_si;
  REQUIRE(copy.set(before, &copy_si));
  REQUIRE(copy.sfen() == before);
  REQUIRE(copy.key() == key);

  for (const ExtMove& em : legal) {
    Move m = em.move;
    INFO(pos.sfen(), " ", to_usi(m));
    REQUIRE(pos.pseudo_legal(m));
    REQUIRE(pos.legal(m));
    REQUIRE(pos.to_move(to_move16(m)) == m);
    REQUIRE(illegal_reason(pos, m) == "");
    REQUIRE(parse_usi_move(pos, to_usi(m)).value() == m);
    REQUIRE(parse_csa_move(pos, to_csa(m)).value() == m);
    bool check = pos.gives_check(m);
    Key predicted = pos.key_after(m);
    StateInfo st;
    pos.do_move(m, st);
    REQUIRE(pos.in_check() == check);
    REQUIRE(pos.key() == predicted);
    pos.undo_move(m);
    REQUIRE(pos.key() == key);
  }
  REQUIRE(pos.sfen() == before);

  // LEGAL_CHECKS is exactly the legal moves that give check, in check or not.
  {
    MoveList<LEGAL_CHECKS> checks(pos);
    size_t expected = 0;
    for (const ExtMove& m : legal) expected += pos.gives_check(m.move);
    INFO(pos.sfen());
    REQUIRE(checks.size() == expected);
    for (const ExtMove& m : checks) REQUIRE((legal.contains(m.move) && pos.gives_check(m.move)));
  }

  // Generators partition the moves, and LEGAL is exactly the legal subset of every pseudo-legal move.
  if (!pos.in_check()) {
    MoveList<CAPTURES> caps(pos);
    MoveList<QUIETS> quiets(pos);
    MoveList<NON_EVASIONS> all(pos);
    REQUIRE(caps.size() + quiets.size() == all.size());
    for (const ExtMove& m : caps) REQUIRE(all.contains(m.move));
    for (const ExtMove& m : quiets) REQUIRE(all.contains(m.move));
    for (const ExtMove& m : all)
      if (pos.legal(m.move)) REQUIRE(legal.contains(m.move));
    // QUIET_CHECKS is QUIETS filtered by gives_check, in the same order: the search's move order depends on it.
    std::vector<Move> checks;
    for (const ExtMove& m : quiets)
      if (pos.gives_check(m.move)) checks.push_back(m.move);
    const MoveList<QUIET_CHECKS> quiet_checks(pos);
    REQUIRE(std::vector<Move>(quiet_checks.begin(), quiet_checks.end()) == checks);
  } else {
    for (const ExtMove& m : MoveList<EVASIONS>(pos))
      if (pos.legal(m.move)) REQUIRE(legal.contains(m.move));
  }

  // Random 16-bit moves: accepted exactly when they are legal.
  for (int i = 0; i < 200; ++i) {
    Move16 raw = Move16(rng.next() & 0xffff);
    Move m = pos.to_move(raw);
    if (m == MOVE_NONE || !is_ok(m)) continue;
    bool accepted = to_sq(m) < SQ_NB && pos.pseudo_legal(m) && pos.legal(m);
    INFO(pos.sfen(), " raw move ", int(raw));
    REQUIRE(accepted == legal.contains(m));
  }
}

}  // namespace

TEST_CASE("random playouts keep every position invariant") {
  Position::init();
  Rng rng(2026);
  int positions = 0;
  for (const std::string& sfen : start_positions()) {
    for (int game = 0; game < 6; ++game) {
      Board b(sfen);
      for (int ply = 0; ply < 160; ++ply) {
        check_position_invariants(b.pos, rng);
        ++positions;
        MoveList<LEGAL> legal(b.pos);
        if (legal.size() == 0) break;
        // Prefer captures now and then so hands fill up and drops get exercised.
        Move m = legal.begin()[rng.below(legal.size())].move;
        for (const ExtMove& em : legal)
          if (b.pos.is_capture(em.move) && rng.below(3) == 0) m = em.move;
        b.states.emplace_back();
        b.pos.do_move(m, b.states.back());
      }
    }
  }
  MESSAGE("checked ", positions, " positions");
  CHECK(positions > 1000);
}

TEST_CASE("do and undo restore hands, captures and promotions") {
  Board b;
  b.play("7g7f");
  b.play("3c3d");
  b.play("8h2b+");
  CHECK(b.pos.piece_on(make_square(FILE_2, RANK_2)) == B_HORSE);
  CHECK(hand_count(b.pos.hand(BLACK), BISHOP) == 1);
  CHECK(b.pos.captured_piece() == W_BISHOP);
  b.play("3a2b");
  CHECK(hand_count(b.pos.hand(WHITE), BISHOP) == 1);  // a captured horse goes to hand as a bishop
  b.play("B*4e");
  CHECK(hand_count(b.pos.hand(BLACK), BISHOP) == 0);
  CHECK(b.pos.validate() == "");
  CHECK(b.pos.game_ply() == 6);
}

TEST_CASE("null move flips the side and keys, and undoes cleanly") {
  Board b;
  Key k = b.pos.key();
  StateInfo st;
  b.pos.do_null_move(st);
  CHECK(b.pos.side_to_move() == WHITE);
  CHECK(b.pos.key() == (k ^ zobrist::SIDE));
  b.pos.undo_null_move();
  CHECK(b.pos.key() == k);
}

TEST_CASE("copy_from copies the position but not its history") {
  Board b;
  b.play("2h3h");
  Position copy;
  StateInfo si;
  copy.copy_from(b.pos, &si);
  CHECK(copy.sfen() == b.pos.sfen());
  CHECK(copy.key() == b.pos.key());
  CHECK(copy.state()->previous == nullptr);
}
