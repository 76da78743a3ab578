#pragma once
// Staged move ordering: the hash move, good captures (MVV-LVA plus capture history, kept only if SEE >= 0), killers,
// the counter-move, quiets by history (butterfly plus the continuation histories of the line's earlier moves), and the
// losing captures last. Separate stage sequences serve evasions, quiescence search (captures, then quiet checks at its
// first ply) and ProbCut (captures beating a SEE threshold).
// Moves come out pseudo-legal; the caller tests Position::legal.

#include <array>

#include "rules/movegen.h"
#include "rules/position.h"
#include "search/history.h"
#include "search/value.h"

namespace shogi {

// Moves the moves valued at least `limit` (and always the first) to the front, sorted by descending value with
// equal values in their order, and leaves the others behind them; the order is exactly that of Stockfish's
// partial insertion sort, found in O(n log n): shogi's quiet moves, drops included, are often a hundred or more of
// nearly equal history, where an insertion sort is quadratic.
void sort_moves_above(ExtMove* begin, ExtMove* end, int limit);

// Whether the picker orders m with the captures (a capture, or a pawn's promotion) rather than with the quiet moves
// (by quiet history, a promotion of another piece onto an empty square among them): each kind's statistics learn
// from the moves ordered by them.
// The first form is for a caller that already knows whether m captures.
inline bool capture_stage(bool captures, Move m) {
  return captures || (is_promotion(m) && type_of(moved_piece(m)) == PAWN);
}
inline bool capture_stage(const Position& pos, Move m) { return capture_stage(pos.is_capture(m), m); }

// The piece type a capture or promotion takes: NO_PIECE_TYPE for a drop or a promotion onto an empty square.
inline PieceType captured_type(const Position& pos, Move m) {
  return is_drop(m) ? NO_PIECE_TYPE : type_of(pos.piece_on(to_sq(m)));
}

class MovePicker {
 public:
  // The continuation histories a main-search picker adds to the butterfly history: after the moves one, two and
  // four plies back, each nullptr when there is none (before the root, a null move).
  using Continuations = std::array<const PieceToHistory*, 3>;

  // Main search.
  MovePicker(const Position& pos, Move tt_move, Depth depth, const ButterflyHistory* history,
             const CaptureHistory* capture_history, const Continuations& continuations, const Move* killers,
             Move counter_move);
  // Quiescence search: evasions when in check, else captures and, at depth DEPTH_QS_CHECKS, quiet checks.
  MovePicker(const Position& pos, Move tt_move, Depth depth, const ButterflyHistory* history,
             const CaptureHistory* capture_history);
  // ProbCut: captures whose SEE reaches the threshold.
  MovePicker(const Position& pos, Move tt_move, int threshold);

  MovePicker(const MovePicker&) = delete;
  MovePicker& operator=(const MovePicker&) = delete;

  // MOVE_NONE when exhausted. With skip_quiets the remaining quiet moves (and killers) are skipped.
  Move next_move(bool skip_quiets = false);

 private:
  template <GenType Type>
  void score();
  ExtMove* pick_best(ExtMove* begin, ExtMove* end);

  const Position& pos_;
  const ButterflyHistory* history_ = nullptr;
  const CaptureHistory* capture_history_ = nullptr;
  Continuations continuations_ = {};
  Move tt_move_;
  ExtMove refutations_[3] = {};
  ExtMove *cur_ = nullptr, *end_ = nullptr, *end_bad_captures_ = nullptr;
  int stage_ = 0;
  int threshold_ = 0;
  Depth depth_ = 0;
  ExtMove moves_[MAX_MOVES];
};

}  // namespace shogi
