#pragma once
// USI ("7g7f", "8h2b+", "P*5e") and CSA ("+7776FU", "-0034KA", "+8822UM") move notation. Parsing always
// validates against a position and explains what is wrong with a rejected move.

#include <expected>
#include <string>
#include <string_view>

#include "position.h"
#include "types.h"

namespace shogi {

std::string to_usi(Move m);  // also "resign", "win", "0000" for the sentinels
// The move in CSA notation for the given mover: the piece written is the piece after the move.
std::string to_csa(Move m);
// CSA two-letter piece names ("FU", "UM", ...), by piece type.
std::string_view csa_piece_name(PieceType pt);
std::expected<PieceType, std::string> parse_csa_piece(std::string_view name);

// Parses a USI move string for the side to move and checks that it is legal. The error says why not, e.g.
// "7g7f: no piece of the side to move on 7g" or "P*5e: two unpromoted pawns on file 5 (nifu)".
std::expected<Move, std::string> parse_usi_move(const Position& pos, std::string_view text);
// The same for CSA moves; the sign must match the side to move.
std::expected<Move, std::string> parse_csa_move(const Position& pos, std::string_view text);

// The reason a syntactically valid move is not legal in pos, or an empty string if it is legal.
std::string illegal_reason(const Position& pos, Move m);

}  // namespace shogi
