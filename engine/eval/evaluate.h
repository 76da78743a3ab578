#pragma once
// Static evaluation: material including hands, king-relative piece-square terms, slider mobility and king
// safety. Symmetric by construction: the position seen from the other side evaluates to the exact negation.
// The evaluation keeps no state: the learned weights come from whoever owns them (each search engine, each of
// gensfen's players, the trainer), so that evaluations with different weights can run in one process at once.

#include "eval/kp.h"
#include "eval/value.h"
#include "rules/position.h"

namespace shogi {

// The hand-written evaluation from black's point of view, without the side-to-move tempo.
Value evaluate_black(const Position& pos);
// The hand-written evaluation from the side to move's point of view, with its tempo, kept below a known win.
Value evaluate_hand_written(const Position& pos);

// The learned evaluation from the side to move's point of view: the tables' sums in `acc`, plus the hand-written
// evaluation when the weights were trained on top of it.
Value evaluate_learned(const kp::Weights& w, const Position& pos, const kp::Accumulator& acc);

// The static evaluation from the side to move's point of view with the given learned weights, or the hand-written
// evaluation alone for nullptr. It sums the tables afresh; the search keeps the sums in accumulators instead and
// calls evaluate_learned.
Value evaluate(const Position& pos, const kp::Weights* weights);

}  // namespace shogi
