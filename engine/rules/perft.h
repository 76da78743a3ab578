#pragma once
// Perft: counts leaf nodes of the legal move tree, the standard test of a move generator.

#include <cstdint>
#include <functional>

#include "position.h"

namespace shogi {

// Leaf count at `depth` (bulk counting at the last ply). depth 0 returns 1.
uint64_t perft(Position& pos, int depth);

// Calls report(move, nodes) for each root move, then returns the total: the "divide" output.
uint64_t perft_divide(Position& pos, int depth, const std::function<void(Move, uint64_t)>& report);

}  // namespace shogi
