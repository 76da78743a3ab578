#pragma once
// Static exchange evaluation: the material balance of the capture sequence on one square when both sides always
// recapture with their least valuable attacker and may stop at any point. And the piece values exchanges are
// counted in, which move ordering and the search's capture pruning use too.

#include "rules/position.h"

namespace shogi {

// Piece values for exchanges, from the hand-written evaluation's material (eval/hand_weights.h): losing a piece also
// hands it to the opponent, so a capture is worth the board value plus the hand value of the piece it reverts to.
int piece_value(PieceType pt);
int capture_value(PieceType pt);
int promotion_gain(PieceType raw);

// True if the exchange started by `m` wins at least `threshold` (in evaluation units). Pins are ignored.
bool see_ge(const Position& pos, Move m, int threshold);

}  // namespace shogi
