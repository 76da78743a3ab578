#pragma once
// 81-square bitboards and precomputed attack tables.
//
// A bitboard is two 64-bit words: word 0 holds files 1-7 (squares 0-62), word 1 holds files 8-9 (squares 63-80).
// Every file lies inside one word, so file-wise shifts (pawn pushes, lance rays) never cross the word boundary.

#include <bit>
#include <cstdint>

#include "types.h"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace shogi {

struct Bitboard {
  uint64_t p[2] = {0, 0};

  constexpr Bitboard() = default;
  constexpr Bitboard(uint64_t lo, uint64_t hi) : p{lo, hi} {}

  static constexpr int word_of(Square s) { return s >= 63; }
  static constexpr int bit_of(Square s) { return s >= 63 ? s - 63 : s; }
  static constexpr Bitboard square(Square s) {
    return s >= 63 ? Bitboard(0, uint64_t(1) << (s - 63)) : Bitboard(uint64_t(1) << s, 0);
  }

  constexpr bool test(Square s) const { return (p[word_of(s)] >> bit_of(s)) & 1; }
  constexpr void set(Square s) { p[word_of(s)] |= uint64_t(1) << bit_of(s); }
  constexpr void clear(Square s) { p[word_of(s)] &= ~(uint64_t(1) << bit_of(s)); }
  constexpr void toggle(Square s) { p[word_of(s)] ^= uint64_t(1) << bit_of(s); }

  constexpr bool empty() const { return (p[0] | p[1]) == 0; }
  constexpr explicit operator bool() const { return !empty(); }
  constexpr int count() const { return std::popcount(p[0]) + std::popcount(p[1]); }
  constexpr bool more_than_one() const { return count() > 1; }

  // Least significant square; the bitboard must not be empty.
  constexpr Square lsb() const { return p[0] ? Square(std::countr_zero(p[0])) : Square(63 + std::countr_zero(p[1])); }
  constexpr Square pop() {
    if (p[0]) {
      Square s = Square(std::countr_zero(p[0]));
      p[0] &= p[0] - 1;
      return s;
    }
    Square s = Square(63 + std::countr_zero(p[1]));
    p[1] &= p[1] - 1;
    return s;
  }

  // Calls f(square) for every set square; faster than repeated pop() because each word is scanned once.
  template <typename F>
  constexpr void for_each(F&& f) const {
    for (uint64_t w = p[0]; w; w &= w - 1) f(Square(std::countr_zero(w)));
    for (uint64_t w = p[1]; w; w &= w - 1) f(Square(63 + std::countr_zero(w)));
  }

  constexpr Bitboard operator&(const Bitboard& b) const { return {p[0] & b.p[0], p[1] & b.p[1]}; }
  constexpr Bitboard operator|(const Bitboard& b) const { return {p[0] | b.p[0], p[1] | b.p[1]}; }
  constexpr Bitboard operator^(const Bitboard& b) const { return {p[0] ^ b.p[0], p[1] ^ b.p[1]}; }
  constexpr Bitboard& operator&=(const Bitboard& b) {
    p[0] &= b.p[0];
    p[1] &= b.p[1];
    return *this;
  }
  constexpr Bitboard& operator|=(const Bitboard& b) {
    p[0] |= b.p[0];
    p[1] |= b.p[1];
    return *this;
  }
  constexpr Bitboard& operator^=(const Bitboard& b) {
    p[0] ^= b.p[0];
    p[1] ^= b.p[1];
    return *this;
  }
  // Complement restricted to the 81 squares.
  constexpr Bitboard operator~() const { return {~p[0] & 0x7fffffffffffffffULL, ~p[1] & 0x3ffffULL}; }
  // this & ~b without materialising ~b.
  constexpr Bitboard andnot(const Bitboard& b) const { return {p[0] & ~b.p[0], p[1] & ~b.p[1]}; }
  constexpr bool operator==(const Bitboard&) const = default;

  // Shifts by one rank within every file; the caller masks out squares that would leave their file.
  constexpr Bitboard rank_down() const { return {p[0] << 1, p[1] << 1}; }  // toward rank 9
  constexpr Bitboard rank_up() const { return {p[0] >> 1, p[1] >> 1}; }    // toward rank 1
};

constexpr Bitboard operator&(const Bitboard& b, Square s) { return b & Bitboard::square(s); }
constexpr Bitboard operator|(const Bitboard& b, Square s) { return b | Bitboard::square(s); }
constexpr Bitboard operator^(const Bitboard& b, Square s) { return b ^ Bitboard::square(s); }

constexpr Bitboard ALL_SQUARES_BB{0x7fffffffffffffffULL, 0x3ffffULL};

