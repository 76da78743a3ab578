#include "bitboard.h"

#include <mutex>
#include <vector>

namespace shogi {
namespace bb {

Bitboard FILE_BB[FILE_NB];
Bitboard RANK_BB[RANK_NB];
Bitboard PROMOTION_ZONE_BB[COLOR_NB];
Bitboard MOVABLE_BB[COLOR_NB][PIECE_TYPE_NB];
Bitboard STEP_ATTACKS[PIECE_NB][SQ_NB];
Bitboard BETWEEN_BB[SQ_NB][SQ_NB];
Bitboard LINE_BB[SQ_NB][SQ_NB];
Bitboard FORWARD_FILE_BB[COLOR_NB][SQ_NB];
Bitboard ROOK_RAYS[SQ_NB];
Bitboard BISHOP_RAYS[SQ_NB];
SliderLine SLIDER[4][SQ_NB];

namespace {

// Direction steps as (file delta, rank delta); rank delta -1 is "forward" for black.
struct Step {
  int df, dr;
};

constexpr Step LINE_DIRS[4][2] = {
    {{0, -1}, {0, 1}},   // file
    {{-1, 0}, {1, 0}},   // rank
    {{1, 1}, {-1, -1}},  // diagonal
    {{1, -1}, {-1, 1}},  // anti-diagonal
};

bool on_board(int f, int r) { return f >= 0 && f < 9 && r >= 0 && r < 9; }

Bitboard step_set(Square s, std::initializer_list<Step> steps, Color c) {
  Bitboard b;
  int sign = c == BLACK ? 1 : -1;  // white's forward is black's backward
  for (Step st : steps) {
    int f = file_of(s) + st.df * sign, r = rank_of(s) + st.dr * sign;
    if (on_board(f, r)) b.set(make_square(File(f), Rank(r)));
  }
  return b;
}

Bitboard ray(Square s, Step d, const Bitboard& occ) {
  Bitboard b;
  int f = file_of(s) + d.df, r = rank_of(s) + d.dr;
  while (on_board(f, r)) {
    Square t = make_square(File(f), Rank(r));
    b.set(t);
    if (occ.test(t)) break;
    f += d.df;
    r += d.dr;
  }
  return b;
}

// Deposits the low bits of `index` into the set squares of `mask` (the inverse of pext over two words).
Bitboard deposit(uint64_t index, const Bitboard& mask) {
  Bitboard r;
  Bitboard m = mask;
  for (int i = 0; !m.empty(); ++i) {
    Square s = m.pop();
    if ((index >> i) & 1) r.set(s);
  }
  return r;
}

std::vector<Bitboard> slider_storage;

void init_tables() {
  for (int f = 0; f < 9; ++f)
    for (int r = 0; r < 9; ++r) {
      Square s = make_square(File(f), Rank(r));
      FILE_BB[f].set(s);
      RANK_BB[r].set(s);
    }
  PROMOTION_ZONE_BB[BLACK] = RANK_BB[RANK_1] | RANK_BB[RANK_2] | RANK_BB[RANK_3];
  PROMOTION_ZONE_BB[WHITE] = RANK_BB[RANK_7] | RANK_BB[RANK_8] | RANK_BB[RANK_9];

  for (Color c : {BLACK, WHITE}) {
    Rank last = c == BLACK ? RANK_1 : RANK_9;
    Rank second = c == BLACK ? RANK_2 : RANK_8;
    for (int pt = 0; pt < PIECE_TYPE_NB; ++pt) MOVABLE_BB[c][pt] = ALL_SQUARES_BB;
    MOVABLE_BB[c][PAWN] = MOVABLE_BB[c][LANCE] = ALL_SQUARES_BB.andnot(RANK_BB[last]);
    MOVABLE_BB[c][KNIGHT] = ALL_SQUARES_BB.andnot(RANK_BB[last] | RANK_BB[second]);
  }

  for (int s = 0; s < SQ_NB; ++s) {
    Square sq = Square(s);
    for (Color c : {BLACK, WHITE}) {
      STEP_ATTACKS[make_piece(c, PAWN)][s] = step_set(sq, {{0, -1}}, c);
      STEP_ATTACKS[make_piece(c, KNIGHT)][s] = step_set(sq, {{-1, -2}, {1, -2}}, c);
      STEP_ATTACKS[make_piece(c, SILVER)][s] = step_set(sq, {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}}, c);
      Bitboard gold = step_set(sq, {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}}, c);
      for (PieceType pt : {GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER})
        STEP_ATTACKS[make_piece(c, pt)][s] = gold;
      Bitboard king = step_set(sq, {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}, c);
      STEP_ATTACKS[make_piece(c, KING)][s] = king;
      STEP_ATTACKS[make_piece(c, HORSE)][s] = king;
      STEP_ATTACKS[make_piece(c, DRAGON)][s] = king;
      FORWARD_FILE_BB[c][s] = ray(sq, {0, c == BLACK ? -1 : 1}, Bitboard());
    }
  }

