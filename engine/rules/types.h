#pragma once
// Basic shogi types: colours, squares, pieces, hands and moves.
//
// Squares are numbered file-major from black's point of view: SQ_11 (file 1, rank a) is 0, SQ_19 is 8, SQ_21 is 9,
// ..., SQ_99 is 80. A file therefore occupies 9 consecutive bits, which keeps lance and file attacks cheap.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace shogi {

enum Color : int { BLACK, WHITE, COLOR_NB = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum File : int { FILE_1, FILE_2, FILE_3, FILE_4, FILE_5, FILE_6, FILE_7, FILE_8, FILE_9, FILE_NB };
enum Rank : int { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_9, RANK_NB };

enum Square : int { SQ_11 = 0, SQ_99 = 80, SQ_NB = 81, SQ_NONE = 81 };

constexpr Square make_square(File f, Rank r) { return Square(f * 9 + r); }
constexpr File file_of(Square s) { return File(s / 9); }
constexpr Rank rank_of(Square s) { return Rank(s % 9); }
constexpr bool is_ok(Square s) { return s >= SQ_11 && s <= SQ_99; }
// Ranks as seen by colour c: rank 1 is the far side for black, rank 9 for white.
constexpr Rank relative_rank(Color c, Rank r) { return c == BLACK ? r : Rank(8 - r); }
constexpr bool in_promotion_zone(Color c, Square s) { return relative_rank(c, rank_of(s)) <= RANK_3; }
// Rotates the board 180 degrees (used to flip positions between colours).
constexpr Square flip(Square s) { return Square(80 - s); }

// King steps between two squares (Chebyshev distance), from a table: the evaluation asks it twice per piece.
inline constexpr auto SQUARE_DISTANCE = [] {
  std::array<std::array<uint8_t, SQ_NB>, SQ_NB> table{};
  for (int a = 0; a < SQ_NB; ++a)
    for (int b = 0; b < SQ_NB; ++b) {
      const int df = file_of(Square(a)) - file_of(Square(b)), dr = rank_of(Square(a)) - rank_of(Square(b));
      table[size_t(a)][size_t(b)] = uint8_t(std::max(df < 0 ? -df : df, dr < 0 ? -dr : dr));
    }
  return table;
}();
constexpr int distance(Square a, Square b) { return SQUARE_DISTANCE[size_t(a)][size_t(b)]; }

enum PieceType : int {
  NO_PIECE_TYPE,
  PAWN,
  LANCE,
  KNIGHT,
  SILVER,
  BISHOP,
  ROOK,
  GOLD,
  KING,
  PRO_PAWN,
  PRO_LANCE,
  PRO_KNIGHT,
  PRO_SILVER,
  HORSE,
  DRAGON,
  PIECE_TYPE_NB = 16,
  PROMOTE = 8,
  // Types that can be held in hand: PAWN..GOLD.
  HAND_TYPE_BEGIN = PAWN,
  HAND_TYPE_END = KING,
};

enum Piece : int {
  NO_PIECE = 0,
  B_PAWN = 1,
  B_LANCE,
  B_KNIGHT,
  B_SILVER,
  B_BISHOP,
  B_ROOK,
  B_GOLD,
  B_KING,
  B_PRO_PAWN,
  B_PRO_LANCE,
  B_PRO_KNIGHT,
  B_PRO_SILVER,
  B_HORSE,
  B_DRAGON,
  W_PAWN = 17,
  W_LANCE,
  W_KNIGHT,
  W_SILVER,
  W_BISHOP,
  W_ROOK,
  W_GOLD,
  W_KING,
  W_PRO_PAWN,
  W_PRO_LANCE,
  W_PRO_KNIGHT,
  W_PRO_SILVER,
  W_HORSE,
  W_DRAGON,
  PIECE_NB = 32,
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece(pt + (c << 4)); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 15); }
constexpr Color color_of(Piece p) { return Color(p >> 4); }
constexpr bool can_promote(PieceType pt) { return pt >= PAWN && pt <= ROOK; }
constexpr bool is_promoted(PieceType pt) { return pt > KING; }
constexpr PieceType promote(PieceType pt) { return PieceType(pt | PROMOTE); }
// The type a piece reverts to when captured (kings never are).
constexpr PieceType raw_type(PieceType pt) { return pt > KING ? PieceType(pt & 7) : pt; }
constexpr Piece flip(Piece p) { return p == NO_PIECE ? p : Piece(p ^ 16); }
constexpr Piece promote(Piece p) { return Piece(p | int(PROMOTE)); }
constexpr Piece unpromote(Piece p) { return Piece(p & ~int(PROMOTE)); }

