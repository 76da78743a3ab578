#pragma once
// Static evaluation: material including hands, king-relative piece-square terms, slider mobility and king
// safety. Symmetric by construction: the position seen from the other side evaluates to the exact negation.

#include <memory>

#include "rules/position.h"
#include "search/kp_eval.h"
#include "search/value.h"

namespace shogi {

// The hand-written evaluation from black's point of view, without the side-to-move tempo.
Value evaluate_black(const Position& pos);
// The evaluation search uses, from the side to move's point of view: the learned KP evaluation when weights are
// set, else the hand-written one.
Value evaluate(const Position& pos);

// The learned weights in use, process-wide (nullptr: the hand-written evaluation). Set only while no search runs.
void set_kp_weights(std::shared_ptr<const kp::Weights> weights);
const kp::Weights* kp_weights();

// Piece values for exchanges: losing a piece also hands it to the opponent, so a capture is worth the board value
// plus the hand value of the piece it reverts to.
int piece_value(PieceType pt);
int capture_value(PieceType pt);
int promotion_gain(PieceType raw);

}  // namespace shogi
