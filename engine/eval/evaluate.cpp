#include "eval/evaluate.h"

#include <algorithm>

#include "eval/hand_weights.h"

namespace shogi {

namespace eval {
const HandWeights HAND_WEIGHTS{};
}

namespace {

using eval::HAND_WEIGHTS;

int hand_score(Hand h) {
  int s = 0;
  for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt) s += hand_count(h, PieceType(pt)) * HAND_WEIGHTS.hand[pt];
  return s;
}

// Danger to the king of colour c from the attack maps; 0 when c has no king (tsume problems).
int king_danger_penalty(const Position& pos, Color c, const Bitboard att[2], const Bitboard att2[2]) {
  if (!pos.has_king(c)) return 0;
  const Square ksq = pos.king_square(c);
  const Bitboard zone = king_attacks(ksq);
  const Color them = ~c;
  int danger = HAND_WEIGHTS.danger_base;
  danger += HAND_WEIGHTS.zone_attack * (att[them] & zone).count();
  danger += HAND_WEIGHTS.zone_double_attack * (att2[them] & zone).count();
  danger -= HAND_WEIGHTS.zone_defence * (att[c] & zone).count();
  const int escapes = (zone.andnot(pos.pieces(c)).andnot(att[them])).count();
  danger += HAND_WEIGHTS.no_escape * std::max(0, 3 - escapes);
  const Hand h = pos.hand(them);
  for (int pt = HAND_TYPE_BEGIN; pt < HAND_TYPE_END; ++pt)
    danger += HAND_WEIGHTS.enemy_hand[pt] * hand_count(h, PieceType(pt));
  if (danger <= 0) return 0;
  return std::min(HAND_WEIGHTS.danger_cap, danger * danger / HAND_WEIGHTS.danger_divisor);
}

// The attacks of a piece of type Pt and colour c on s.
template <PieceType Pt>
Bitboard piece_attacks(Color c, Square s, const Bitboard& occ) {
  if constexpr (Pt == LANCE)
    return lance_attacks(c, s, occ);
  else if constexpr (Pt == BISHOP)
    return bishop_attacks(s, occ);
  else if constexpr (Pt == ROOK)
    return rook_attacks(s, occ);
  else if constexpr (Pt == HORSE)
    return horse_attacks(s, occ);
  else if constexpr (Pt == DRAGON)
    return dragon_attacks(s, occ);
  else
    return bb::STEP_ATTACKS[make_piece(c, Pt)][s];
}

// What the pieces of type Pt and colour c are worth to c: material, nearness to both kings and mobility. Their
// attacks go into c's maps (a square attacked a second time into att2), except the pawns': those are in the maps
// already, set for all pawns at once.
template <PieceType Pt>
int piece_terms(const Position& pos, Color c, const Square ksq[COLOR_NB], const Bitboard& occ, Bitboard& att,
                Bitboard& att2) {
  int v = 0;
  pos.pieces(c, Pt).for_each([&](Square s) {
    v += HAND_WEIGHTS.board[Pt];
    if (ksq[c] != SQ_NONE) v += HAND_WEIGHTS.own_king[Pt][distance(s, ksq[c])];
    if (ksq[~c] != SQ_NONE) v += HAND_WEIGHTS.enemy_king[Pt][distance(s, ksq[~c])];
    if constexpr (Pt == PAWN) {
      // The pawns' attack maps came in bulk: a pawn's own attacks are needed only for a mobility weight.
      if (HAND_WEIGHTS.mobility[PAWN])
        v += HAND_WEIGHTS.mobility[PAWN] * piece_attacks<PAWN>(c, s, occ).andnot(pos.pieces(c)).count();
    } else {
      const Bitboard a = piece_attacks<Pt>(c, s, occ);
      if (HAND_WEIGHTS.mobility[Pt]) v += HAND_WEIGHTS.mobility[Pt] * a.andnot(pos.pieces(c)).count();
      att2 |= att & a;
      att |= a;
    }
  });
  return v;
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

  // Piece type by piece type, so that each type's weights and attack tables are found once. Kings are left out of
  // the attack maps: a king does not defend its own zone in the danger count.
  for (Color c : {BLACK, WHITE}) {
    Bitboard& a = att[c];
    Bitboard& a2 = att2[c];
    const int v = piece_terms<PAWN>(pos, c, ksq, occ, a, a2) + piece_terms<LANCE>(pos, c, ksq, occ, a, a2) +
                  piece_terms<KNIGHT>(pos, c, ksq, occ, a, a2) + piece_terms<SILVER>(pos, c, ksq, occ, a, a2) +
                  piece_terms<GOLD>(pos, c, ksq, occ, a, a2) + piece_terms<BISHOP>(pos, c, ksq, occ, a, a2) +
                  piece_terms<ROOK>(pos, c, ksq, occ, a, a2) + piece_terms<PRO_PAWN>(pos, c, ksq, occ, a, a2) +
                  piece_terms<PRO_LANCE>(pos, c, ksq, occ, a, a2) + piece_terms<PRO_KNIGHT>(pos, c, ksq, occ, a, a2) +
                  piece_terms<PRO_SILVER>(pos, c, ksq, occ, a, a2) + piece_terms<HORSE>(pos, c, ksq, occ, a, a2) +
                  piece_terms<DRAGON>(pos, c, ksq, occ, a, a2);
    score += c == BLACK ? v : -v;
  }

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
  return clamp_static(v);
}

Value evaluate_hand_written(const Position& pos) {
  const Value v = evaluate_black(pos);
  // A side holding most of the pieces sums past a known win (every piece in one hand is over 15,000): the search
  // returns a static value uncorrected at its maximum ply, where it must still read as a static value.
  return clamp_static((pos.side_to_move() == BLACK ? v : -v) + HAND_WEIGHTS.tempo);
}

Value evaluate(const Position& pos, const kp::Weights* weights) {
  if (!weights) return evaluate_hand_written(pos);
  kp::Accumulator acc;
  kp::refresh(*weights, pos, acc);
  return evaluate_learned(*weights, pos, acc);
}

}  // namespace shogi
