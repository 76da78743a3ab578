#pragma once
// Move generation. Generators produce pseudo-legal moves: drops are fully legal (nifu, dead squares and the
// pawn-drop mate are excluded), board moves may still leave the mover's king in check and are filtered with
// Position::legal, which needs only the pin information.

#include <cstddef>

#include "position.h"
#include "types.h"

namespace shogi {

enum GenType {
  CAPTURES,      // captures, and pawn promotions that capture nothing (quiescence search)
  QUIETS,        // everything NON_EVASIONS has that CAPTURES does not
  QUIET_CHECKS,  // the QUIETS that give check, in QUIETS' order
  EVASIONS,      // moves out of check, the side to move must be in check
  NON_EVASIONS,  // CAPTURES + QUIETS, the side to move must not be in check
  // The five above leave out the non-promotions that a promotion dominates (pawn, bishop and rook moves that could
  // promote, lance moves to the second rank) unless they give check: a mate can need one. The _ALL forms have
  // them all; rules judging, perft and the mate solver need every legal move.
  EVASIONS_ALL,
  NON_EVASIONS_ALL,
  LEGAL,  // every legal move: EVASIONS_ALL or NON_EVASIONS_ALL, generated legal (pins and king steps applied)
  // The LEGAL moves that give check: a mate search's attacker moves. Drops are generated on checking squares only
  // (with a full hand they would be most of LEGAL), the king only when it uncovers a slider, and, when no piece of
  // ours can uncover one, board moves only to squares from which some piece (as it is or promoted) can check.
  LEGAL_CHECKS,
};

struct ExtMove {
  Move move;
  int value;
  operator Move() const { return move; }
  void operator=(Move m) { move = m; }
};

template <GenType Type>
ExtMove* generate(const Position& pos, ExtMove* list);

// QUIET_CHECKS and CAPTURES that land on `squares`: the same moves in the same order, less the others, without
// generating them (a one-move mate test wants only the checks next to the king).
ExtMove* generate_quiet_checks_onto(const Position& pos, ExtMove* list, const Bitboard& squares);
ExtMove* generate_captures_onto(const Position& pos, ExtMove* list, const Bitboard& squares);

template <GenType Type>
struct MoveList {
  explicit MoveList(const Position& pos) : last_(generate<Type>(pos, moves_)) {}
  // A copy's end would point into the original's moves.
  MoveList(const MoveList&) = delete;
  MoveList& operator=(const MoveList&) = delete;
  const ExtMove* begin() const { return moves_; }
  const ExtMove* end() const { return last_; }
  size_t size() const { return size_t(last_ - moves_); }
  bool contains(Move m) const {
    for (const ExtMove& em : *this)
      if (em.move == m) return true;
    return false;
  }

 private:
  ExtMove moves_[MAX_MOVES];
  ExtMove* last_;
};

// True if the side to move has a legal move (false: it has lost, checkmated or not). The same answer as a
// non-empty MoveList<LEGAL>, found without generating every move in the usual cases: a drop of a silver, gold,
// bishop or rook, or a safe king step. The game record asks it after every move of every game.
bool has_legal_move(const Position& pos);

}  // namespace shogi
