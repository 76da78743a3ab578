#pragma once
// The score scale, in centipawns from the side to move's point of view (a pawn on the board is 90): the evaluation
// gives static values, the search adds decisive ones above them. One header for both, so that the order the
// evaluation must keep below (VALUE_KNOWN_WIN) reads beside the values the search puts there.

#include <algorithm>

#include "rules/types.h"

namespace shogi {

using Value = int;

constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
// Decisive but not a mate: a perpetual check seen twice in the tree. Reporting it as "mate" would be a lie.
constexpr Value VALUE_PERPETUAL = 20000;
// Static values beyond this are treated as won (futility and null-move pruning stop trusting them); the learned and
// the hand-written evaluations keep below it, and so does the corrected one the search prunes with.
constexpr Value VALUE_KNOWN_WIN = 10000;
// A static value brought below a known win: what the learned, hand-written and corrected evaluations return.
constexpr Value clamp_static(Value v) { return std::clamp(v, -VALUE_KNOWN_WIN + 1, VALUE_KNOWN_WIN - 1); }

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }
constexpr bool is_mate_value(Value v) {
  return v != VALUE_NONE && (v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY);
}

}  // namespace shogi
