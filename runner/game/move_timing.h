#pragma once
// The clock of a finished game, reconstructed move by move from its recorded times and each side's time control by
// the runner's own clock rules (clock.h): what the clock allowed before each engine move. The report draws time
// used against time given from it; the analysis reads the time each side had left at a mistake.

#include <cstdint>
#include <string>
#include <vector>

#include "game/game_result.h"

namespace arena::game {

// One engine move's time: what the clock allowed before it and what it took.
struct MoveTiming {
  int ply = 0;  // 1-based, opening moves counted
  shogi::Color mover = shogi::BLACK;
  int64_t given_ms = -1;  // the allowance; -1 when no clock limits the move (nodes or depth only)
  int64_t used_ms = -1;   // -1 when unknown (a flag that fell with no answer)
  bool forfeit = false;   // the move that lost on time (not in the game's moves: it was never played)
};
// Each engine move of `game`, opening moves left out, and the move that lost on time when it ended so. Empty when
// the game's time control cannot be read.
std::vector<MoveTiming> move_timings(const PlayedGame& game);

// Who moves first in a game from `sfen` (its second field; black when it cannot be read).
shogi::Color side_to_move(const std::string& sfen);

}  // namespace arena::game
