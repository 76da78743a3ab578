#pragma once
// Small games for the record tests, built from USI moves so every move is checked legal by the rules library.

#include <string>
#include <string_view>
#include <vector>

#include "game/game_result.h"

namespace arena::testing {

struct SampleMove {
  std::string usi;
  int64_t time_ms = 0;
  SearchInfo info{};
};

// Plays `moves` from `start` ("startpos" or an SFEN) with fixed names, event and times (2024-01-01 10:00:00 UTC,
// ending 31 s later). Throws std::runtime_error on an illegal move: a broken fixture, not a result to test.
PlayedGame make_game(std::string_view start, const std::vector<SampleMove>& moves, Outcome outcome,
                     Termination termination, std::string detail = {});

// The sample of tests/kifu/README.md: promotion by capture, recapture, drop, declined promotion; white resigns.
PlayedGame resign_game();
// From an SFEN with pieces in both hands: black drops a gold to mate (a real mate: the test checks it).
PlayedGame mate_from_sfen_game();
// Promoted pieces moving, a knight declining promotion, a white drop and recaptures; from an SFEN with white to
// move first; white resigns.
PlayedGame promoted_pieces_game();

// "7g7f 3c3d" (black to move at the end) closed by each way a game can end, named for file names:
// resign, sennichite, perpetual_check (white, who just moved, loses), declaration, illegal_declaration,
// illegal_move, time_forfeit, stall, disconnect, disconnect_not_to_move, max_moves, adjudication_win,
// adjudication_draw, interrupted.
struct NamedGame {
  std::string name;
  PlayedGame game;
};
std::vector<NamedGame> ending_games();

}  // namespace arena::testing
