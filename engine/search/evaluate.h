#pragma once
// Static evaluation: material including hands, king-relative piece-square terms, slider mobility and king
// safety. Symmetric by construction: the position seen from the other side evaluates to the exact negation.

#include "rules/position.h"
#include "search/value.h"

namespace shogi {

// From black's point of view, without the side-to-move tempo.
Value evaluate_black(const Position& pos);
// From the side to move's point of view; what search uses.
Value evaluate(const Position& pos);

// Piece values for exchanges: losing a piece also hands it to the opponent, so a capture is worth the board value
// plus the hand value of the piece it reverts to.
int piece_value(PieceType pt);
int capture_value(PieceType pt);
int promotion_gain(PieceType raw);

}  // namespace shogi
