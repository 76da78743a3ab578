#pragma once
// A game's records written with the referee's word on every analysed move, in the forms viewers read: CSA with a
// Floodgate comment after each move ("'** <score> <reply>": the referee's score of the position after the move from
// black's view, and its best reply) and KIF with ShogiHome's "*#評価値=" and "*#読み筋=" lines. The engines' own
// comments are replaced; the moves, names, times and result are the game's.

#include <expected>
#include <string>

#include "analysis/game_analysis.h"
#include "analysis/source_games.h"

namespace arena::analysis {

// `source` with each analysed move's engine info replaced by the referee's: its score after the move (the mover's
// view) and the line [move, the referee's best reply]. Moves the analysis did not judge (the opening) carry none.
PlayedGame annotated_game(const PlayedGame& source, const GameAnalysis& analysis);

// The file name (without extension) of a game's annotated records: "<record's name>-<number>" for a record,
// else "<game+1, 6 digits>-<black>-vs-<white>" as the runner names its kifu.
std::string annotated_record_stem(const GameAnalysis& analysis);

// Writes DIR/<stem>.csa and DIR/<stem>.kif (each replaced whole). The error names the file.
std::expected<void, std::string> write_annotated_records(const std::string& dir, const PlayedGame& source,
                                                         const GameAnalysis& analysis);

}  // namespace arena::analysis
