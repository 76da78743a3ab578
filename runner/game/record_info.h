#pragma once
// The one conversion of what an engine said about its search (usi::SearchInfo, merged over its info lines) into
// what a game's record keeps of it (SearchInfo, game_result.h): a direct game and a game through a CSA server
// record the same engine output as the same journal fields.

#include "game/game_result.h"
#include "usi/usi_info.h"

namespace arena::game {

// Depth, seldepth, nodes, the pv, and the score: centipawns, or a mate distance in plies with the mover's sign;
// `score mate +` / `score mate -` (the distance unknown) become +/-UNKNOWN_MATE_DISTANCE.
SearchInfo record_info(const usi::SearchInfo& info);
// The same, taking the pv instead of copying it (the game loop's move path).
SearchInfo record_info(usi::SearchInfo&& info);

}  // namespace arena::game