  // Slider tables: for each square and line, every subset of the inner occupancy.
  slider_storage.assign(size_t(4) * SQ_NB * 128, Bitboard());
  for (int line = 0; line < 4; ++line)
    for (int s = 0; s < SQ_NB; ++s) {
      Square sq = Square(s);
      // Edge squares never block anything beyond them, so they take no part in the index: each ray without
      // its last square.
      Bitboard inner;
      for (int d = 0; d < 2; ++d) {
        Step st = LINE_DIRS[line][d];
        int f = file_of(sq) + st.df, r = rank_of(sq) + st.dr;
        while (on_board(f + st.df, r + st.dr)) {
          inner.set(make_square(File(f), Rank(r)));
          f += st.df;
          r += st.dr;
        }
      }
      SliderLine& l = SLIDER[line][s];
      l.mask = inner;
      l.lo_bits = std::popcount(inner.p[0]);
      Bitboard* table = &slider_storage[(size_t(line) * SQ_NB + s) * 128];
      l.attacks = table;
      int bits = inner.count();
      for (uint64_t index = 0; index < (uint64_t(1) << bits); ++index) {
        Bitboard occ = deposit(index, inner);
        table[index] = ray(sq, LINE_DIRS[line][0], occ) | ray(sq, LINE_DIRS[line][1], occ);
      }
    }

  for (int s = 0; s < SQ_NB; ++s) {
    ROOK_RAYS[s] = rook_attacks(Square(s), Bitboard());
    BISHOP_RAYS[s] = bishop_attacks(Square(s), Bitboard());
  }

  for (int a = 0; a < SQ_NB; ++a)
    for (int b = 0; b < SQ_NB; ++b) {
      if (a == b) continue;
      for (int line = 0; line < 4; ++line)
        for (int d = 0; d < 2; ++d) {
          Bitboard r = ray(Square(a), LINE_DIRS[line][d], Bitboard());
          if (!r.test(Square(b))) continue;
          LINE_BB[a][b] =
              (ray(Square(a), LINE_DIRS[line][0], Bitboard()) | ray(Square(a), LINE_DIRS[line][1], Bitboard())) |
              Square(a);
          BETWEEN_BB[a][b] = ray(Square(a), LINE_DIRS[line][d], square_bb(Square(b))).andnot(square_bb(Square(b)));
        }
    }
}

}  // namespace

void init() {
  static std::once_flag once;
  std::call_once(once, init_tables);
}

}  // namespace bb

Bitboard attacks_from(Piece pc, Square s, const Bitboard& occ) {
  switch (type_of(pc)) {
    case LANCE:
      return lance_attacks(color_of(pc), s, occ);
    case BISHOP:
      return bishop_attacks(s, occ);
    case ROOK:
      return rook_attacks(s, occ);
    case HORSE:
      return horse_attacks(s, occ);
    case DRAGON:
      return dragon_attacks(s, occ);
    case NO_PIECE_TYPE:
      return Bitboard();
    default:
      return bb::STEP_ATTACKS[pc][s];
  }
}

}  // namespace shogi
