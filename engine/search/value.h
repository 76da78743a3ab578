#pragma once
// Search values, depths and bounds, and the conversion of mate scores to and from the hash table.

#include <cstdint>

#include "rules/types.h"

namespace shogi {

using Value = int;
using Depth = int;

constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
// Decisive but not a mate: a perpetual check seen twice in the tree. Reporting it as "mate" would be a lie.
constexpr Value VALUE_PERPETUAL = 20000;
// Static values beyond this are treated as won (futility and null-move pruning stop trusting them).
constexpr Value VALUE_KNOWN_WIN = 10000;

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }
constexpr bool is_mate_value(Value v) {
  return v != VALUE_NONE && (v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY);
}

// Depths of quiescence search stored in the hash table.
constexpr Depth DEPTH_QS_CHECKS = 0;
constexpr Depth DEPTH_QS_NO_CHECKS = -1;
constexpr Depth DEPTH_NONE = -6;
// Stored depths are offset so that an all-zero entry reads as empty.
constexpr Depth DEPTH_OFFSET = -7;

enum Bound : uint8_t {
  BOUND_NONE = 0,
  BOUND_UPPER = 1,
  BOUND_LOWER = 2,
  BOUND_EXACT = BOUND_UPPER | BOUND_LOWER,
};

// A mate score is relative to the root when searched but must be stored relative to the node: the same position
// can be reached at another ply, where "mate in n from the root" would be wrong.
constexpr Value value_to_tt(Value v, int ply) {
  return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= VALUE_MATED_IN_MAX_PLY ? v - ply : v;
}
constexpr Value value_from_tt(Value v, int ply) {
  return v == VALUE_NONE             ? VALUE_NONE
         : v >= VALUE_MATE_IN_MAX_PLY  ? v - ply
         : v <= VALUE_MATED_IN_MAX_PLY ? v + ply
                                       : v;
}

}  // namespace shogi
