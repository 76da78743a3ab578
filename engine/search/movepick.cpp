#include "search/movepick.h"

#include <algorithm>

#include "search/see.h"
#include "search/tune.h"

namespace shogi {

namespace {

enum Stages {
  MAIN_TT, CAPTURE_INIT, GOOD_CAPTURE, REFUTATION, QUIET_INIT, QUIET, BAD_CAPTURE,
  EVASION_TT, EVASION_INIT, EVASION,
  PROBCUT_TT, PROBCUT_INIT, PROBCUT,
  QSEARCH_TT, QCAPTURE_INIT, QCAPTURE, QCHECK_INIT, QCHECK,
};

bool higher(const ExtMove& a, const ExtMove& b) { return a.value > b.value; }

void insertion_sort_descending(ExtMove* begin, ExtMove* end) {
  for (ExtMove* p = begin + 1; p < end; ++p) {
    const ExtMove tmp = *p;
    ExtMove* q = p;
    for (; q != begin && (q - 1)->value < tmp.value; --q) *q = *(q - 1);
    *q = tmp;
  }
}

// A stable sort by descending value without the heap allocation of std::stable_sort: sorted runs of a few moves,
// then merges between the moves and a buffer on the stack (std::merge takes equal values from its first range
// first, which keeps their order).
void stable_sort_descending(ExtMove* begin, ExtMove* end) {
  constexpr std::ptrdiff_t RUN = 16;
  const std::ptrdiff_t n = end - begin;
  for (ExtMove* run = begin; run < end; run += std::min(RUN, end - run))
    insertion_sort_descending(run, std::min(run + RUN, end));
  if (n <= RUN) return;
  ExtMove buffer[MAX_MOVES];
  ExtMove *from = begin, *to = buffer;
  for (std::ptrdiff_t width = RUN; width < n; width *= 2) {
    for (std::ptrdiff_t lo = 0; lo < n; lo += 2 * width) {
      const std::ptrdiff_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      std::merge(from + lo, from + mid, from + mid, from + hi, to + lo, higher);
    }
    std::swap(from, to);
  }
  if (from != begin) std::copy(from, from + n, begin);
}

int mvv_lva(const Position& pos, Move m) {
  const Piece captured = is_drop(m) ? NO_PIECE : pos.piece_on(to_sq(m));
  int gain = captured == NO_PIECE ? 0 : capture_value(type_of(captured));
  if (is_promotion(m)) gain += promotion_gain(type_of(moved_piece(m)));
  return 8 * gain - piece_value(type_of(moved_piece(m)));
}

}  // namespace

void sort_moves_above(ExtMove* begin, ExtMove* end, int limit) {
  if (end - begin < 2) return;
  // The insertion sort this replaces took each selected move out of its slot and filled the slot with the move
  // just behind the sorted front: the same swaps leave the others where it left them.
  ExtMove* front_end = begin + 1;
  for (ExtMove* p = begin + 1; p < end; ++p)
    if (p->value >= limit) std::iter_swap(p, front_end++);
  stable_sort_descending(begin, front_end);
}

MovePicker::MovePicker(const Position& pos, Move tt_move, Depth depth, const ButterflyHistory* history,
                       const CaptureHistory* capture_history, const Continuations& continuations, const Move* killers,
                       Move counter_move)
    : pos_(pos),
      history_(history),
      capture_history_(capture_history),
      continuations_(continuations),
      tt_move_(tt_move),
      depth_(depth) {
  refutations_[0].move = killers[0];
  refutations_[1].move = killers[1];
  refutations_[2].move = counter_move;
  stage_ = (pos.in_check() ? EVASION_TT : MAIN_TT) + !(tt_move && pos.pseudo_legal(tt_move));
}

MovePicker::MovePicker(const Position& pos, Move tt_move, Depth depth, const ButterflyHistory* history,
                       const CaptureHistory* capture_history)
    : pos_(pos), history_(history), capture_history_(capture_history), tt_move_(tt_move), depth_(depth) {
  // The hash move goes first if it is one of this node's moves: an evasion, a capture or promotion, or at the first
  // ply a quiet check (what a node here stores when a check drop was its best). Otherwise it is no hash move at
  // all: the later stages skip the hash move as already tried, and a quiet check kept there was never tried.
  const bool tt_ok = tt_move && pos.pseudo_legal(tt_move) &&
                     (pos.in_check() || pos.is_capture_or_promotion(tt_move) ||
                      (depth == DEPTH_QS_CHECKS && pos.gives_check(tt_move)));
  if (!tt_ok) tt_move_ = MOVE_NONE;
  stage_ = (pos.in_check() ? EVASION_TT : QSEARCH_TT) + !tt_ok;
}

MovePicker::MovePicker(const Position& pos, Move tt_move, int threshold)
    : pos_(pos), tt_move_(tt_move), threshold_(threshold) {
  const bool tt_ok = tt_move && pos.is_capture(tt_move) && pos.pseudo_legal(tt_move) && see_ge(pos, tt_move, threshold);
  stage_ = PROBCUT_TT + !tt_ok;
}

template <GenType Type>
void MovePicker::score() {
  const Color us = pos_.side_to_move();
  for (ExtMove* m = cur_; m != end_; ++m) {
    if constexpr (Type == CAPTURES) {
      m->value = mvv_lva(pos_, m->move);
      if (capture_history_)
        m->value += capture_history_->get(m->move, captured_type(pos_, m->move)) / tune::CaptureHistoryDivisor;
    } else if constexpr (Type == QUIETS) {
      m->value = history_ ? history_->get(us, m->move) : 0;
      for (const PieceToHistory* c : continuations_)
        if (c) m->value += c->get(m->move);
      // A quiet direct check comes earlier whatever its history (Stockfish's bonus): history is learned per square,
      // and a checking drop that history has not met yet would wait behind every quiet move it has.
      if (pos_.check_squares(type_of(moved_piece_after(m->move))).test(to_sq(m->move)))
        m->value += tune::QuietCheckBonus;
    } else {  // EVASIONS
      m->value = pos_.is_capture(m->move) ? (1 << 28) + mvv_lva(pos_, m->move)
                                          : (history_ ? history_->get(us, m->move) : 0);
    }
  }
}

ExtMove* MovePicker::pick_best(ExtMove* begin, ExtMove* end) {
  std::swap(*begin, *std::max_element(begin, end, [](const ExtMove& a, const ExtMove& b) { return a.value < b.value; }));
  return begin;
}

Move MovePicker::next_move(bool skip_quiets) {
top:
  switch (stage_) {
    case MAIN_TT:
    case EVASION_TT:
    case QSEARCH_TT:
    case PROBCUT_TT:
      ++stage_;
      return tt_move_;

    case CAPTURE_INIT:
    case PROBCUT_INIT:
    case QCAPTURE_INIT:
      cur_ = end_bad_captures_ = moves_;
      end_ = generate<CAPTURES>(pos_, cur_);
      score<CAPTURES>();
      ++stage_;
      goto top;

    case GOOD_CAPTURE:
      while (cur_ < end_) {
        ExtMove* m = pick_best(cur_++, end_);
        if (m->move == tt_move_) continue;
        // A capture that loses material waits until after the quiet moves.
        if (see_ge(pos_, m->move, 0)) return m->move;
        *end_bad_captures_++ = *m;
      }
      // Killers and the counter-move must be quiet, new and possible here.
      cur_ = refutations_;
      end_ = refutations_ + 3;
      if (refutations_[2].move == refutations_[0].move || refutations_[2].move == refutations_[1].move)
        --end_;
      ++stage_;
      [[fallthrough]];

    case REFUTATION:
      if (!skip_quiets)
        while (cur_ < end_) {
          const Move m = (cur_++)->move;
          if (m != MOVE_NONE && m != tt_move_ && !capture_stage(pos_, m) && pos_.pseudo_legal(m)) return m;
        }
      ++stage_;
      [[fallthrough]];

    case QUIET_INIT:
      if (!skip_quiets) {
        cur_ = end_bad_captures_;
        end_ = generate<QUIETS>(pos_, cur_);
        score<QUIETS>();
        sort_moves_above(cur_, end_, -3000 * depth_);
      }
      ++stage_;
      [[fallthrough]];

    case QUIET:
      if (!skip_quiets)
        while (cur_ < end_) {
          const Move m = (cur_++)->move;
          if (m != tt_move_ && m != refutations_[0].move && m != refutations_[1].move && m != refutations_[2].move)
            return m;
        }
      cur_ = moves_;
      end_ = end_bad_captures_;
      ++stage_;
      [[fallthrough]];

    case BAD_CAPTURE:
      while (cur_ < end_) {
        const Move m = (cur_++)->move;
        if (m != tt_move_) return m;
      }
      return MOVE_NONE;

    case EVASION_INIT:
      cur_ = moves_;
      end_ = generate<EVASIONS>(pos_, cur_);
      score<EVASIONS>();
      ++stage_;
      [[fallthrough]];

    case EVASION:
      while (cur_ < end_) {
        const Move m = pick_best(cur_++, end_)->move;
        if (m != tt_move_) return m;
      }
      return MOVE_NONE;

    case PROBCUT:
      while (cur_ < end_) {
        const Move m = pick_best(cur_++, end_)->move;
        if (m != tt_move_ && pos_.is_capture(m) && see_ge(pos_, m, threshold_)) return m;
      }
      return MOVE_NONE;

    case QCAPTURE:
      while (cur_ < end_) {
        const Move m = pick_best(cur_++, end_)->move;
        if (m != tt_move_) return m;
      }
      if (depth_ != DEPTH_QS_CHECKS) return MOVE_NONE;
      ++stage_;
      [[fallthrough]];

    case QCHECK_INIT:
      cur_ = moves_;
      end_ = generate<QUIET_CHECKS>(pos_, cur_);
      ++stage_;
      [[fallthrough]];

    case QCHECK:
      while (cur_ < end_) {
        const Move m = (cur_++)->move;
        if (m != tt_move_) return m;
      }
      return MOVE_NONE;
  }
  return MOVE_NONE;
}

}  // namespace shogi
