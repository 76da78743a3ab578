#pragma once
// Move-ordering statistics learnt during the search: butterfly history (by side, origin or dropped piece, and
// destination), capture history (by piece, destination and captured type), continuation history (by an earlier move of
// the line and this one, each as its piece and destination) and counter-moves (the reply that refuted a move, by the
// moved piece and its destination), and the correction history of the static evaluation.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "eval/value.h"
#include "rules/types.h"

namespace shogi {

// Origins 0..80 for board moves, 81..87 for drops of PAWN..GOLD.
constexpr int FROM_NB = SQ_NB + 7;
constexpr int from_index(Move m) { return is_drop(m) ? int(SQ_NB) + int(dropped_type(m)) - 1 : int(from_sq(m)); }

constexpr int HISTORY_MAX = 7183;

// Bonus for a move that caused a cut-off at `depth`; the malus for the moves tried before it is its negation.
constexpr int stat_bonus(int depth) { return std::min(16 * depth * depth + 110 * depth - 100, 1700); }

// Gravity update: the entry moves toward +-Limit and saturates there instead of overflowing (a bonus is first clamped
// to +-MaxStep, at most Limit).
template <int Limit, int MaxStep = Limit>
inline void gravity_update(int16_t& e, int bonus) {
  static_assert(0 < MaxStep && MaxStep <= Limit && Limit <= INT16_MAX);
  const int b = std::clamp(bonus, -MaxStep, MaxStep);
  e = int16_t(e + b - e * std::abs(b) / Limit);
}

inline void update_history_entry(int16_t& e, int bonus) { gravity_update<HISTORY_MAX>(e, bonus); }

class ButterflyHistory {
 public:
  void clear() { std::memset(table_, 0, sizeof(table_)); }
  int get(Color c, Move m) const { return table_[c][from_index(m)][to_sq(m)]; }
  void update(Color c, Move m, int bonus) { update_history_entry(table_[c][from_index(m)][to_sq(m)], bonus); }

 private:
  int16_t table_[COLOR_NB][FROM_NB][SQ_NB] = {};
};

// How the moves that follow one earlier move did, by the piece each puts on its destination (a drop and a board
// move of the same piece to the same square share an entry; a promotion counts as the promoted piece).
class PieceToHistory {
 public:
  int get(Move m) const { return table_[moved_piece_after(m)][to_sq(m)]; }
  void update(Move m, int bonus) { update_history_entry(table_[moved_piece_after(m)][to_sq(m)], bonus); }

 private:
  int16_t table_[PIECE_NB][SQ_NB];
};

// A PieceToHistory for every earlier move, by its piece and destination: 13 MB, so a worker holds it on the heap.
class ContinuationHistory {
 public:
  void clear() { std::memset(table_, 0, sizeof(table_)); }
  // The statistics of the moves played after `previous`, which must be a real move (not null or none).
  PieceToHistory* after(Move previous) { return &table_[moved_piece_after(previous)][to_sq(previous)]; }

 private:
  PieceToHistory table_[PIECE_NB][SQ_NB];
};

// How captures and promotions did, by the piece each puts on its destination and the piece type it takes
// (NO_PIECE_TYPE for a promotion that takes nothing): added to MVV-LVA when captures are ordered.
class CaptureHistory {
 public:
  void clear() { std::memset(table_, 0, sizeof(table_)); }
  int get(Move m, PieceType captured) const { return table_[moved_piece_after(m)][to_sq(m)][captured]; }
  void update(Move m, PieceType captured, int bonus) {
    update_history_entry(table_[moved_piece_after(m)][to_sq(m)][captured], bonus);
  }

 private:
  int16_t table_[PIECE_NB][SQ_NB][PIECE_TYPE_NB] = {};
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

// How far the static evaluation missed the search's result in positions alike in what the evaluation sees worst:
// both hands and both king squares (a material and king-safety signature), by side to move. The search adds a
// share of the entry to the static evaluation. Indexed by a hash of that signature; collisions only blur it.
class CorrectionHistory {
 public:
  static constexpr int LIMIT = 1024;
  static constexpr int SIZE = 1 << 14;

  void clear() { std::memset(table_, 0, sizeof(table_)); }
  int get(Color c, uint64_t signature) const { return table_[c][index(signature)]; }
  // bonus: the miss in centipawns scaled by depth (a deep result says more than a shallow one), clamped so that one
  // position moves an entry by at most a quarter of its range.
  void update(Color c, uint64_t signature, int bonus) {
    gravity_update<LIMIT, LIMIT / 4>(table_[c][index(signature)], bonus);
  }

  // A static evaluation `raw` with an eighth of its entry added, kept below a known win (as the learned evaluation
  // keeps itself; the hand-written one can pass it): the pruning that trusts a static evaluation takes it for less.
  static Value corrected(Value raw, int entry) { return clamp_static(raw + entry / 8); }
  // Whether a node's search value can measure the evaluation's miss: a known win, a perpetual check or a mate is
  // the search's verdict on the game, not a miss.
  static bool teaches(Value search_value) { return std::abs(search_value) < VALUE_KNOWN_WIN; }

 private:
  static size_t index(uint64_t signature) { return size_t((signature * 0x9E3779B97F4A7C15ULL) >> 50); }
  int16_t table_[COLOR_NB][SIZE] = {};
};

}  // namespace shogi
