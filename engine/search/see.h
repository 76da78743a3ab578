#pragma once
// Static exchange evaluation: the material balance of the capture sequence on one square when both sides always
// recapture with their least valuable attacker and may stop at any point.

#include "rules/position.h"

namespace shogi {

// True if the exchange started by `m` wins at least `threshold` (in evaluation units). Pins are ignored.
bool see_ge(const Position& pos, Move m, int threshold);

}  // namespace shogi
