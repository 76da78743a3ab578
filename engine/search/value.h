#pragma once
// Search depths and bounds, and the conversion of mate scores to and from the hash table. The score scale itself
// is the evaluation's (eval/value.h).

#include <cstdint>

#include "eval/value.h"

namespace shogi {

using Depth = int;

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

// What a null-move fail-high (null_value >= beta) returns. A mate or a perpetual found after the null move depends
// on the move the side did not play: it proves only that the node beats beta.
constexpr Value null_move_cutoff_value(Value null_value, Value beta) {
  return null_value >= VALUE_KNOWN_WIN ? beta : null_value;
}

}  // namespace shogi
