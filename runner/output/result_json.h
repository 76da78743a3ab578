#pragma once
// One game as one line of JSON, for the tournament's JSONL journal, per-game result files and the stats command;
// and the reader that brings it back (--resume re-reads the journal).
//
// {"version":1,"event":"...","black":"A","white":"B",
//  "start_time":"2024-01-01T10:00:00.000Z","end_time":...,      (UTC, ms; null when unknown)
//  "time_control":"10+0.1","time_controls":["10+0.1","10+0.1"],"start_sfen":"lnsgkgsnl/... b - 1",
//  "moves":["7g7f","3c3d"],"times_ms":[1003,250],"opening_plies":0,
//  "info":[null,{"depth":12,"seldepth":18,"score_cp":35,"score_mate":null,"nodes":12345,"pv":["2g2f","8c8d"]}],
//  "result":"black"|"white"|"draw"|"none","termination":"resign","detail":"...","forfeit_used_ms":1234,
//  "illegal_move":"..."}
//
// "time_control" is for people ("black 10+0.1, white 5+0.1" when the sides differ); "time_controls" is each side's,
// black's first, in the same syntax (absent where no TimeControl timed the game: a CSA client's game).
// "forfeit_used_ms" is in a time forfeit only: how long the flagged move took (its bestmove, or its answer to
// `stop`), in whole milliseconds, null when it never answered.
// Scores in "info" are as the engine sent them (the mover's point of view): "score_cp" in centipawns, or
// "score_mate" in plies, negative when the mover is being mated; +/-999 (UNKNOWN_MATE_DISTANCE) is a mate whose
// distance the engine did not give (`score mate +` / `score mate -`). Opening moves are a prefix of the moves (the
// runner plays the opening before the engines), so "opening_plies" counts them.
//
// Lines written before "time_controls" and "forfeit_used_ms" existed are still read: each side's time control is
// then taken from "time_control", and a forfeit's time from "detail".

#include <expected>
#include <string>
#include <string_view>

#include "game/game_result.h"

namespace arena {

// A single line without a trailing newline.
std::string to_result_json(const PlayedGame& game);

// Reads a line written by to_result_json. Moves are replayed from the start position, so a truncated or edited
// line is an error that names the field or the move, never a half-filled game.
std::expected<PlayedGame, std::string> parse_result_json(std::string_view line);

}  // namespace arena
