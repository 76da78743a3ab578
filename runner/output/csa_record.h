#pragma once
// A finished game as a CSA V2.2 record (the format of the CSA server, Floodgate and most Japanese viewers).
//
// Conventions (checked against tsshogi and json-kifu-format by tests/runner/output):
// - Header: V2.2, N+/N- names, $EVENT, $START_TIME/$END_TIME in local time, $TIME_LIMIT carrying the runner's own
//   time-control text (not CSA's HH:MM+SS, which cannot express byoyomi in ms or increments).
// - The start position is PI for the standard start, else P1..P9 with P+/P- hand lines; then the side to move.
// - Each move is followed by T<seconds>: the runner's milliseconds truncated to whole seconds, as the CSA server
//   charges them. The exact times are in the JSON result.
// - After an engine move with a score: '** <score> <pv>, the Floodgate comment: the score in centipawns from
//   black's point of view (mate = +-30000), the PV in CSA moves starting with the expected reply (the played move
//   is dropped, as Floodgate's usiToCsa does), cut at the first move that is not legal.
// - Endings are the standard's, relative to the side to move: %TORYO (also a crash or adjudicated loss, as
//   shogi-server records an abnormal end), %TSUMI, %SENNICHITE, %ILLEGAL_MOVE (illegal move or false declaration;
//   the raw move is kept in a comment), %TIME_UP (also a stall), %KACHI, %MAX_MOVES, %HIKIWAKE (adjudicated draw),
//   %CHUDAN (interrupted). A loss of the side that just moved (perpetual check) is %+ILLEGAL_ACTION or
//   %-ILLEGAL_ACTION, the only endings that name the loser. Then '* comments with the detail and
//   '<result in words>.

#include <expected>
#include <string>

#include "game/game_result.h"

namespace arena {

// The record text ("\n" line ends); an error when the start position or a move of the game is not valid.
std::expected<std::string, std::string> to_csa_record(const PlayedGame& game);

}  // namespace arena
