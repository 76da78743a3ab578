#pragma once
// SFEN text <-> a validated board setup. Pure parsing and validation of what can be judged without attack
// tables (ranks, letters, piece counts, dead pieces, nifu, hands, side, move number); Position::set adds the
// checks that need them.

#include <array>
#include <expected>
#include <string>
#include <string_view>

#include "types.h"

namespace shogi {

struct BoardSetup {
  std::array<Piece, SQ_NB> board{};
  Hand hand[COLOR_NB] = {HAND_ZERO, HAND_ZERO};
  Color side_to_move = BLACK;
  int move_number = 1;
};

enum class PieceLimits {
  Strict,   // no more pieces of a kind than a shogi set has (18 pawns, 4 golds, 2 rooks, ...)
  Relaxed,  // composed problems and some published perft positions use extra pieces; hands still fit their fields
};

// Accepts "<board> <b|w> <hands> [<move number>]"; the move number defaults to 1.
std::expected<BoardSetup, std::string> parse_sfen(std::string_view sfen, PieceLimits limits = PieceLimits::Strict);
std::string to_sfen(const BoardSetup& setup);

// "P", "+R", "k", ... ; an empty string for NO_PIECE.
std::string piece_to_sfen(Piece pc);
// "2P" style hand text of both sides, "-" when both are empty.
std::string hands_to_sfen(const Hand hands[COLOR_NB]);

}  // namespace shogi
