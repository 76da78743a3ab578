#include "search/see.h"

#include "eval/hand_weights.h"

namespace shogi {

using eval::HAND_WEIGHTS;

int piece_value(PieceType pt) { return HAND_WEIGHTS.board[pt]; }
int capture_value(PieceType pt) {
  return pt == KING ? 30000 : HAND_WEIGHTS.board[pt] + HAND_WEIGHTS.hand[raw_type(pt)];
}
int promotion_gain(PieceType raw) { return HAND_WEIGHTS.board[promote(raw)] - HAND_WEIGHTS.board[raw]; }

namespace {

// Attackers tried in order of increasing exchange value; promoted minors are worth a gold.
constexpr PieceType SEE_ORDER[] = {PAWN,       LANCE, KNIGHT, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, SILVER,
                                   PRO_SILVER, GOLD,  BISHOP, ROOK,     HORSE,     DRAGON,     KING};

}  // namespace

bool see_ge(const Position& pos, Move m, int threshold) {
  const Square to = to_sq(m);
  const Color us = pos.side_to_move();
  const bool drop = is_drop(m);
  const Piece captured = drop ? NO_PIECE : pos.piece_on(to);

  int swap = (captured == NO_PIECE ? 0 : capture_value(type_of(captured))) - threshold;
  PieceType moved = type_of(moved_piece_after(m));
  if (is_promotion(m)) swap += promotion_gain(type_of(moved_piece(m)));
  if (swap < 0) return false;

  swap = capture_value(moved) - swap;
  if (swap <= 0) return true;

  Bitboard occupied = pos.pieces();
  if (!drop) occupied ^= square_bb(from_sq(m));
  occupied |= square_bb(to);
  Bitboard attackers = pos.attackers_to(to, occupied) & occupied;
  if (!drop) attackers = attackers.andnot(square_bb(from_sq(m)));

  Color stm = us;
  int res = 1;
  while (true) {
    stm = ~stm;
    attackers &= occupied;
    const Bitboard stm_attackers = attackers & pos.pieces(stm);
    if (stm_attackers.empty()) break;
    res ^= 1;

    PieceType pt = NO_PIECE_TYPE;
    Bitboard bb;
    for (PieceType t : SEE_ORDER) {
      bb = stm_attackers & pos.pieces(t);
      if (!bb.empty()) {
        pt = t;
        break;
      }
    }
    if (pt == KING)
      // The king may capture only if the other side has nothing left to recapture with.
      return (attackers & pos.pieces(~stm)).empty() ? res : res ^ 1;

    if ((swap = capture_value(pt) - swap) < res) break;
    occupied ^= square_bb(bb.lsb());
    // Removing a piece may uncover a slider behind it.
    attackers |= pos.slider_attackers_to(to, occupied) & occupied;
  }
  return bool(res);
}

}  // namespace shogi
