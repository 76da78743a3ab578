#pragma once
// Static evaluation: material including hands, king-relative piece-square terms, slider mobility and king
// safety. Symmetric by construction: the position seen from the other side evaluates to the exact negation.

#include <memory>

#include "eval/kp.h"
#include "eval/value.h"
#include "rules/position.h"

namespace shogi {

// The hand-written evaluation from black's point of view, without the side-to-move tempo.
Value evaluate_black(const Position& pos);
// The evaluation search uses, from the side to move's point of view: the learned KP evaluation when weights are
// set, else the hand-written one.
Value evaluate(const Position& pos);

// The learned evaluation from the side to move's point of view: the tables' sums in `acc`, plus the hand-written
// evaluation when the weights were trained on top of it.
Value evaluate_learned(const kp::Weights& w, const Position& pos, const kp::Accumulator& acc);

// The learned weights in use, process-wide (nullptr: the hand-written evaluation). Set only while no search runs.
void set_kp_weights(std::shared_ptr<const kp::Weights> weights);
const kp::Weights* kp_weights();
std::shared_ptr<const kp::Weights> kp_weights_shared();

// A check for tests (asserts are compiled out of release builds): while enabled, the search compares every
// accumulator it computes with a full recomputation and counts them.
struct AccumulatorCheck {
  uint64_t computed = 0, incremental = 0, mismatches = 0;
};
void set_accumulator_check(bool on);
bool accumulator_check_enabled();
void count_accumulator_check(bool incremental, bool equal);
AccumulatorCheck accumulator_check();

}  // namespace shogi
