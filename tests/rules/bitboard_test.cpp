#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <vector>

#include "rules/bitboard.h"
#include "rules/movegen.h"
#include "rules/position.h"

using namespace shogi;

TEST_CASE("bitboard basics span both words") {
  Position::init();
  Bitboard b;
  b.set(SQ_11);
  b.set(Square(62));
  b.set(Square(63));
  b.set(SQ_99);
  CHECK(b.count() == 4);
  CHECK(b.test(Square(63)));
  CHECK(b.lsb() == SQ_11);
  std::vector<int> seen;
  b.for_each([&](Square s) { seen.push_back(s); });
  CHECK(seen == std::vector<int>{0, 62, 63, 80});
  CHECK((~ALL_SQUARES_BB).empty());
  CHECK(ALL_SQUARES_BB.count() == 81);
  Bitboard c = b;
  CHECK(c.pop() == SQ_11);
  CHECK(c.count() == 3);
}

TEST_CASE("slider attacks match a slow ray walk on random occupancies") {
  Position::init();
  uint64_t seed = 12345;
  auto next = [&] {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
  };
  auto walk = [](Square s, int df, int dr, const Bitboard& occ) {
    Bitboard r;
    int f = file_of(s) + df, k = rank_of(s) + dr;
    while (f >= 0 && f < 9 && k >= 0 && k < 9) {
      Square t = make_square(File(f), Rank(k));
      r.set(t);
      if (occ.test(t)) break;
      f += df;
      k += dr;
    }
    return r;
  };
  for (int i = 0; i < 2000; ++i) {
    Bitboard occ(next() & next() & 0x7fffffffffffffffULL, next() & next() & 0x3ffffULL);
    Square s = Square(next() % 81);
    Bitboard rook = walk(s, 0, 1, occ) | walk(s, 0, -1, occ) | walk(s, 1, 0, occ) | walk(s, -1, 0, occ);
    Bitboard bishop = walk(s, 1, 1, occ) | walk(s, 1, -1, occ) | walk(s, -1, 1, occ) | walk(s, -1, -1, occ);
    REQUIRE(rook_attacks(s, occ) == rook);
    REQUIRE(bishop_attacks(s, occ) == bishop);
    REQUIRE(lance_attacks(BLACK, s, occ) == walk(s, 0, -1, occ));
    REQUIRE(lance_attacks(WHITE, s, occ) == walk(s, 0, 1, occ));
  }
}

TEST_CASE("step attacks, between and line tables") {
  Position::init();
  Square s55 = make_square(FILE_5, RANK_5);
  CHECK(pawn_attacks(BLACK, s55) == square_bb(make_square(FILE_5, RANK_4)));
  CHECK(pawn_attacks(WHITE, s55) == square_bb(make_square(FILE_5, RANK_6)));
  CHECK(knight_attacks(BLACK, s55).count() == 2);
  CHECK(knight_attacks(BLACK, make_square(FILE_5, RANK_2)).empty());
  CHECK(silver_attacks(BLACK, s55).count() == 5);
  CHECK(gold_attacks(WHITE, s55).count() == 6);
  CHECK(king_attacks(SQ_11).count() == 3);
  CHECK(between_bb(SQ_11, SQ_99).count() == 7);
  CHECK(between_bb(SQ_11, make_square(FILE_2, RANK_3)).empty());  // not aligned
  CHECK(aligned(SQ_11, s55, SQ_99));
  CHECK_FALSE(aligned(SQ_11, s55, make_square(FILE_5, RANK_1)));
  // The mobility masks forbid dead squares.
  CHECK_FALSE(bb::MOVABLE_BB[BLACK][PAWN].test(make_square(FILE_3, RANK_1)));
  CHECK_FALSE(bb::MOVABLE_BB[BLACK][KNIGHT].test(make_square(FILE_3, RANK_2)));
  CHECK(bb::MOVABLE_BB[WHITE][KNIGHT].test(make_square(FILE_3, RANK_2)));
  CHECK_FALSE(bb::MOVABLE_BB[WHITE][LANCE].test(make_square(FILE_3, RANK_9)));
}

TEST_CASE("square distance: king steps, as many as the larger of the file and rank differences") {
  Position::init();
  CHECK(distance(SQ_11, SQ_99) == 8);
  CHECK(distance(make_square(FILE_5, RANK_5), make_square(FILE_4, RANK_7)) == 2);
  int mismatches = 0;
  for (int a = 0; a < SQ_NB; ++a)
    for (int b = 0; b < SQ_NB; ++b) {
      const int df = std::abs(file_of(Square(a)) - file_of(Square(b)));
      const int dr = std::abs(rank_of(Square(a)) - rank_of(Square(b)));
      mismatches += distance(Square(a), Square(b)) != std::max(df, dr);
      mismatches += (distance(Square(a), Square(b)) == 1) != king_attacks(Square(a)).test(Square(b));
    }
  CHECK(mismatches == 0);
}

TEST_CASE("attackers of both colours at once; taking pieces away adds only sliders") {
  Position::init();
  uint64_t seed = 0x853c49e6748fea9bULL;
  auto next = [&seed] {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    return seed;
  };
  int compared = 0, uncovered = 0;
  for (int game = 0; game < 40; ++game) {
    Position pos;
    std::deque<StateInfo> states(1);
    REQUIRE(pos.set(START_SFEN, &states.back()).has_value());
    for (int ply = 0; ply < 150; ++ply) {
      const MoveList<LEGAL> legal(pos);
      if (legal.size() == 0) break;
      // The full occupancy and one with a few random pieces taken off, on every square.
      const Bitboard occ = pos.pieces();
      Bitboard fewer = occ;
      for (int i = 0; i < 4; ++i) {
        const uint64_t lo = next() & 0x7fffffffffffffffULL, hi = next() & 0x3ffffULL;  // in this order
        const Bitboard left = fewer & Bitboard(lo, hi);
        if (!left.empty()) fewer ^= square_bb(left.lsb());
      }
      for (int s = 0; s < SQ_NB; ++s) {
        const Square sq = Square(s);
        for (const Bitboard& o : {occ, fewer}) {
          REQUIRE(pos.attackers_to(sq, o) == (pos.attackers_to(BLACK, sq, o) | pos.attackers_to(WHITE, sq, o)));
          ++compared;
        }
        const Bitboard gained = (pos.attackers_to(sq, fewer) & fewer).andnot(pos.attackers_to(sq, occ));
        REQUIRE(gained.andnot(pos.slider_attackers_to(sq, fewer)).empty());
        uncovered += !gained.empty();
      }
      states.emplace_back();
      pos.do_move(legal.begin()[next() % legal.size()].move, states.back());
    }
  }
  CHECK(compared > 100000);
  CHECK(uncovered > 100);  // sliders were uncovered, so the second check tested something
}
