#pragma once
// Shared by the opening readers: turning a start position and moves into the position text play_game takes.

#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace arena::openings {

// `start` is anything shogi::GameRecord::start accepts ("startpos [moves ...]", "sfen ... [moves ...]", a bare
// SFEN, with or without "position "); `extra_moves` (USI) are played after the moves it contains. Every move is
// checked; the result keeps at most `plies` moves (0: all) and reads "startpos moves ..." when the game starts
// from the standard position as written ("startpos"), else "sfen <sfen> moves ...".
std::expected<std::string, std::string> opening_position(std::string_view start,
                                                         const std::vector<std::string>& extra_moves, int plies);

}  // namespace arena::openings
