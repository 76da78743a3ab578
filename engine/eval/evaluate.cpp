#include "eval/evaluate.h"

#include <algorithm>

#include "eval/hand_weights.h"

namespace shogi {

namespace eval {
const Weights WEIGHTS{};
}

namespace {

using eval::WEIGHTS;

int hand_score(Hand h) {
  int s = 0;
  for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt) s += hand_count(h, PieceType(pt)) * WEIGHTS.hand[pt];
  return s;
}

// Danger to the king of colour c from the attack maps; 0 when c has no king (tsume problems).
int king_danger_penalty(const Position& pos, Color c, const Bitboard att[2], const Bitboard att2[2]) {
  if (!pos.has_king(c)) return 0;
  const Square ksq = pos.king_square(c);
  const Bitboard zone = king_attacks(ksq);
  const Color them = ~c;
  int danger = WEIGHTS.danger_base;
  danger += WEIGHTS.zone_attack * (att[them] & zone).count();
  danger += WEIGHTS.zone_double_attack * (att2[them] & zone).count();
  danger -= WEIGHTS.zone_defence * (att[c] & zone).count();
  const int escapes = (zone.andnot(pos.pieces(c)).andnot(att[them])).count();
  danger += WEIGHTS.no_escape * std::max(0, 3 - escapes);
  const Hand h = pos.hand(them);
  for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt)
    danger += WEIGHTS.enemy_hand[pt] * hand_count(h, PieceType(pt));
  if (danger <= 0) return 0;
  return std::min(WEIGHTS.danger_cap, danger * danger / WEIGHTS.danger_divisor);
}

}  // namespace

Value evaluate_black(const Position& pos) {
  int score = hand_score(pos.hand(BLACK)) - hand_score(pos.hand(WHITE));
  const Bitboard occ = pos.pieces();
  // The pawns' attacks for all pawns of a side at once: no two of them attack the same square, so none of these
  // squares is attacked twice yet.
  Bitboard att[COLOR_NB] = {pawn_push(BLACK, pos.pieces(BLACK, PAWN)), pawn_push(WHITE, pos.pieces(WHITE, PAWN))};
  Bitboard att2[COLOR_NB];
  const Square ksq[COLOR_NB] = {pos.king_square(BLACK), pos.king_square(WHITE)};

  occ.for_each([&](Square s) {
    const Piece pc = pos.piece_on(s);
    const PieceType pt = type_of(pc);
    const Color c = color_of(pc);
    // Kings are excluded from the attack maps: a king does not defend its own zone in the danger count.
    if (pt == KING) return;
    int v = WEIGHTS.board[pt];
    if (ksq[c] != SQ_NONE) v += WEIGHTS.own_king[pt][distance(s, ksq[c])];
    if (ksq[~c] != SQ_NONE) v += WEIGHTS.enemy_king[pt][distance(s, ksq[~c])];
    if (pt == PAWN) {
      if (WEIGHTS.mobility[PAWN]) v += WEIGHTS.mobility[PAWN] * pawn_attacks(c, s).andnot(pos.pieces(c)).count();
    } else {
      const Bitboard a = attacks_from(pc, s, occ);
      if (WEIGHTS.mobility[pt]) v += WEIGHTS.mobility[pt] * a.andnot(pos.pieces(c)).count();
      att2[c] |= att[c] & a;
      att[c] |= a;
    }
    score += c == BLACK ? v : -v;
  });

  score -= king_danger_penalty(pos, BLACK, att, att2);
  score += king_danger_penalty(pos, WHITE, att, att2);
  return score;
}

Value evaluate_learned(const kp::Weights& w, const Position& pos, const kp::Accumulator& acc) {
  Value v = kp::evaluate(w, pos, acc);
  if (w.base == kp::Base::HandWritten) {
    const Value hand = evaluate_black(pos);
    v += pos.side_to_move() == BLACK ? hand : -hand;
  }
  // Weights from a file may sum to anything: a static value must stay below the decisive and mate scores (and fit
  // the hash table's 16 bits).
  return std::clamp(v, -VALUE_KNOWN_WIN + 1, VALUE_KNOWN_WIN - 1);
}

Value evaluate_hand_written(const Position& pos) {
  const Value v = evaluate_black(pos);
  return (pos.side_to_move() == BLACK ? v : -v) + WEIGHTS.tempo;
}

Value evaluate(const Position& pos, const kp::Weights* weights) {
  if (!weights) return evaluate_hand_written(pos);
  kp::Accumulator acc;
  kp::refresh(*weights, pos, acc);
  return evaluate_learned(*weights, pos, acc);
}

}  // namespace shogi
