#pragma once
// Move-ordering statistics learnt during the search: butterfly history (by side, origin or dropped piece, and
// destination) and counter-moves (the reply that refuted a move, by the moved piece and its destination).

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "rules/types.h"

namespace shogi {

// Origins 0..80 for board moves, 81..87 for drops of PAWN..GOLD.
constexpr int FROM_NB = SQ_NB + 7;
constexpr int from_index(Move m) { return is_drop(m) ? int(SQ_NB) + int(dropped_type(m)) - 1 : int(from_sq(m)); }

constexpr int HISTORY_MAX = 7183;

// Bonus for a move that caused a cut-off at `depth`; the malus for the moves tried before it is its negation.
constexpr int stat_bonus(int depth) { return std::min(16 * depth * depth + 110 * depth - 100, 1700); }

class ButterflyHistory {
 public:
  void clear() { std::memset(table_, 0, sizeof(table_)); }
  int get(Color c, Move m) const { return table_[c][from_index(m)][to_sq(m)]; }
  // Gravity update: the entry moves toward +-HISTORY_MAX and saturates there instead of overflowing.
  void update(Color c, Move m, int bonus) {
    int16_t& e = table_[c][from_index(m)][to_sq(m)];
    const int b = std::clamp(bonus, -HISTORY_MAX, HISTORY_MAX);
    e = int16_t(e + b - e * std::abs(b) / HISTORY_MAX);
  }

 private:
  int16_t table_[COLOR_NB][FROM_NB][SQ_NB] = {};
};

class CounterMoves {
 public:
  void clear() { std::memset(table_, 0, sizeof(table_)); }
  Move get(Move previous) const {
    return is_ok(previous) ? table_[moved_piece_after(previous)][to_sq(previous)] : MOVE_NONE;
  }
  void set(Move previous, Move reply) {
    if (is_ok(previous)) table_[moved_piece_after(previous)][to_sq(previous)] = reply;
  }

 private:
  Move table_[PIECE_NB][SQ_NB] = {};
};

}  // namespace shogi