namespace bb {

// Tables filled once by init(); idempotent and thread-safe after the first call returns.
void init();

extern Bitboard FILE_BB[FILE_NB];
extern Bitboard RANK_BB[RANK_NB];
// Ranks 1-3 for black, 7-9 for white.
extern Bitboard PROMOTION_ZONE_BB[COLOR_NB];
// Squares where a piece of the type could still move: for pawns and lances all but the last rank, for knights all
// but the last two ranks; all squares for other types. Also the legal drop squares ignoring nifu.
extern Bitboard MOVABLE_BB[COLOR_NB][PIECE_TYPE_NB];

extern Bitboard STEP_ATTACKS[PIECE_NB][SQ_NB];     // non-sliding part of each piece's attack (lance/rook/bishop: none)
extern Bitboard BETWEEN_BB[SQ_NB][SQ_NB];          // squares strictly between two aligned squares, else empty
extern Bitboard LINE_BB[SQ_NB][SQ_NB];             // the whole line through two aligned squares, else empty
extern Bitboard FORWARD_FILE_BB[COLOR_NB][SQ_NB];  // squares in front of s on its file, as colour c sees it
// Rook and bishop attacks on an empty board: the lines a slider must stand on to pin or check through s.
extern Bitboard ROOK_RAYS[SQ_NB];
extern Bitboard BISHOP_RAYS[SQ_NB];

// Slider lines: 0 file, 1 rank, 2 diagonal (file+1, rank+1), 3 anti-diagonal (file+1, rank-1).
struct SliderLine {
  Bitboard mask;            // occupancy squares that matter: the line without its edges and without the square itself
  int lo_bits;              // popcount of mask.p[0], where the high word's index bits start
  const Bitboard* attacks;  // 128 entries indexed by the compressed occupancy
};
extern SliderLine SLIDER[4][SQ_NB];

inline uint64_t pext(uint64_t x, uint64_t mask) {
#if defined(__BMI2__)
  return _pext_u64(x, mask);
#else
  uint64_t r = 0;
  for (uint64_t bit = 1; mask; bit <<= 1) {
    if (x & mask & -mask) r |= bit;
    mask &= mask - 1;
  }
  return r;
#endif
}

inline Bitboard slider_attacks(int line, Square s, const Bitboard& occ) {
  const SliderLine& l = SLIDER[line][s];
  uint64_t index = pext(occ.p[0], l.mask.p[0]) | (pext(occ.p[1], l.mask.p[1]) << l.lo_bits);
  return l.attacks[index];
}

}  // namespace bb

inline Bitboard square_bb(Square s) { return Bitboard::square(s); }
inline Bitboard file_bb(File f) { return bb::FILE_BB[f]; }
inline Bitboard rank_bb(Rank r) { return bb::RANK_BB[r]; }
inline Bitboard between_bb(Square a, Square b) { return bb::BETWEEN_BB[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return bb::LINE_BB[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return bb::LINE_BB[a][b].test(c); }

inline Bitboard step_attacks(Piece pc, Square s) { return bb::STEP_ATTACKS[pc][s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return bb::STEP_ATTACKS[make_piece(c, PAWN)][s]; }
inline Bitboard knight_attacks(Color c, Square s) { return bb::STEP_ATTACKS[make_piece(c, KNIGHT)][s]; }
inline Bitboard silver_attacks(Color c, Square s) { return bb::STEP_ATTACKS[make_piece(c, SILVER)][s]; }
inline Bitboard gold_attacks(Color c, Square s) { return bb::STEP_ATTACKS[make_piece(c, GOLD)][s]; }
inline Bitboard king_attacks(Square s) { return bb::STEP_ATTACKS[B_KING][s]; }

inline Bitboard file_attacks(Square s, const Bitboard& occ) { return bb::slider_attacks(0, s, occ); }
inline Bitboard lance_attacks(Color c, Square s, const Bitboard& occ) {
  return file_attacks(s, occ) & bb::FORWARD_FILE_BB[c][s];
}
inline Bitboard rook_attacks(Square s, const Bitboard& occ) {
  return bb::slider_attacks(0, s, occ) | bb::slider_attacks(1, s, occ);
}
inline Bitboard bishop_attacks(Square s, const Bitboard& occ) {
  return bb::slider_attacks(2, s, occ) | bb::slider_attacks(3, s, occ);
}
inline Bitboard horse_attacks(Square s, const Bitboard& occ) { return bishop_attacks(s, occ) | king_attacks(s); }
inline Bitboard dragon_attacks(Square s, const Bitboard& occ) { return rook_attacks(s, occ) | king_attacks(s); }

// Attacks of any piece from s given the occupancy.
Bitboard attacks_from(Piece pc, Square s, const Bitboard& occ);

// Pawns of colour c advanced by one square (their attack set), computed for all pawns at once.
inline Bitboard pawn_push(Color c, const Bitboard& pawns) {
  return c == BLACK ? pawns.andnot(bb::RANK_BB[RANK_1]).rank_up() : pawns.andnot(bb::RANK_BB[RANK_9]).rank_down();
}

}  // namespace shogi