// Number of pieces of each raw type in a full set (both sides together).
constexpr int piece_count_limit(PieceType raw) {
  constexpr int limits[] = {0, 18, 4, 4, 4, 2, 2, 4, 2};
  return limits[raw];
}

// A hand packed into 32 bits, one field per type with unused bits between fields, so that adding or removing
// legal counts never carries into a neighbour.
enum Hand : uint32_t { HAND_ZERO = 0 };
constexpr int HAND_SHIFT[HAND_TYPE_END] = {0, 0, 8, 12, 16, 20, 24, 28};
constexpr uint32_t HAND_MASK[HAND_TYPE_END] = {0, 0x1f, 0x7, 0x7, 0x7, 0x3, 0x3, 0x7};
constexpr int hand_count(Hand h, PieceType pt) { return (h >> HAND_SHIFT[pt]) & HAND_MASK[pt]; }
constexpr bool hand_exists(Hand h, PieceType pt) { return hand_count(h, pt) != 0; }
constexpr Hand hand_add(Hand h, PieceType pt, int n = 1) { return Hand(h + (uint32_t(n) << HAND_SHIFT[pt])); }
constexpr Hand hand_sub(Hand h, PieceType pt, int n = 1) { return Hand(h - (uint32_t(n) << HAND_SHIFT[pt])); }
// True if the hand holds anything other than pawns (drop generators use it to skip work).
constexpr bool hand_has_non_pawn(Hand h) { return (h & ~HAND_MASK[PAWN]) != 0; }

// A move in 16 bits, storable in a hash entry:
//   bits 0-6   destination square
//   bits 7-13  origin square, or the dropped piece type for a drop
//   bit 14     drop flag
//   bit 15     promotion flag
// The wider Move adds the moved piece (as it stands before the move) in bits 16-20, which search uses for
// history tables and which lets a 16-bit move from the hash be checked cheaply against the position.
enum Move16 : uint16_t { MOVE16_NONE = 0 };
enum Move : uint32_t {
  MOVE_NONE = 0,
  // Square 0 to square 0 is never a real move, so these two sentinels cannot collide with one.
  MOVE_NULL = (1 << 7) + 1,
  MOVE_RESIGN = (2 << 7) + 2,
  MOVE_WIN = (3 << 7) + 3,
};

constexpr uint32_t MOVE_DROP = 1 << 14;
constexpr uint32_t MOVE_PROMOTE = 1 << 15;

constexpr Square to_sq(Move m) { return Square(m & 0x7f); }
constexpr Square from_sq(Move m) { return Square((m >> 7) & 0x7f); }
constexpr bool is_drop(Move m) { return (m & MOVE_DROP) != 0; }
constexpr bool is_promotion(Move m) { return (m & MOVE_PROMOTE) != 0; }
constexpr PieceType dropped_type(Move m) { return PieceType((m >> 7) & 0x7f); }
constexpr Piece moved_piece(Move m) { return Piece((m >> 16) & 0x1f); }
// The piece standing on the destination after the move.
constexpr Piece moved_piece_after(Move m) { return is_promotion(m) ? promote(moved_piece(m)) : moved_piece(m); }
constexpr Move16 to_move16(Move m) { return Move16(m & 0xffff); }
constexpr bool is_ok(Move m) { return m != MOVE_NONE && m != MOVE_NULL && m != MOVE_RESIGN && m != MOVE_WIN; }

constexpr Move make_move(Square from, Square to, Piece moved) {
  return Move(to | (from << 7) | (uint32_t(moved) << 16));
}
constexpr Move make_move_promote(Square from, Square to, Piece moved) {
  return Move(to | (from << 7) | MOVE_PROMOTE | (uint32_t(moved) << 16));
}
constexpr Move make_drop(Piece pc, Square to) {
  return Move(to | (uint32_t(type_of(pc)) << 7) | MOVE_DROP | (uint32_t(pc) << 16));
}

using Key = uint64_t;

// Values and depths shared by search and rules-level helpers.
constexpr int MAX_PLY = 246;
constexpr int MAX_MOVES = 600;  // more than the 593 legal moves of the known maximum position

// Human-readable helpers for diagnostics.
std::string to_string(Square s);  // "7g"

}  // namespace shogi
